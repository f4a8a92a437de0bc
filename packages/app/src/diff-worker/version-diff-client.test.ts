import { compareTexts } from '@docket/core/text';
import { expose } from 'comlink';
import { diffWordsWithSpace } from 'diff';
import { afterEach, describe, expect, it } from 'vitest';
import { createVersionDiffClient } from './version-diff-client.ts';
import { versionDiffApi } from './version-diff-service.ts';

// The diff through a message channel, as the page asks the worker: the same runs the page made
// itself before, and only the latest of two questions answered.

const older =
  'Sec. 2. HOURS.\n\n    Every public library shall stay open until nine in the evening on\nweekdays.';
const newer =
  'Sec. 2. HOURS.\n\n    Every public library shall stay open until ten in the evening on\nweekdays and Saturdays.';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

function overChannel() {
  const channel = new MessageChannel();
  channels.push(channel);
  expose(versionDiffApi, channel.port1);
  return createVersionDiffClient(() => channel.port2);
}

describe('the diff worker', () => {
  it('gives the word diff the page made itself, across the message channel', async () => {
    const diff = await overChannel().diff(older, newer);
    expect(diff).toEqual(compareTexts(older, newer, (a, b) => diffWordsWithSpace(a, b)));
    expect(diff).toMatchObject({ addedWords: 3, removedWords: 1 });
    if (diff === null || diff === 'stale') throw new Error('no diff');
    expect(diff.runs.filter((run) => run.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'nine' },
      { kind: 'added', text: 'ten' },
      { kind: 'added', text: ' and Saturdays' },
    ]);
  });

  it('answers only the latest of two questions', async () => {
    const client = overChannel();
    const first = client.diff(older, newer);
    const second = client.diff(newer, older);
    expect(await first).toBe('stale');
    expect(await second).toMatchObject({ addedWords: 1, removedWords: 3 });
  });
});
