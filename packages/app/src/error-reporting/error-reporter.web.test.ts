import * as Sentry from '@sentry/react';
import { afterAll, describe, expect, it } from 'vitest';
import { createErrorReporter } from './error-reporter.ts';

// Issue 38: a public link's key never leaves its fragment. secret-scrub.test.ts checks the
// scrubbers; this checks their wiring, in a real browser with the real SDK set up by
// createErrorReporter: whatever Sentry would send (errors, breadcrumbs, session recordings) is
// kept by a transport in place of Sentry's, and none of it holds the key.

type TransportFactory = NonNullable<Sentry.BrowserOptions['transport']>;
type Envelope = Parameters<ReturnType<TransportFactory>['send']>[0];

const LINK_ID = '3f9b2c1e-8d47-4a6b-9e05-7c1d2a4b6e80';
const LINK_KEY = 'Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC1saW5rLWs'; // 43 characters, as a link's are
const API_KEY = 'LEGISCANSECRET0123456789abcdef';
const API_ADDRESS = `https://api.legiscan.com/?key=${API_KEY}&op=getDatasetList&state=AK`;

/** Text read from a recording: its header line, then its events, inflated if compressed. */
async function recordingText(payload: Uint8Array): Promise<string> {
  const lineEnd = payload.indexOf(0x0a);
  const header = new TextDecoder().decode(payload.subarray(0, lineEnd + 1));
  const body = payload.subarray(lineEnd + 1);
  // Replay compresses in a worker with zlib's format (first byte 0x78); else the body is JSON.
  if (body[0] !== 0x78) return header + new TextDecoder().decode(body);
  const inflated = new Blob([new Uint8Array(body)])
    .stream()
    .pipeThrough(new DecompressionStream('deflate'));
  return header + (await new Response(inflated).text());
}

/** An envelope as text, as its serialization would read with every recording inflated. */
async function envelopeText([headers, items]: Envelope): Promise<string> {
  const lines = [JSON.stringify(headers)];
  for (const [itemHeaders, payload] of items) {
    lines.push(JSON.stringify(itemHeaders));
    if (payload instanceof Uint8Array) lines.push(await recordingText(payload));
    else lines.push(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }
  return lines.join('\n');
}

/** A transport that keeps each envelope's text instead of sending it. */
function keepingTransport(): {
  transport: TransportFactory;
  texts: Promise<string>[];
  made: Promise<void>;
} {
  const texts: Promise<string>[] = [];
  let madeNow = (): void => undefined;
  const made = new Promise<void>((resolve) => (madeNow = resolve));
  const transport: TransportFactory = () => {
    madeNow();
    return {
      send(envelope) {
        texts.push(envelopeText(envelope));
        return Promise.resolve({ statusCode: 200 });
      },
      flush: () => Promise.resolve(true),
    };
  };
  return { transport, texts, made };
}

async function until(met: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await met())) {
    if (Date.now() > deadline) throw new Error('Timed out');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const pageAddress = location.href;

afterAll(async () => {
  await Sentry.close();
  history.replaceState(null, '', pageAddress);
  sessionStorage.removeItem('sentryReplaySession');
});

describe("Sentry, as the app sets it up, sends no public link's key", () => {
  it('keeps the key out of errors, breadcrumbs and session recordings', async () => {
    // Opened from a shared link: the key is in the page address from the start.
    history.replaceState(null, '', `/public-link/${LINK_ID}#k=${LINK_KEY}`);
    const kept = keepingTransport();
    createErrorReporter('https://abc@o1.ingest.sentry.io/1', 'test', { transport: kept.transport });
    await kept.made;

    // A navigation within the page (a breadcrumb, and a navigation in the recording) and a log
    // line that names the full address and a LegiScan request's.
    history.pushState(null, '', `/public-link/${LINK_ID}?tab=notes#k=${LINK_KEY}`);
    console.warn(`[docket] Opened ${location.href} after ${API_ADDRESS}`);
    Sentry.captureException(new Error(`Could not open ${location.href} (${API_ADDRESS})`));
    await Sentry.flush(5000);

    // The error (replays on error are always kept) turns the recording buffered since start
    // into a replay, sent once it is long enough (about five seconds).
    const texts = async () => Promise.all(kept.texts);
    await until(
      async () => (await texts()).some((text) => text.includes('"replay_recording"')),
      20_000,
    );
    await Sentry.flush(5000);
    const sent = await texts();

    const events = sent.filter((text) => text.includes('"type":"event"'));
    expect(events.length).toBeGreaterThan(0);
    expect(events.join('\n')).toContain(`/public-link/${LINK_ID}`);
    expect(events.join('\n')).toContain('[docket] Opened');
    const replays = sent.filter((text) => text.includes('"replay_recording"'));
    expect(replays.join('\n')).toContain(`/public-link/${LINK_ID}`);
    for (const text of sent) {
      expect(text).not.toContain(LINK_KEY);
      expect(text).not.toContain(API_KEY);
      // Scrubbed, a key reads `#k=…`: nothing else may follow `#k=`, plain or percent-encoded.
      expect(text).not.toMatch(/#k=(?!…)|%23k%3D(?!…|%E2%80%A6)/i);
    }
  });
});
