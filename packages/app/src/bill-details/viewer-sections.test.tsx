import { act, cleanup, render, screen } from '@testing-library/react';
import type { StoredBill, Tag } from '@docket/core/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { BillTagsSection, DecisionSection, PositionSection } from './bill-user-sections.tsx';
import { AppServicesContext, type AppServices } from '../services/app-services.ts';
import { createAppStore } from '../state/app-store.ts';
import { commandFailureMessage } from '../ui/command-failure.ts';
import { AnnotationEditor } from '../annotations/annotation-editor.tsx';
import type { Annotation } from '@docket/core/store';
import { rememberSpaceRole, spaceIsReadOnly, VIEWER_WORDS } from '../local-store/space-role.ts';
import { workingInWorkspace } from '../local-store/space-test-setup.ts';

// A viewer in a team workspace (issue 39): the screens leave out every control that changes a
// bill's tags, position or decision, the page's commands are refused with words that say why,
// and a role an owner changes shows without entering the space again.

function enterAs(role: string | undefined): void {
  workingInWorkspace(role);
}

const bill = { id: 'b1', identifier: 'HB 1' } as StoredBill;
const housing: Tag = {
  id: 't1',
  name: 'Housing',
  color: '#1f77b4',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const report = { done: () => undefined, failed: () => undefined };
/** The server's member list, for the rows' authors (none are shown here: nothing synced). */
const members = () => Promise.resolve({ keyVersion: 1, members: [] });

function renderSections() {
  const appStore = createAppStore({
    online: true,
    user: { id: 'user-1', email: 'ann@example.org', name: 'Ann' },
  });
  act(() => {
    render(
      <AppServicesContext value={{ appStore, api: members } as unknown as AppServices}>
        <MemoryRouter>
          <BillTagsSection bill={bill} tags={[housing]} report={report} />
          <PositionSection billId="b1" position="support" reason="Rents" report={report} />
          <DecisionSection billId="b1" decision="track" report={report} />
        </MemoryRouter>
      </AppServicesContext>,
    );
  });
}

describe('a viewer in a team workspace', () => {
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('reads a bill’s tags, position and decision with no control that changes them', () => {
    enterAs('viewer');
    renderSections();
    expect(screen.getByText('Housing')).toBeTruthy();
    expect(screen.getByText('Support')).toBeTruthy();
    expect(screen.getByText('Rents')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Remove tag/ })).toBeNull();
    expect(screen.queryByText('Add tag')).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Change the decision' })).toBeNull();
  });

  it('is given the controls once an owner makes them an editor, without entering again', () => {
    enterAs('viewer');
    renderSections();
    expect(screen.queryByText('Add tag')).toBeNull();
    act(() => {
      rememberSpaceRole('ws-1', 'editor');
    });
    expect(screen.getByText('Add tag')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove tag Housing' })).toBeTruthy();
    expect(screen.getAllByRole('radio')).toHaveLength(4);
    expect(screen.getByRole('group', { name: 'Change the decision' })).toBeTruthy();
  });

  it('reads a highlight and its note with no field, Save or Delete', () => {
    enterAs('viewer');
    const annotation = {
      id: 'a1',
      billId: 'b1',
      color: '#ffeb3b',
      note: 'Ask the sponsor',
      quote: { exact: 'shelter' },
    } as unknown as Annotation;
    const appStore = createAppStore({ online: true, user: null });
    act(() => {
      render(
        <AppServicesContext value={{ appStore, api: members } as unknown as AppServices}>
          <AnnotationEditor
            annotation={annotation}
            quote="shelter"
            orphan={false}
            onSaved={() => undefined}
            onDeleted={() => undefined}
          />
        </AppServicesContext>,
      );
    });
    expect(screen.getByText('Ask the sponsor')).toBeTruthy();
    expect(screen.getByText(VIEWER_WORDS)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByText('Save')).toBeNull();
    expect(screen.queryByText('Delete')).toBeNull();
  });

  it('has every bill command refused, with words that say why', async () => {
    enterAs('viewer');
    const refused = await editCommandContext().then(
      () => null,
      (error: unknown) => error,
    );
    expect(commandFailureMessage(refused, 'add the tag')).toBe(
      `Could not add the tag: ${VIEWER_WORDS}`,
    );
  });

  it('is not read into another workspace, the personal space or an unknown role', () => {
    enterAs('viewer');
    rememberSpaceRole('ws-other', 'editor');
    expect(spaceIsReadOnly()).toBe(true);
    enterAs(undefined);
    expect(spaceIsReadOnly()).toBe(false);
    enterAs('viewer');
    localStorage.removeItem('docket.space');
    expect(spaceIsReadOnly()).toBe(false);
    enterAs('nobody');
    expect(spaceIsReadOnly()).toBe(false);
  });
});
