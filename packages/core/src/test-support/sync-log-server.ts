import type {
  PullResponse,
  PushRequest,
  PushResponse,
  SyncChange,
} from '@docket/protocol/sync-changes';
import {
  MAX_ENVELOPE_BYTES,
  MAX_PUSH_BODY_BYTES,
  pullResponseSchema,
  pushRequestSchema,
} from '@docket/protocol/sync-changes';
import { base64ByteLength } from '@docket/protocol/sync-wire';
import type { SyncTransport } from '../sync/sync-engine.ts';

// The change-log half of the Docket server as the engine's tests need it: one user's log with
// the server's rules (packages/server/src/repositories/sync-change-repository.ts: consecutive
// seqnos, a repeated batch id answered as the first time, pushes under another epoch refused,
// pushes over the size caps refused as routes/sync.ts refuses them, pages cut at a limit). The real server is tested against these rules on PGlite and PostgreSQL
// and the engine against the real server end to end; this copy lets property tests run
// thousands of interleavings, and lose or repeat messages on purpose, in memory.

export class TestLogError extends Error {
  constructor(
    readonly code:
      'epoch-mismatch' | 'batch-conflict' | 'batch-too-large' | 'envelope-too-large' | 'network',
    message: string,
  ) {
    super(message);
    this.name = 'TestLogError';
  }
}

export class TestSyncLog {
  readonly changes: SyncChange[] = [];
  private readonly batches = new Map<string, { deviceId: string; seqnos: number[] }>();
  /** The user's blobs by address (the real server also checks that the address is the hash). */
  readonly blobs = new Map<string, Uint8Array<ArrayBuffer>>();
  keyEpoch = 0;

  putBlob(address: string, bytes: Uint8Array<ArrayBuffer>): void {
    this.blobs.set(address, new Uint8Array(bytes));
  }

  getBlob(address: string): Uint8Array<ArrayBuffer> | null {
    const bytes = this.blobs.get(address);
    return bytes === undefined ? null : new Uint8Array(bytes);
  }

  push(request: PushRequest): PushResponse {
    // The body as it would go over the wire (JSON, ASCII: one byte a character).
    const bodyBytes = JSON.stringify(request).length;
    if (bodyBytes > MAX_PUSH_BODY_BYTES) {
      throw new TestLogError('batch-too-large', `A push body of ${bodyBytes} bytes.`);
    }
    const large = request.envelopes.findIndex(
      (envelope) => base64ByteLength(envelope.ciphertext) > MAX_ENVELOPE_BYTES,
    );
    if (large !== -1) {
      throw new TestLogError('envelope-too-large', `Envelope ${large} is over the limit.`);
    }
    const push = pushRequestSchema.parse(request);
    const earlier = this.batches.get(push.batchId);
    if (earlier !== undefined) {
      if (earlier.deviceId !== push.deviceId || earlier.seqnos.length !== push.envelopes.length) {
        throw new TestLogError('batch-conflict', `Batch ${push.batchId} was used before.`);
      }
      return {
        batchId: push.batchId,
        seqnos: earlier.seqnos,
        duplicate: true,
        latestSeqno: this.changes.length,
      };
    }
    if (push.epoch !== this.keyEpoch) {
      throw new TestLogError('epoch-mismatch', `Pushed under epoch ${push.epoch}.`);
    }
    const seqnos = push.envelopes.map((envelope) => {
      const seqno = this.changes.length + 1;
      this.changes.push({
        seqno,
        id: envelope.id,
        deviceId: push.deviceId,
        batchId: push.batchId,
        epoch: push.epoch,
        ciphertext: envelope.ciphertext,
      });
      return seqno;
    });
    this.batches.set(push.batchId, { deviceId: push.deviceId, seqnos });
    return { batchId: push.batchId, seqnos, duplicate: false, latestSeqno: this.changes.length };
  }

  pull(since: number, limit: number): PullResponse {
    const page = this.changes.slice(since, since + limit);
    return pullResponseSchema.parse({
      changes: page,
      hasMore: since + page.length < this.changes.length,
      latestSeqno: this.changes.length,
    });
  }
}

/** What the network does to one request: deliver it, drop it, or drop only its answer. */
export type Delivery = 'deliver' | 'lose-request' | 'lose-answer';

/** A transport to the log whose requests the test can lose (before or after the server acts). */
export function testTransport(
  log: TestSyncLog,
  delivery: () => Delivery = () => 'deliver',
): SyncTransport {
  const send = <T>(act: () => T): Promise<T> => {
    const fate = delivery();
    if (fate === 'lose-request') {
      return Promise.reject(new TestLogError('network', 'The request was lost.'));
    }
    const answer = act();
    if (fate === 'lose-answer') {
      return Promise.reject(new TestLogError('network', 'The answer was lost.'));
    }
    // A copy, as JSON over the wire would be: the engine must not share objects with the log.
    return Promise.resolve(JSON.parse(JSON.stringify(answer)) as T);
  };
  return {
    push: (request) => send(() => log.push(request)),
    pull: (since, limit) => send(() => log.pull(since, limit)),
    putBlob: async (address, bytes) => {
      await send(() => {
        log.putBlob(address, bytes);
        return null;
      });
    },
    getBlob: async (address) => {
      // Bytes are not JSON: fetched as they are, through the same fate.
      await send(() => null);
      return log.getBlob(address);
    },
    hasBlob: (address) => send(() => log.blobs.has(address)),
  };
}

/**
 * A team workspace's log as the engine's tests need it: the same rules, `keyEpoch` standing for
 * the workspace's key version, and each change's author as the server records it (the member
 * whose session pushed it). `moveAuthor` makes the server lie about who pushed a change.
 */
export class TestWorkspaceLog extends TestSyncLog {
  readonly authors = new Map<number, string>();

  moveAuthor(seqno: number, authorUserId: string): void {
    this.authors.set(seqno, authorUserId);
  }

  /** A transport for the member `authorUserId`: what it pushes is recorded as theirs. */
  transportFor(authorUserId: string): SyncTransport {
    const plain = testTransport(this);
    return {
      ...plain,
      push: async (request) => {
        const answer = await plain.push(request);
        for (const seqno of answer.seqnos) {
          if (!this.authors.has(seqno)) this.authors.set(seqno, authorUserId);
        }
        return answer;
      },
      pull: async (since, limit) => {
        const page = await plain.pull(since, limit);
        return {
          ...page,
          changes: page.changes.map((change) => ({
            ...change,
            authorUserId: this.authors.get(change.seqno) ?? '',
          })),
        };
      },
    };
  }
}
