import { describe, expect, it } from 'vitest';
import { reasonAfterStoredChange } from './position-reason-field.tsx';

describe('reasonAfterStoredChange', () => {
  it('keeps typing not saved yet, and the spaces of text that is saved', () => {
    // A save of "Cost" landed while "Costs" was being typed.
    expect(reasonAfterStoredChange('Costs', '', 'Cost')).toBe('Costs');
    // The save of what the field holds landed: the trailing space typed last stays.
    expect(reasonAfterStoredChange('Costs ', 'Cost', 'Costs')).toBe('Costs ');
  });

  it('shows a change made elsewhere when the field holds nothing unsaved', () => {
    expect(reasonAfterStoredChange('Costs', 'Costs', 'Cheap now')).toBe('Cheap now');
    expect(reasonAfterStoredChange('', '', 'From the other tab')).toBe('From the other tab');
  });
});
