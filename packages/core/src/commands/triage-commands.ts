import { z } from 'zod';
import type { BillCommandContext } from './bill-command-context.ts';
import {
  BillCommandError,
  billLabelOf,
  commandTime,
  distinct,
  requireBills,
  withLabel,
  TRIAGE_UNDO_SETTING,
} from './bill-command-context.ts';
import type { BillLabel } from '../store/bill-label.ts';
import type { Decision } from '../store/local-records.ts';
import { decisionSchema, decisions } from '../store/local-records.ts';
import type { LocalWriteTransaction } from '../store/local-store.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';

// Triage: the deck's track / dismiss / later and its undo. A decision is one row per bill; each
// command writes it and its outbox entry (format in outbox-changes.ts) in one transaction.
// `decideBills` does the same for many bills at once (the Tracked list's "Track selected"): one
// transaction for all of them, with an outbox entry and an undo step per bill it changes.
//
// Undo takes back this device's decisions, newest first. Its history is device-local (the
// deck's "Undo" means "what I just did here") and lives in settings under
// `device:triage-undo`, written in the same transaction as the decision, so a reload keeps it.
// Each step remembers the row before and after; undo puts the "before" back (or deletes the row
// when there was none) through the outbox like any other change, so other devices follow.

export type DecisionKind = Decision['decision'];

/** Undo steps kept; older ones fall off. */
export const TRIAGE_UNDO_DEPTH = 100;

const undoStepSchema = z.object({
  billId: z.string(),
  before: decisionSchema.nullable(),
  after: decisionSchema,
});
type UndoStep = z.infer<typeof undoStepSchema>;
const undoHistorySchema = z.array(undoStepSchema);

const triageTables = ['bills', 'decisions', ...outboxTables] as const;

/** A history this build cannot read (a newer build's, or damaged) is started afresh. */
async function readUndoHistory(tx: LocalWriteTransaction): Promise<UndoStep[]> {
  const parsed = undoHistorySchema.safeParse(
    (await tx.get('settings', TRIAGE_UNDO_SETTING))?.value,
  );
  return parsed.success ? parsed.data : [];
}

async function writeUndoHistory(tx: LocalWriteTransaction, history: UndoStep[]): Promise<void> {
  await tx.put('settings', {
    key: TRIAGE_UNDO_SETTING,
    value: history.slice(-TRIAGE_UNDO_DEPTH),
  });
}

export interface DecisionResult {
  /** False when the bill already had this decision: nothing was written. */
  changed: boolean;
  decision: Decision;
}

function requireDecision(kind: DecisionKind): void {
  if (!decisions.includes(kind)) {
    throw new BillCommandError('invalid-input', `Not a decision: ${JSON.stringify(kind)}.`);
  }
}

async function decide(
  context: BillCommandContext,
  billId: string,
  kind: DecisionKind,
): Promise<DecisionResult> {
  requireDecision(kind);
  const { nowMs, at } = commandTime(context);
  return context.store.write(triageTables, async (tx) => {
    const billLabel = (await requireBills(tx, [billId])).get(billId);
    const before = await tx.get('decisions', billId);
    if (before?.decision === kind) return { changed: false, decision: before };
    const after = decisionSchema.parse({
      billId,
      decision: kind,
      decidedAt: at,
      ...withLabel(billLabel),
    });
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.put('decisions', { row: after });
    const history = await readUndoHistory(tx);
    history.push({ billId, before: before ?? null, after });
    await writeUndoHistory(tx, history);
    await outbox.close();
    return { changed: true, decision: after };
  });
}

/** Swipe right: keep an eye on the bill. */
export function trackBill(context: BillCommandContext, billId: string): Promise<DecisionResult> {
  return decide(context, billId, 'track');
}

/** Swipe left: not interesting. */
export function dismissBill(context: BillCommandContext, billId: string): Promise<DecisionResult> {
  return decide(context, billId, 'dismiss');
}

/** Swipe up: decide later. */
export function laterBill(context: BillCommandContext, billId: string): Promise<DecisionResult> {
  return decide(context, billId, 'later');
}

export interface DecideBillsResult {
  /** Bills that got the decision now. */
  decided: number;
  /** Bills that had it already: nothing written for them. */
  alreadyDecided: number;
}

