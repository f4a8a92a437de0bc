import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import type { PushRequest } from '@docket/protocol/sync-changes';
import { SYNC_NUDGE_EVENT, syncNudgeSchema, type SyncNudge } from '@docket/protocol/sync-events';
import type { SyncSettingsWrite } from '@docket/protocol/sync-settings';
import { syncPaths } from '@docket/protocol/sync-wire';
import type { FastifyInstance } from 'fastify';

// What a sync client sends, made up for tests: random bytes stand in for ciphertext, since the
// server must treat every byte as opaque anyway.

export function fakeCiphertext(bytes = 48): string {
  return randomBytes(bytes).toString('base64');
}

export function makeBatch(count: number, overrides: Partial<PushRequest> = {}): PushRequest {
  return {
    batchId: randomUUID(),
    deviceId: 'device-a',
    epoch: 0,
    envelopes: Array.from({ length: count }, (_item, index) => ({
      id: `001736942400000-${index.toString(16).padStart(4, '0')}-device-a`,
      ciphertext: fakeCiphertext(),
    })),
    ...overrides,
  };
}

export function passwordSettings(keyEpoch = 0, label = 'one'): SyncSettingsWrite {
  return {
    passwordHash: `$argon2id$v=19$m=65536,t=3,p=1$${label}$aGFzaA`,
    keyDerivation: {
      algorithm: 'argon2id',
      salt: randomBytes(16).toString('base64'),
      memoryKiB: 65536,
      iterations: 3,
      parallelism: 1,
    },
    wrappedDataKey: randomBytes(60).toString('base64'),
    keyEpoch,
  };
}

const protocolHeaders = { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };

export function push(app: FastifyInstance, cookie: string, batch: unknown) {
  return app.inject({
    method: 'POST',
    url: syncPaths.push,
    headers: { cookie, ...protocolHeaders },
    payload: batch as Record<string, unknown>,
  });
}

export function pull(app: FastifyInstance, cookie: string, query: string) {
  return app.inject({
    method: 'GET',
    url: `${syncPaths.pull}?${query}`,
    headers: { cookie, ...protocolHeaders },
  });
}

export function readSettings(app: FastifyInstance, cookie: string) {
  return app.inject({ method: 'GET', url: syncPaths.settings, headers: { cookie } });
}

export function writeSettings(
  app: FastifyInstance,
  cookie: string,
  expectedVersion: number,
  settings: unknown,
) {
  return app.inject({
    method: 'PUT',
    url: syncPaths.settings,
    headers: { cookie, ...protocolHeaders },
    payload: { expectedVersion, settings } as Record<string, unknown>,
  });
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function putBlob(
  app: FastifyInstance,
  cookie: string,
  address: string,
  bytes: Buffer,
  contentType = 'application/octet-stream',
) {
  return app.inject({
    method: 'PUT',
    url: `${syncPaths.blobs}/${address}`,
    headers: { cookie, 'content-type': contentType },
    payload: bytes,
  });
}

export function getBlob(app: FastifyInstance, cookie: string, address: string) {
  return app.inject({ method: 'GET', url: `${syncPaths.blobs}/${address}`, headers: { cookie } });
}

/** Whether the user has a blob, as a device asks before putting a pack (HEAD). */
export function hasBlob(app: FastifyInstance, cookie: string, address: string) {
  return app.inject({ method: 'HEAD', url: `${syncPaths.blobs}/${address}`, headers: { cookie } });
}

export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * A server-sent event stream read over real HTTP, the way a browser's EventSource reads it:
 * `next()` resolves with the next event (heartbeat comments come back as event `comment`).
 */
export async function openEventStream(address: string, cookie: string) {
  const abort = new AbortController();
  const response = await fetch(`${address}${syncPaths.events}`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (response.body === null) throw new Error('The event stream has no body');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pending: ServerSentEvent[] = [];

  async function next(timeoutMs = 10_000): Promise<ServerSentEvent | null> {
    const deadline = Date.now() + timeoutMs;
    while (pending.length === 0) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('No server-sent event arrived in time');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          reject(new Error('No server-sent event arrived in time'));
        }, remaining);
      });
      const chunk = await Promise.race([reader.read(), timeout]).finally(() => {
        clearTimeout(timer);
      });
      if (chunk.done) return null;
      buffer += chunk.value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        pending.push(parseEvent(block));
      }
    }
    return pending.shift() ?? null;
  }

  /** The next nudge, skipping heartbeats and the reconnect hint. */
  async function nextNudge(timeoutMs?: number): Promise<SyncNudge> {
    for (;;) {
      const event = await next(timeoutMs);
      if (event === null) throw new Error('The event stream ended before a nudge');
      if (event.event === SYNC_NUDGE_EVENT) return syncNudgeSchema.parse(JSON.parse(event.data));
    }
  }

  return {
    response,
    next,
    nextNudge,
    close: () => {
      abort.abort();
    },
  };
}

function parseEvent(block: string): ServerSentEvent {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) return { event: 'comment', data: line.slice(1).trim() };
    const [field = '', ...rest] = line.split(':');
    const value = rest.join(':').replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry') event = 'retry';
  }
  return { event, data: data.join('\n') };
}
