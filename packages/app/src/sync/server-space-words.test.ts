import { describe, expect, it } from 'vitest';
import { serverSpaceLines } from './server-space-words.ts';

const MB = 1024 * 1024;
const room = (usedBytes: number, limitBytes = 200 * MB) => ({ usedBytes, limitBytes });

describe('serverSpaceLines', () => {
  it('says how much of each quota is used, with no warning while there is room', () => {
    const lines = serverSpaceLines({ blobs: room(12 * MB), log: room(0), backups: room(512) });
    expect(lines.map((line) => [line.name, line.amount, line.warning])).toEqual([
      ['Dataset files', '12.0 MB of 200.0 MB used', null],
      ['Synced changes', '0 bytes of 200.0 MB used', null],
      ['Backups and links', '512 bytes of 200.0 MB used', null],
    ]);
    expect(lines[0]?.share).toBeCloseTo(0.06);
  });

  it('warns from nine tenths on, and says what a full quota means', () => {
    const [blobs, log, backups] = serverSpaceLines({
      blobs: room(181 * MB),
      log: room(200 * MB),
      backups: room(250 * MB),
    });
    expect(blobs?.warning).toBe(
      'Almost full: once it is, new dataset files stay on this device and do not reach your other devices.',
    );
    expect(log?.warning).toBe(
      'Full: new changes stay on this device and do not reach your other devices.',
    );
    expect(backups?.warning).toBe('Full: no backup or link can be made until you delete some.');
    expect(backups?.share).toBe(1);
  });

  it('takes a quota of nothing as full', () => {
    expect(serverSpaceLines({ blobs: room(0, 0), log: room(0), backups: room(0) })[0]?.share).toBe(
      1,
    );
  });
});