// Bills read at a time for their labels, as `requireBills` reads them one by one.
const LABEL_CHUNK = 64;

/**
 * The labels of every bill (refusing, naming them, bills not on this device): a decision keeps
 * its bill's label however many are decided at once, as it did when they were decided one by one.
 */
async function requireLabels(
  tx: LocalWriteTransaction,
  billIds: readonly string[],
): Promise<Map<string, BillLabel>> {
  const labels = await requireBills(tx, billIds);
  if (billIds.length <= LABEL_CHUNK) return labels;
  for (let start = 0; start < billIds.length; start += LABEL_CHUNK) {
    const rows = await tx.getMany('bills', billIds.slice(start, start + LABEL_CHUNK));
    for (const row of rows) if (row !== undefined) labels.set(row.id, billLabelOf(row));
  }
  return labels;
}

/**
 * Gives bills, one or many (the Tracked list's "Track selected", "Later selected" and "Dismiss
 * selected"), a decision in one transaction: every bill or, when one is not on this device or a
 * write fails, none. Each bill it changes gets its own outbox entry, so sync ships each bill's
 * change, and its own undo step, in the order given, as if they were decided one after another.
 */
export async function decideBills(
  context: BillCommandContext,
  billIds: readonly string[],
  kind: DecisionKind,
): Promise<DecideBillsResult> {
  requireDecision(kind);
  const ids = distinct(billIds);
  const { nowMs, at } = commandTime(context);
  return context.store.write(triageTables, async (tx) => {
    const labels = await requireLabels(tx, ids);
    const current = await tx.getMany('decisions', ids);
    const steps: UndoStep[] = [];
    ids.forEach((billId, index) => {
      const before = current[index];
      if (before?.decision === kind) return;
      const after = decisionSchema.parse({
        billId,
        decision: kind,
        decidedAt: at,
        ...withLabel(labels.get(billId)),
      });
      steps.push({ billId, before: before ?? null, after });
    });
    if (steps.length > 0) {
      const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
      await outbox.putMany(
        'decisions',
        steps.map((step) => ({ row: step.after })),
      );
      await writeUndoHistory(tx, [...(await readUndoHistory(tx)), ...steps]);
      await outbox.close();
    }
    return { decided: steps.length, alreadyDecided: ids.length - steps.length };
  });
}

export type UndoResult =
  | { kind: 'nothing-to-undo' }
  /** The bill's decision is back to `decision`; null means undecided (back in the deck). */
  | { kind: 'undone'; billId: string; decision: Decision | null }
  /**
   * The bill's decision was changed since (on another device, through sync), so undoing would
   * throw that change away; the step is dropped and nothing else is written.
   */
  | { kind: 'changed-since'; billId: string };

function sameDecision(a: Decision | undefined, b: Decision): boolean {
  return a?.decision === b.decision && a.decidedAt === b.decidedAt;
}

/** Takes back this device's newest decision that has not been undone. */
export async function undoLastDecision(context: BillCommandContext): Promise<UndoResult> {
  const { nowMs } = commandTime(context);
  return context.store.write(triageTables, async (tx): Promise<UndoResult> => {
    const history = await readUndoHistory(tx);
    const step = history.pop();
    if (step === undefined) return { kind: 'nothing-to-undo' };
    const current = await tx.get('decisions', step.billId);
    if (!sameDecision(current, step.after)) {
      await writeUndoHistory(tx, history);
      return { kind: 'changed-since', billId: step.billId };
    }
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    if (step.before === null) await outbox.delete('decisions', step.billId);
    else await outbox.put('decisions', { row: step.before });
    await writeUndoHistory(tx, history);
    await outbox.close();
    return { kind: 'undone', billId: step.billId, decision: step.before };
  });
}

/** Whether "Undo" has anything to take back, for enabling the button. */
export async function canUndoDecision(
  context: Pick<BillCommandContext, 'store'>,
): Promise<boolean> {
  return context.store.read(['settings'], async (tx) => {
    const parsed = undoHistorySchema.safeParse(
      (await tx.get('settings', TRIAGE_UNDO_SETTING))?.value,
    );
    return parsed.success && parsed.data.length > 0;
  });
}
