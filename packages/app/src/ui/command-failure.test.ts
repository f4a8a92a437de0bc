import { BillCommandError } from '@docket/core/commands';
import { describe, expect, it } from 'vitest';
import { commandFailureMessage, isUsageChanged } from './command-failure.ts';

describe('a command failure as a screen says it', () => {
  it("gives core's refusal in its own words", () => {
    const refusal = new BillCommandError(
      'unknown-tag',
      'There is no tag "x"; it may have been deleted.',
    );
    expect(commandFailureMessage(refusal, 'add the tag')).toBe(
      'There is no tag "x"; it may have been deleted.',
    );
    expect(isUsageChanged(refusal)).toBe(false);
  });

  it('knows a refusal that crossed a worker, which kept its name and code but not its class', () => {
    const crossed = Object.assign(new Error('The tag is used by 3 bills now.'), {
      name: 'BillCommandError',
      code: 'usage-changed',
    });
    expect(commandFailureMessage(crossed, 'delete the tag')).toBe(
      'The tag is used by 3 bills now.',
    );
    expect(isUsageChanged(crossed)).toBe(true);
  });

  it('says anything else plainly, with what was being done', () => {
    expect(commandFailureMessage(new Error('QuotaExceededError'), 'save the note')).toBe(
      'Could not save the note: QuotaExceededError',
    );
    expect(commandFailureMessage('disk full', 'save the note')).toBe(
      'Could not save the note: disk full',
    );
    expect(isUsageChanged(new Error('usage-changed'))).toBe(false);
  });
});
