import { annotationTargetText, isAnnotationTarget } from '../text/annotation-targets.ts';
import type { BillCommandContext } from './bill-command-context.ts';
import {
  billLabelOf,
  BillCommandError,
  commandTime,
  newRowId,
  parseHexColour,
  requireRow,
} from './bill-command-context.ts';
import type { Annotation } from '../store/local-records.ts';
import { annotationSchema } from '../store/local-records.ts';
import type { OutboxPut } from '../merge/outbox-changes.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';
import { describeSelection } from '../text/text-anchoring.ts';
import { readVersionTexts } from '../text/version-text-rows.ts';
import { withFetchedTexts } from '../text/version-text.ts';

// Highlights with a note on a passage of a bill. The command reads the passage from the stored
// bill itself and makes the W3C selectors from it (text-anchoring.ts), so what is stored always
// describes the text the user saw. Rows and outbox entries in one transaction, as everywhere
// (format in outbox-changes.ts). Notes are plain text; screens render them as text.

export const NOTE_MAX = 100_000;
/** A highlight longer than this is a selection gone wrong, not a passage. */
export const QUOTE_MAX = 50_000;

const annotationTables = ['bills', 'versionTexts', 'annotations', ...outboxTables] as const;

function parseNote(note: string): string {
  if (note.length > NOTE_MAX) {
    throw new BillCommandError(
      'invalid-input',
      `A note is at most ${NOTE_MAX.toLocaleString('en-US')} characters; this one has ${note.length.toLocaleString('en-US')}.`,
    );
  }
  return note;
}

export interface NewAnnotation {
  billId: string;
  /** `title`, `summary` or `text:<index>` (annotation-targets.ts). */
  target: string;
  /** The selection in the target's text, in UTF-16 code units as DOM ranges count them. */
  start: number;
  end: number;
  color: string;
  note?: string;
}

export async function createAnnotation(
  context: BillCommandContext,
  input: NewAnnotation,
): Promise<Annotation> {
  const color = parseHexColour(input.color);
  const note = parseNote(input.note ?? '');
  if (!isAnnotationTarget(input.target)) {
    throw new BillCommandError(
      'invalid-input',
      `Not a text of a bill: ${JSON.stringify(input.target.slice(0, 100))}.`,
    );
  }
  if (
    !Number.isInteger(input.start) ||
    !Number.isInteger(input.end) ||
    input.start < 0 ||
    input.end <= input.start
  ) {
    throw new BillCommandError('invalid-input', 'Select a passage of the text to annotate.');
  }
  if (input.end - input.start > QUOTE_MAX) {
    throw new BillCommandError(
      'invalid-input',
      `A highlight is at most ${QUOTE_MAX.toLocaleString('en-US')} characters; select a shorter passage.`,
    );
  }
  const id = newRowId(context);
  const { nowMs, at } = commandTime(context);
  return context.store.write(annotationTables, async (tx) => {
    const bill = await tx.get('bills', input.billId);
    if (!bill) {
      throw new BillCommandError(
        'unknown-bill',
        `There is no bill ${JSON.stringify(input.billId.slice(0, 120))} on this device.`,
      );
    }
    // A version this device fetched ("Get text") is a text to annotate like the dataset's.
    const fetched = await readVersionTexts(tx, bill.id);
    const text = annotationTargetText(withFetchedTexts(bill, fetched), input.target);
    if (text === null) {
      throw new BillCommandError(
        'invalid-input',
        `This bill has no ${input.target.startsWith('text:') ? 'such text version' : input.target} to annotate.`,
      );
    }
    if (input.end > text.length) {
      throw new BillCommandError(
        'invalid-input',
        'The selection is not inside the text; it may have changed. Select the passage again.',
      );
    }
    if (await tx.get('annotations', id)) throw new Error(`The new annotation id ${id} is taken.`);
    const { quote, position } = describeSelection(text, input.start, input.end);
    const annotation = annotationSchema.parse({
      id,
      billId: input.billId,
      quote: { exact: quote.exact, prefix: quote.prefix, suffix: quote.suffix },
      position: { start: position.start, end: position.end },
      target: input.target,
      color,
      note,
      createdAt: at,
      updatedAt: at,
      billLabel: billLabelOf(bill),
    });
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.put('annotations', { row: annotation });
    await outbox.close();
    return annotation;
  });
}

/** Changes an annotation's note and/or colour; only what differs is written and synced. */
export async function updateAnnotation(
  context: BillCommandContext,
  annotationId: string,
  changes: { note?: string; color?: string },
): Promise<Annotation> {
  const note = changes.note === undefined ? undefined : parseNote(changes.note);
  const color = changes.color === undefined ? undefined : parseHexColour(changes.color);
  const { nowMs, at } = commandTime(context);
  return context.store.write(annotationTables, async (tx) => {
    const annotation = await requireRow(tx, 'annotations', annotationId);
    const changed: ('note' | 'color')[] = [];
    if (note !== undefined && note !== annotation.note) changed.push('note');
    if (color !== undefined && color !== annotation.color) changed.push('color');
    if (changed.length === 0) return annotation;
    const row = annotationSchema.parse({
      ...annotation,
      ...(changed.includes('note') ? { note } : {}),
      ...(changed.includes('color') ? { color } : {}),
      updatedAt: at,
    });
    const put: OutboxPut<'annotations'> = { row, changed: [...changed, 'updatedAt'] };
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.put('annotations', put);
    await outbox.close();
    return row;
  });
}

/** Deletes an annotation; returns it, so a screen can offer to make it again. */
export async function deleteAnnotation(
  context: BillCommandContext,
  annotationId: string,
): Promise<Annotation> {
  const { nowMs } = commandTime(context);
  return context.store.write(annotationTables, async (tx) => {
    const annotation = await requireRow(tx, 'annotations', annotationId);
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.delete('annotations', annotationId);
    await outbox.close();
    return annotation;
  });
}
