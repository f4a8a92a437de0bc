// The sync engine's errors (sync-engine.ts, sync-envelopes.ts): what failed, and which change or
// outbox entry it was about, so the person can skip it.

export type SyncEngineErrorCode =
  /**
   * The server's key epoch moved on: a password reset elsewhere (the password is needed), or a
   * workspace key this device has not fetched yet.
   */
  | 'epoch-mismatch'
  /** A workspace change sealed under a key version this account was never given. */
  | 'missing-key'
  /** A pulled change failed its integrity check. */
  | 'tampered'
  /** A pulled change opened but is not a change this app can merge. */
  | 'invalid-change'
  /** A pulled change is dated too far ahead of this device's clock. */
  | 'clock-drift'
  /** The server answered something that cannot be right (an ack of the wrong length…). */
  | 'protocol'
  /** An outbox entry is too large for any envelope the server takes: it can never be sent. */
  | 'change-too-large';

/** The outbox entry an error is about: which row of which table it changes. */
export interface OutboxEntryRef {
  readonly id: string;
  readonly table: string;
  readonly rowId: string;
}

export class SyncEngineError extends Error {
  constructor(
    readonly code: SyncEngineErrorCode,
    message: string,
    /** The change at fault, when one is: the user may skip it (skipUnreadableChange). */
    readonly seqno: number | null = null,
    /** The outbox entry at fault, when one is: the user may skip it (skipUnsendableChange). */
    readonly entry: OutboxEntryRef | null = null,
  ) {
    super(message);
    this.name = 'SyncEngineError';
  }
}
