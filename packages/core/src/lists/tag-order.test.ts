import { describe, expect, it } from 'vitest';
import type { Tag } from '../store/local-records.ts';
import { sortTagsByName } from './tag-order.ts';

const tag = (id: string, name: string): Tag => ({
  id,
  name,
  color: '#3366cc',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

describe('sortTagsByName', () => {
  it('orders by name ignoring case and accents, with numbers by value', () => {
    const tags = [
      tag('1', 'zoning'),
      tag('2', 'Élections'),
      tag('3', 'budget 10'),
      tag('4', 'budget 9'),
    ];
    expect(sortTagsByName(tags).map((t) => t.name)).toEqual([
      'budget 9',
      'budget 10',
      'Élections',
      'zoning',
    ]);
  });

  it('breaks a tie of names the same but for case by id, and leaves its input as it was', () => {
    const tags = [tag('b', 'Housing'), tag('a', 'housing')];
    expect(sortTagsByName(tags).map((t) => t.id)).toEqual(['a', 'b']);
    expect(tags.map((t) => t.id)).toEqual(['b', 'a']);
  });
});
