// A source's answer watched for silence: a request whose answer has not begun, or whose body has
// sent nothing, for a whole stall period is aborted and fails with SourceStalledError, so an
// import says why it stopped instead of reading files forever. The period is long enough for the
// Docket server's relay, which gives up on a source on its own after 50 s (SOURCE_TIMEOUT_SECONDS)
// and says so with a 504; a large download that keeps coming is never cut, however long it takes.

/** How long a source may send nothing before the request is given up: 90 s. */
export const SOURCE_STALL_MS = 90_000;

/** A source that sent nothing for a whole stall period. */
export class SourceStalledError extends Error {
  /** The stall period in seconds (to a tenth), for the words of a failure. */
  readonly seconds: number;

  constructor(stallMs: number) {
    const seconds = Number((stallMs / 1000).toFixed(1));
    super(
      `Nothing came for ${String(seconds)} seconds, so Docket stopped waiting. Try again later.`,
    );
    this.name = 'SourceStalledError';
    this.seconds = seconds;
  }
}

/** Whether the answer can be rebuilt around a watched body: it has one, and a status `new Response` takes. */
function rebuildable(response: Response): boolean {
  const { status } = response;
  return (
    response.body !== null && status >= 200 && status <= 599 && ![204, 205, 304].includes(status)
  );
}

/** Rejects with `signal`'s reason once it aborts: for fetches that ignore their signal. */
function abortedBy(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener(
      'abort',
      () => {
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

/**
 * The answer `start` fetches with the signal it is given, aborted when it sends nothing for
 * `stallMs`: before the answer begins (rejects with SourceStalledError), or between two chunks of
 * its body (the body's read fails with it). Other failures pass through unchanged.
 */
export async function stallGuarded(
  start: (signal: AbortSignal) => Promise<Response>,
  stallMs = SOURCE_STALL_MS,
): Promise<Response> {
  const controller = new AbortController();
  const stalled = new SourceStalledError(stallMs);
  let reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>> | null = null;
  // Aborting ends the request where the fetch honours its signal; cancelling the reader ends a
  // pending read where it does not.
  const stall = () => {
    controller.abort(stalled);
    reader?.cancel(stalled).catch(() => undefined);
  };
  let timer = setTimeout(stall, stallMs);
  let response: Response;
  try {
    // Raced against the abort too: the native shells' fetch, a message to the page, ignores it.
    response = await Promise.race([start(controller.signal), abortedBy(controller.signal)]);
  } catch (error) {
    throw controller.signal.aborted ? stalled : error;
  } finally {
    clearTimeout(timer);
  }
  if (!rebuildable(response)) return response;
  const source = (response.body as ReadableStream<Uint8Array<ArrayBuffer>>).getReader();
  reader = source;
  // The clock runs only while a read waits on the source: a reader busy with what came is not
  // the source's silence.
  const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(out) {
      timer = setTimeout(stall, stallMs);
      try {
        const chunk = await source.read();
        if (controller.signal.aborted) out.error(stalled);
        else if (chunk.done) out.close();
        else out.enqueue(chunk.value);
      } catch (error) {
        out.error(controller.signal.aborted ? stalled : error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      return source.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** `fetch` with every request stall-guarded, its own signal joined to the guard's. */
export function stallGuardedFetch<Kept>(
  fetch: (url: string, init: RequestInit, kept: Kept) => Promise<Response>,
  stallMs = SOURCE_STALL_MS,
): (url: string, init: RequestInit, kept: Kept) => Promise<Response> {
  return (url, init, kept) =>
    stallGuarded(
      (signal) =>
        fetch(
          url,
          {
            ...init,
            signal:
              init.signal === undefined || init.signal === null
                ? signal
                : AbortSignal.any([init.signal, signal]),
          },
          kept,
        ),
      stallMs,
    );
}
