/**
 * The bytes the relay's temporary files hold, every account's downloads together, under one
 * cap per process. Each download may spool up to SOURCE_MAX_MIB, and the per-account budget
 * counts requests, not bytes: without this, a few downloads at once could fill the disk the
 * database writes to.
 */
export class RelayTempSpace {
  private inUse = 0;

  constructor(readonly capBytes: number) {}

  /** New downloads wait while the cap is reached. */
  get full(): boolean {
    return this.inUse >= this.capBytes;
  }

  get bytesInUse(): number {
    return this.inUse;
  }

  /** Takes `bytes` if they fit under the cap, else nothing. */
  take(bytes: number): boolean {
    if (this.inUse + bytes > this.capBytes) return false;
    this.inUse += bytes;
    return true;
  }

  give(bytes: number): void {
    this.inUse -= bytes;
  }
}

/** How long a refused relay request is told to wait: a download takes up to a minute. */
export const RELAY_BUSY_RETRY_SECONDS = 30;
