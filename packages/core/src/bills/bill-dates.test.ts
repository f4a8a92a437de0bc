import { describe, expect, it } from 'vitest';
import {
  billDateLabels,
  billDates,
  latestAction,
  latestActionDateText,
  latestActionLine,
  statusWithDate,
} from './bill-dates.ts';

const iso = (date: string) => `<${date}>`;

const referred = {
  status: 'in-committee' as const,
  statusDate: '2025-07-24',
  introducedDate: '2025-07-20',
  actions: [
    { date: '2025-07-20', text: 'Introduced' },
    { date: '2025-07-24', text: 'Referred to Judiciary' },
    { date: '2025-07-29', text: 'Hearing held' },
    { date: '2025-07-29', text: 'Hearing continued' },
    { date: null, text: 'Undated note from the source' },
  ],
};

describe('latestAction', () => {
  it('is the newest dated action, the one listed last of its day, never an undated one', () => {
    expect(latestAction(referred.actions)).toEqual({
      date: '2025-07-29',
      text: 'Hearing continued',
    });
  });

  it('reads the dates, not the order, when a source lists them out of order', () => {
    expect(
      latestAction([
        { date: '2025-02-01', text: 'b' },
        { date: '2025-01-01', text: 'a' },
      ]),
    ).toEqual({ date: '2025-02-01', text: 'b' });
  });

  it('is the last action when none is dated, and null when there is none', () => {
    expect(
      latestAction([
        { date: null, text: 'x' },
        { date: null, text: 'y' },
      ]),
    ).toEqual({
      date: null,
      text: 'y',
    });
    expect(latestAction([])).toBeNull();
  });
});

describe('billDates', () => {
  it('keeps the status date and the latest action date apart', () => {
    expect(billDates(referred)).toEqual({
      introduced: '2025-07-20',
      statusSince: '2025-07-24',
      latestAction: { date: '2025-07-29', text: 'Hearing continued' },
    });
    expect(billDates({ ...referred, statusDate: null, actions: [] })).toEqual({
      introduced: '2025-07-20',
      statusSince: null,
      latestAction: null,
    });
  });
});

describe('the labelled dates', () => {
  it('says the status with its date, and the status alone without one', () => {
    expect(statusWithDate(referred, iso)).toBe('In committee since <2025-07-24>');
    expect(statusWithDate({ status: 'vetoed', statusDate: null }, iso)).toBe('Vetoed');
  });

  it('labels the latest action date, and gives the action with its date under its label', () => {
    expect(latestActionDateText('2025-07-29', iso)).toBe('Latest action <2025-07-29>');
    expect(latestActionLine({ date: '2025-07-29', text: 'Hearing held' }, iso)).toBe(
      '<2025-07-29>: Hearing held',
    );
    expect(latestActionLine({ date: null, text: 'Undated' }, iso)).toBe('Undated');
  });

  it('uses one word per date, none shared between two dates', () => {
    const labels = Object.values(billDateLabels);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
