import { afterEach, describe, expect, it, vi } from 'vitest';
import { SourceStalledError, stallGuarded, stallGuardedFetch } from './stall-guard.ts';

const STALL = 2_000;
const bytes = (text: string) => new TextEncoder().encode(text);

/** A source that never answers; `signals` collects the signal each request was given. */
function silentSource(signals: AbortSignal[]) {
  return (signal: AbortSignal) => {
    signals.push(signal);
    return new Promise<Response>(() => undefined);
  };
}

/** A body that sends `chunks`, one every `everyMs` (after the first), then ends or goes silent. */
function trickle(chunks: string[], everyMs: number, then: 'end' | 'silence') {
  let sent = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(out) {
      if (sent > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
      const chunk = chunks[sent];
      sent += 1;
      if (chunk !== undefined) out.enqueue(bytes(chunk));
      else if (then === 'end') out.close();
      else await new Promise(() => undefined);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, cancelled: () => cancelled };
}

describe('a source watched for silence', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives up on an answer that never begins, and aborts the request', async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    const answer = stallGuarded(silentSource(signals), STALL);
    const failed = expect(answer).rejects.toThrow(
      'Nothing came for 2 seconds, so Docket stopped waiting. Try again later.',
    );
    await vi.advanceTimersByTimeAsync(STALL - 1);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await failed;
    await expect(answer).rejects.toBeInstanceOf(SourceStalledError);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('gives up on a body that goes silent, and cancels what it read from', async () => {
    vi.useFakeTimers();
    const source = trickle(['first part'], 10, 'silence');
    const answer = await stallGuarded(() => Promise.resolve(new Response(source.body)), STALL);
    const read = answer.arrayBuffer();
    const failed = expect(read).rejects.toBeInstanceOf(SourceStalledError);
    await vi.advanceTimersByTimeAsync(STALL + 10);
    await failed;
    expect(source.cancelled()).toBe(true);
  });

  it('never cuts a slow body that keeps coming, however long it takes in all', async () => {
    vi.useFakeTimers();
    const parts = Array.from({ length: 8 }, (_, index) => `part ${String(index)};`);
    const source = trickle(parts, STALL * 0.9, 'end');
    const answer = await stallGuarded(
      () =>
        Promise.resolve(
          new Response(source.body, { status: 203, statusText: 'Slow', headers: { etag: '"s"' } }),
        ),
      STALL,
    );
    expect([answer.status, answer.statusText, answer.headers.get('etag')]).toEqual([
      203,
      'Slow',
      '"s"',
    ]);
    const read = answer.text();
    await vi.advanceTimersByTimeAsync(STALL * 8);
    expect(await read).toBe(parts.join(''));
  });

  it('does not count the time a reader spends on what came as the source being silent', async () => {
    vi.useFakeTimers();
    const source = trickle(['one', 'two'], 0, 'end');
    const answer = await stallGuarded(() => Promise.resolve(new Response(source.body)), STALL);
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('one');
    await vi.advanceTimersByTimeAsync(STALL * 3);
    const next = reader.read();
    await vi.advanceTimersByTimeAsync(1);
    expect(decoder.decode((await next).value)).toBe('two');
    const end = reader.read();
    await vi.advanceTimersByTimeAsync(1);
    expect((await end).done).toBe(true);
  });

  it('passes on other failures as they are (a refusal by CORS stays a TypeError) and an answer without a body', async () => {
    await expect(
      stallGuarded(() => Promise.reject(new TypeError('Failed to fetch')), STALL),
    ).rejects.toThrow(new TypeError('Failed to fetch'));
    const notModified = new Response(null, { status: 304 });
    expect(await stallGuarded(() => Promise.resolve(notModified), STALL)).toBe(notModified);
  });

  it("joins the caller's own signal: a cancel aborts with the caller's reason, not a stall", async () => {
    const cancel = new AbortController();
    const seen: RequestInit[] = [];
    const fetch = stallGuardedFetch(
      (_url: string, init: RequestInit, _kept: null) =>
        new Promise<Response>((_resolve, reject) => {
          seen.push(init);
          init.signal?.addEventListener('abort', () => {
            reject(init.signal?.reason as Error);
          });
        }),
      STALL,
    );
    const answer = fetch('https://example.org/a.csv', { signal: cancel.signal }, null);
    cancel.abort(new Error('Cancelled by the user'));
    await expect(answer).rejects.toThrow('Cancelled by the user');
    expect(seen).toHaveLength(1);
  });
});
