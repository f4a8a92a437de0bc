import type { BillHistory } from '@docket/core/store';
import {
  decisionWord,
  positionWord,
  type DecisionKind,
  type PositionKind,
} from './bill-details-words.ts';

// The words of a bill's History (core's sync/bill-history.ts): which value, what it was, what it
// became.

const fieldLabels: Readonly<Record<string, string>> = {
  'positions.position': 'Position',
  'positions.reason': 'Why',
  'annotations.note': 'Note',
  'decisions.decision': 'Decision',
  'tags.name': 'Tag name',
};

/** "Why", "Position", "Tag name": which value of the user's an entry is about. */
export function historyFieldLabel(entry: Pick<BillHistory, 'table' | 'field'>): string {
  return fieldLabels[`${entry.table}.${entry.field}`] ?? `${entry.table} ${entry.field}`;
}

/** One value as the user knows it: a position or decision in words, text quoted. */
export function historyValue(entry: Pick<BillHistory, 'table' | 'field'>, value: unknown): string {
  if (value === undefined || value === null || value === '') return '(empty)';
  if (entry.table === 'positions' && entry.field === 'position') {
    return positionWord(value as PositionKind);
  }
  if (entry.table === 'decisions' && entry.field === 'decision') {
    return decisionWord(value as DecisionKind);
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `“${text}”`;
}

/** "Changed on another device: 2 values you set were replaced." or null when nothing is new. */
export function changedElsewhereWords(unseen: number, kept = 0): string | null {
  const replaced =
    unseen === 0
      ? null
      : unseen === 1
        ? 'Changed on another device: a value set here was replaced. History below keeps what it was.'
        : `Changed on another device: ${unseen.toLocaleString('en-US')} values set here were replaced. History below keeps what they were.`;
  // This device's value won over one written elsewhere at about the same time (issue 39).
  const won =
    kept === 0
      ? null
      : kept === 1
        ? 'Written at the same time on another device: the value set here was kept. History below keeps the other.'
        : `Written at the same time on another device: ${kept.toLocaleString('en-US')} values set here were kept. History below keeps the others.`;
  return replaced === null ? won : won === null ? replaced : `${replaced} ${won}`;
}
