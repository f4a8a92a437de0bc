import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NoteField } from './note-field.tsx';

afterEach(cleanup);

describe('the Note field', () => {
  it('keeps its words out of the browser’s form restore (issue 38)', () => {
    render(<NoteField value="whistleblower J.D." onChange={() => undefined} />);
    expect(screen.getByLabelText('Note').getAttribute('autocomplete')).toBe('off');
  });
});
