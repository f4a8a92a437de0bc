import { BillCommandError } from '@docket/core/commands';
import { describe, expect, it } from 'vitest';
import { decisionFailureMessage, undoFailureMessage } from './deck-failure-words.ts';

describe('the deck’s failure words', () => {
  it('says a command’s refusal in its own words', () => {
    const refusal = new BillCommandError('unknown-bill', 'No bill with this id.');
    expect(decisionFailureMessage(refusal)).toBe('No bill with this id.');
    expect(undoFailureMessage(refusal)).toBe('No bill with this id.');
  });

  it('says what could not be done before any other error', () => {
    expect(decisionFailureMessage(new Error('disk full'))).toBe(
      'The decision could not be saved: disk full',
    );
    expect(undoFailureMessage(new Error('disk full'))).toBe('Undo failed: disk full');
  });

  it('says a thrown value that is not an Error as text', () => {
    expect(decisionFailureMessage('locked')).toBe('The decision could not be saved: locked');
    expect(undoFailureMessage(42)).toBe('Undo failed: 42');
  });
});
