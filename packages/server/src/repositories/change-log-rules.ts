// What a user's change log and a workspace's have in common, whatever table holds them: how a
// repeated batch is told from a reused batch id, and where a pull page ends.

/** A change already stored under the batch id a push came with. */
export interface StoredBatchEntry {
  changeId: string;
  deviceId: string;
}

/**
 * Whether a push repeats the batch stored under its id: the same changes from the same device in
 * the same order. The ciphertext may differ, since a retry may encrypt them again under fresh
 * nonces.
 */
export function isSameBatch(
  earlier: readonly StoredBatchEntry[],
  batch: { deviceId: string; envelopes: ReadonlyArray<{ id: string }> },
): boolean {
  return (
    earlier.length === batch.envelopes.length &&
    earlier.every(
      (row, index) =>
        row.deviceId === batch.deviceId && row.changeId === batch.envelopes[index]?.id,
    )
  );
}

/**
 * How many of the changes after a cursor (their ciphertext sizes, in order, up to `limit + 1` of
 * them) one pull page takes: up to `limit`, stopping once their bytes pass `targetBytes`, and
 * always at least one.
 */
export function pageLength(
  sizes: ReadonlyArray<{ size: number }>,
  limit: number,
  targetBytes: number,
): number {
  let taken = 0;
  let bytes = 0;
  for (const row of sizes.slice(0, limit)) {
    if (taken > 0 && bytes + row.size > targetBytes) break;
    bytes += row.size;
    taken += 1;
  }
  return taken;
}
