import { describe, expect, it } from 'vitest';
import { syncLabel, syncSentence, waitingWords } from './sync-words.ts';

describe('what the header and More say about sync', () => {
  it('says how far a first sync’s dataset files have come', () => {
    const view = { kind: 'syncing', phase: 'upload-files', done: 120, total: 732 } as const;
    expect(syncLabel(view)).toBe('Uploading 120 of 732 files');
    expect(syncSentence(view)).toBe(
      'Uploading 120 of 732 files of your datasets, encrypted, to the Docket server.',
    );
    expect(syncLabel({ kind: 'syncing', phase: 'download-files', done: 0, total: 1 })).toBe(
      'Downloading 0 of 1 file',
    );
  });

  it('adds the bytes moved, and of how many when the run knows', () => {
    const up = { done: 2_149_000, total: null };
    expect(
      syncLabel({ kind: 'syncing', phase: 'upload-files', done: 120, total: 732, bytes: up }),
    ).toBe('Uploading 120 of 732 files · 2.1 MB');
    const down = { done: 2_149_000, total: 11_200_000 };
    expect(
      syncSentence({
        kind: 'syncing',
        phase: 'download-files',
        done: 120,
        total: 732,
        bytes: down,
      }),
    ).toBe(
      'Downloading 120 of 732 files of your datasets (2.1 of 11.2 MB) from your other devices.',
    );
    // Nothing moved yet on an upload: no "0.0 MB".
    const none = { done: 0, total: null };
    expect(
      syncLabel({ kind: 'syncing', phase: 'upload-files', done: 0, total: 732, bytes: none }),
    ).toBe('Uploading 0 of 732 files');
  });

  it('asks for the terms when they hold sync back', () => {
    expect(syncLabel({ kind: 'needs-terms' })).toBe('Accept terms');
    expect(syncSentence({ kind: 'needs-terms' })).toMatch(/^Accept the terms of service to sync/);
  });
});

describe('changes waiting to sync', () => {
  it('counts them in words', () => {
    expect(waitingWords(1)).toBe('1 change waiting to sync');
    expect(waitingWords(3)).toBe('3 changes waiting to sync');
  });
});
