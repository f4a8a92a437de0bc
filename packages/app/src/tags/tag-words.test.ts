import { describe, expect, it } from 'vitest';
import {
  billCountWord,
  deleteDone,
  deleteQuestion,
  mergeDone,
  mergeQuestion,
  trackedByTagPath,
} from './tag-words.ts';

describe('tag words', () => {
  it('counts bills in words', () => {
    expect(billCountWord(0)).toBe('0 bills');
    expect(billCountWord(1)).toBe('1 bill');
    expect(billCountWord(2)).toBe('2 bills');
  });

  it('links to the Tracked list by an encoded tag id', () => {
    expect(trackedByTagPath('a b&c')).toBe('/tabs/tracked?tag=a%20b%26c');
  });

  it('says before a delete how many bills lose the tag', () => {
    expect(deleteQuestion('Housing', 0)).toBe('Delete the tag "Housing"? It is on no bills.');
    expect(deleteQuestion('Housing', 1)).toContain('It is on 1 bill; it will be taken off it.');
    expect(deleteQuestion('Housing', 3)).toContain('It is on 3 bills; it will be taken off all');
    expect(deleteDone('Housing', 3)).toBe('Deleted the tag "Housing" and took it off 3 bills.');
  });

  it('names both tags and the bills moved in a merge', () => {
    expect(mergeQuestion('Housing', 'Homes', 2)).toBe(
      'Merge "Housing" into "Homes"? 2 bills tagged "Housing" will be tagged "Homes", and "Housing" will be deleted.',
    );
    expect(mergeQuestion('Housing', 'Homes', 0)).toContain('"Housing" is on no bills');
    expect(mergeDone('Housing', 'Homes', { billsTouched: 3, moved: 2, alreadyTagged: 1 })).toBe(
      'Merged "Housing" into "Homes": 3 bills now tagged "Homes" (1 bill already had it).',
    );
  });
});
