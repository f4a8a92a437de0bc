import { describe, expect, it } from 'vitest';
import { changedElsewhereWords, historyFieldLabel, historyValue } from './bill-history-words.ts';

describe("the words of a bill's History", () => {
  it('names the value and shows it as the user knows it', () => {
    const why = { table: 'positions', field: 'reason' } as const;
    expect(historyFieldLabel(why)).toBe('Why');
    expect(historyValue(why, 'Jobs for the district')).toBe('“Jobs for the district”');
    expect(historyValue(why, '')).toBe('(empty)');
    const position = { table: 'positions', field: 'position' } as const;
    expect(historyFieldLabel(position)).toBe('Position');
    expect(historyValue(position, 'oppose')).toBe('Oppose');
    expect(historyFieldLabel({ table: 'tags', field: 'name' })).toBe('Tag name');
    // Hostile text stays text: React renders it, nothing here makes markup.
    expect(historyValue(why, '<img src=x onerror=alert(1)>')).toBe(
      '“<img src=x onerror=alert(1)>”',
    );
  });

  it('says "Changed on another device" only when something was replaced', () => {
    expect(changedElsewhereWords(0)).toBeNull();
    expect(changedElsewhereWords(1)).toMatch(/^Changed on another device: a value set here/);
    expect(changedElsewhereWords(3)).toMatch(/^Changed on another device: 3 values set here/);
    // The device whose value won over one written at the same time elsewhere is told too.
    expect(changedElsewhereWords(0, 1)).toBe(
      'Written at the same time on another device: the value set here was kept. History below keeps the other.',
    );
    expect(changedElsewhereWords(1, 2)).toMatch(
      /^Changed on another device: a value set here was replaced\. .* Written at the same time on another device: 2 values set here were kept\./,
    );
  });
});
