import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  knowsWorkspace,
  signedInHere,
  workingInWorkspace,
} from '../local-store/space-test-setup.ts';
import { NotesSpaceLine } from './notes-space-line.tsx';

// Whose notes a screen shows: nothing for an account that never entered a workspace here, the
// personal space's words once it did, the team's in a workspace's space.

describe('the line that says whose notes these are', () => {
  beforeEach(() => {
    localStorage.clear();
    signedInHere();
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('is absent for an account that never entered a workspace on this device', () => {
    render(<NotesSpaceLine />);
    expect(screen.queryByText(/notes:/)).toBeNull();
  });

  it('says personal notes are read by their author alone, and team notes by every member', () => {
    knowsWorkspace();
    render(<NotesSpaceLine />);
    expect(screen.getByText('Personal notes: only you read them.')).toBeTruthy();
    cleanup();
    workingInWorkspace();
    render(<NotesSpaceLine />);
    expect(screen.getByText('Team notes: every member of this workspace reads them.')).toBeTruthy();
  });
});
