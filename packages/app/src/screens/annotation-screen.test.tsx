import { act, cleanup, render, screen } from '@testing-library/react';
import { type Annotation, createMemoryLocalStore, type StoredBill } from '@docket/core/store';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VIEWER_WORDS } from '../local-store/space-role.ts';
import { AppServicesContext, type AppServices } from '../services/app-services.ts';
import { createAppStore } from '../state/app-store.ts';
import { AnnotationScreen } from './annotation-screen.tsx';
import { workingInWorkspace } from '../local-store/space-test-setup.ts';

// The annotation screen for the person who makes highlights and for a workspace's viewer, who
// reads them (issue 39): a viewer opening /annotation?bill= sees "Highlights", a text that offers
// no selection for a new one, and the words that say why; an opened highlight offers no way to a
// new one. The live reads of the bill, its fetched texts and its annotations are the boundary
// replaced here; the new highlight's draft is kept in core's memory store.

const rows = vi.hoisted(() => ({
  bill: {
    id: 'b1',
    identifier: 'HB 1',
    title: 'An act on shelter for the winter',
    summary: null,
    texts: [],
  } as unknown as StoredBill,
  annotations: [] as Annotation[],
}));
vi.mock('../local-store/live-bills.ts', () => ({ useStoredBill: () => rows.bill }));
vi.mock('../local-store/live-version-texts.ts', () => ({ useVersionTexts: () => [] }));
vi.mock('../local-store/live-annotations.ts', () => ({
  useBillAnnotations: () => rows.annotations,
}));
vi.mock('../layout/page-header.tsx', () => ({ PageHeader: () => null }));
const stable = vi.hoisted(() => ({ toast: { done: () => undefined, failed: () => undefined } }));
vi.mock('../toasts/status-toast.ts', () => ({ useStatusToast: () => stable.toast }));
vi.mock('../bills/bill-command-services.ts', () => ({
  pageLocalStore: () => Promise.resolve(createMemoryLocalStore()),
  editCommandContext: () => Promise.reject(new Error('no command in this test')),
  billCommandContext: () => Promise.reject(new Error('no device in this test')),
}));

/** Works in team workspace ws-1 with `role`. */
function enterAs(role: string): void {
  workingInWorkspace(role);
}

const at = '2026-01-01T00:00:00.000Z';
const shelter: Annotation = {
  id: 'a1',
  billId: 'b1',
  quote: { exact: 'shelter', prefix: 'An act on ', suffix: ' for the winter' },
  position: { start: 10, end: 17 },
  target: 'title',
  color: '#fff176',
  note: 'Ask the sponsor',
  createdAt: at,
  updatedAt: at,
};
/** Members of the workspace, for the rows' authors (none are shown here: nothing synced). */
const members = () => Promise.resolve({ keyVersion: 1, members: [] });
const KEYBOARD_HINT = /Shift with the arrow keys selects/;

function renderScreen(path: string) {
  const appStore = createAppStore({
    online: true,
    user: { id: 'user-1', email: 'ann@example.org', name: 'Ann' },
  });
  act(() => {
    render(
      <AppServicesContext value={{ appStore, api: members } as unknown as AppServices}>
        <MemoryRouter initialEntries={[path]}>
          <AnnotationScreen />
        </MemoryRouter>
      </AppServicesContext>,
    );
  });
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;
const text = () => screen.getByRole('region', { name: 'Text of the bill: Title' });

describe('the annotation screen', () => {
  beforeEach(() => {
    localStorage.clear();
    rows.annotations = [shelter];
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('offers a viewer the highlights to read, with no text to select a new one in', () => {
    enterAs('viewer');
    renderScreen('/annotation?bill=b1');
    expect(heading()).toBe('Highlights');
    expect(screen.queryByText(KEYBOARD_HINT)).toBeNull();
    expect(text().getAttribute('aria-describedby')).toBeNull();
    expect(screen.getByText(VIEWER_WORDS)).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Highlights in this text' })).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('shows a viewer an opened highlight with no way to a new one', () => {
    enterAs('viewer');
    renderScreen('/annotation?bill=b1&id=a1');
    expect(heading()).toBe('Highlight');
    expect(screen.getByText(VIEWER_WORDS)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New highlight on HB 1' })).toBeNull();
    expect(screen.queryByText(KEYBOARD_HINT)).toBeNull();
  });

  it('offers an editor a new highlight on a passage selected in the text', () => {
    enterAs('editor');
    renderScreen('/annotation?bill=b1');
    expect(heading()).toBe('New highlight');
    expect(screen.getByText(KEYBOARD_HINT)).toBeTruthy();
    expect(text().getAttribute('aria-describedby')).not.toBeNull();
    expect(screen.queryByText(VIEWER_WORDS)).toBeNull();
    expect(screen.getByRole('form', { name: 'New highlight' })).toBeTruthy();
  });

  it('shows the personal space an opened highlight with the way to a new one', () => {
    renderScreen('/annotation?bill=b1&id=a1');
    expect(heading()).toBe('Highlight');
    expect(screen.getByRole('link', { name: 'New highlight on HB 1' })).toBeTruthy();
    expect(screen.queryByText(VIEWER_WORDS)).toBeNull();
  });
});
