import { describe, expect, it } from 'vitest';
import { readSessionSnapshot } from './session-snapshot.ts';

const user = { id: 'u1', email: 'ann@example.org', name: 'ann', emailVerified: true };

describe('readSessionSnapshot', () => {
  it('is pending before the first answer', () => {
    expect(readSessionSnapshot({ data: null, error: null, isPending: true })).toEqual({
      kind: 'pending',
    });
  });

  it('shows the user of a session', () => {
    expect(
      readSessionSnapshot({ data: { user, session: {} }, error: null, isPending: false }),
    ).toEqual({ kind: 'signed-in', user: { id: 'u1', email: 'ann@example.org', name: 'ann' } });
  });

  it('shows none when the server answered without a session, or with 401', () => {
    expect(readSessionSnapshot({ data: null, error: null, isPending: false })).toEqual({
      kind: 'signed-out',
    });
    expect(
      readSessionSnapshot({ data: null, error: { status: 401, message: 'x' }, isPending: false }),
    ).toEqual({ kind: 'signed-out' });
  });

  it('is unreachable when the check failed without an answer', () => {
    expect(
      readSessionSnapshot({
        data: null,
        error: new TypeError('Failed to fetch'),
        isPending: false,
      }),
    ).toEqual({ kind: 'unreachable' });
    expect(readSessionSnapshot({ data: null, error: { status: 502 }, isPending: false })).toEqual({
      kind: 'unreachable',
    });
  });

  it('keeps a known user while a refetch fails', () => {
    expect(
      readSessionSnapshot({ data: { user }, error: new TypeError('offline'), isPending: false }),
    ).toMatchObject({ kind: 'signed-in' });
  });

  it('is unreachable for anything that is not a session store value', () => {
    for (const value of [
      null,
      'signed in',
      [],
      { data: null, error: null },
      { data: null, error: null, isPending: 'no' },
      { data: 'ann', error: null, isPending: false },
      { data: {}, error: null, isPending: false },
      { data: { user: { id: 'u1', email: 'ann@example.org' } }, error: null, isPending: false },
      { data: { user: { ...user, id: 7 } }, error: null, isPending: false },
    ]) {
      expect(readSessionSnapshot(value)).toEqual({ kind: 'unreachable' });
    }
  });
});
