import { describe, expect, it } from 'vitest';
import { passageDraftFields, restoredDraftPassage } from './new-annotation-form.tsx';

describe('passageDraftFields', () => {
  it('keeps a picked passage with the words it picked', () => {
    const passage = { target: 'text:1', text: 'The Secretary shall act.', start: 4, end: 13 };
    expect(passageDraftFields(passage)).toEqual({
      target: 'text:1',
      start: '4',
      end: '13',
      quote: 'Secretary',
    });
  });

  it('keeps empty fields when no passage is picked', () => {
    expect(passageDraftFields(null)).toEqual({ target: '', start: '', end: '', quote: '' });
  });
});

describe('restoredDraftPassage', () => {
  it('gives back the passage a draft kept', () => {
    const fields = { target: 'text:1', start: '4', end: '13', quote: 'Secretary' };
    expect(restoredDraftPassage(fields)).toEqual({
      target: 'text:1',
      start: 4,
      end: 13,
      quote: 'Secretary',
    });
  });

  it('gives none for a draft without a passage, or with a start that is not a whole number', () => {
    expect(restoredDraftPassage({ target: '', start: '', end: '', quote: '' })).toBeNull();
    expect(restoredDraftPassage({ target: 'text:1', start: '', end: '3', quote: 'x' })).toBeNull();
    expect(restoredDraftPassage({ target: '', start: '1', end: '3', quote: 'x' })).toBeNull();
    expect(
      restoredDraftPassage({ target: 'text:1', start: '1.5', end: '3', quote: 'x' }),
    ).toBeNull();
  });
});
