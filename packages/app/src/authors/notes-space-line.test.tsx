import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTIVE_SPACE_KEY } from '../local-store/space-databases.ts';
import { NotesSpaceLine } from './notes-space-line.tsx';

// Whose notes a screen shows: nothing for an account that never entered a workspace here, the
// personal space's words once it did, the team's in a workspace's space.

const ACCOUNT_DB = `docket-${'a'.repeat(32)}`;
const SPACE_DB = `${ACCOUNT_DB}.space-${'b'.repeat(32)}`;

describe('the line that says whose notes these are', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('docket.accounts', JSON.stringify({ 'user-1': ACCOUNT_DB }));
    localStorage.setItem('docket.database', ACCOUNT_DB);
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
    localStorage.setItem('docket.spaces', JSON.stringify({ [ACCOUNT_DB]: { 'ws-1': SPACE_DB } }));
    render(<NotesSpaceLine />);
    expect(screen.getByText('Personal notes: only you read them.')).toBeTruthy();
    cleanup();
    localStorage.setItem(
      ACTIVE_SPACE_KEY,
      JSON.stringify({ account: ACCOUNT_DB, workspaceId: 'ws-1' }),
    );
    render(<NotesSpaceLine />);
    expect(screen.getByText('Team notes: every member of this workspace reads them.')).toBeTruthy();
  });
});
