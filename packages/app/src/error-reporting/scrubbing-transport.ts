import type { BrowserOptions } from '@sentry/react';
import { hasLinkKey, withoutLinkKeys } from './secret-scrub.ts';

// A session recording's own events (the page's address in each "meta" event, the page's DOM)
// never pass through replay's `beforeAddRecordingEvent`, which sees only the SDK's custom events
// (breadcrumbs, network spans). So the recording is scrubbed on its way out instead: the
// transport takes every link key out of a recording before it is sent (issue 38).

type TransportFactory = NonNullable<BrowserOptions['transport']>;
type Envelope = Parameters<ReturnType<TransportFactory>['send']>[0];

/** The transport, with every link key taken out of the session recordings it is given. */
export function withoutRecordedLinkKeys(makeTransport: TransportFactory): TransportFactory {
  return (options) => {
    const transport = makeTransport(options);
    return {
      async send(envelope) {
        const scrubbed = await withoutKeysInRecordings(envelope);
        // A recording that could not be read for keys is not sent at all.
        return scrubbed === null ? {} : transport.send(scrubbed);
      },
      flush: (timeout) => transport.flush(timeout),
    };
  };
}

async function withoutKeysInRecordings(envelope: Envelope): Promise<Envelope | null> {
  const [headers, items] = envelope;
  if (!items.some(([itemHeaders]) => itemHeaders.type === 'replay_recording')) return envelope;
  const scrubbedItems: unknown[] = [];
  for (const [itemHeaders, payload] of items) {
    if (itemHeaders.type !== 'replay_recording') {
      scrubbedItems.push([itemHeaders, payload]);
      continue;
    }
    const recording = await withoutKeysInRecording(payload as string | Uint8Array);
    if (recording === null) return null;
    const length =
      typeof recording === 'string' ? new TextEncoder().encode(recording).length : recording.length;
    scrubbedItems.push([{ ...itemHeaders, length }, recording]);
  }
  // The same kinds of items as came in, under the same headers: only payloads were rewritten.
  return [headers, scrubbedItems] as unknown as Envelope;
}

/**
 * A recording's payload without link keys. It is its header line then its events, as JSON text
 * or (from replay's compression worker) deflated with zlib's format; null when it is compressed
 * and this browser cannot inflate it, so it cannot be checked.
 */
async function withoutKeysInRecording(
  payload: string | Uint8Array,
): Promise<string | Uint8Array | null> {
  if (typeof payload === 'string') return withoutLinkKeys(payload);
  if (typeof DecompressionStream === 'undefined' || typeof CompressionStream === 'undefined') {
    return null;
  }
  const lineEnd = payload.indexOf(0x0a) + 1;
  const events = await streamed(payload.subarray(lineEnd), new DecompressionStream('deflate'));
  const text = new TextDecoder().decode(events);
  if (!hasLinkKey(text)) return payload;
  const deflated = await streamed(
    new TextEncoder().encode(withoutLinkKeys(text)),
    new CompressionStream('deflate'),
  );
  const scrubbed = new Uint8Array(lineEnd + deflated.length);
  scrubbed.set(payload.subarray(0, lineEnd));
  scrubbed.set(deflated, lineEnd);
  return scrubbed;
}

async function streamed(bytes: Uint8Array, through: GenericTransformStream): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(through);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
