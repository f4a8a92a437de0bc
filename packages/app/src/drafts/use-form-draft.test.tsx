import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryLocalStore } from '@docket/core/store';
import { formDraftKey, readFormDraft, saveFormDraft } from '@docket/core/device';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DraftOffer } from './draft-offer.tsx';
import { DRAFT_SAVE_DELAY_MS } from './draft-keeper.ts';
import { useFormDraft } from './use-form-draft.ts';

// The hook against core's memory store, as the page's store; the signed-in e-mail is the test's.
interface TestState {
  store: unknown;
  email: string | null;
}
const state = vi.hoisted((): TestState => ({ store: null, email: 'ada@example.org' }));
vi.mock('../bills/bill-command-services.ts', () => ({
  pageLocalStore: () => Promise.resolve(state.store),
}));
vi.mock('../state/use-app-state.ts', () => ({
  useAppState: (select: (app: { email: string | null }) => unknown) =>
    select({ email: state.email }),
}));

const key = formDraftKey('annotation-note', 'bill-1');
const store = () => state.store as ReturnType<typeof createMemoryLocalStore>;

function NoteForm({ onSaved }: { readonly onSaved?: () => void }) {
  const [note, setNote] = useState('');
  const draft = useFormDraft({
    form: 'annotation-note',
    scope: 'bill-1',
    fields: { note },
    dirty: note !== '',
    onRestore: (fields) => {
      setNote(fields.note);
    },
  });
  return (
    <form>
      <DraftOffer draft={draft} what="note" preview={(fields) => fields.note} />
      <label>
        Note
        <textarea
          value={note}
          onChange={(event) => {
            setNote(event.currentTarget.value);
          }}
        />
      </label>
      <button
        type="button"
        onClick={() => {
          draft.clear();
          setNote('');
          onSaved?.();
        }}
      >
        Save
      </button>
    </form>
  );
}

async function typeNote(text: string): Promise<void> {
  fireEvent.change(screen.getByLabelText('Note'), { target: { value: text } });
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, DRAFT_SAVE_DELAY_MS + 50));
  });
}

describe('useFormDraft', () => {
  beforeEach(() => {
    state.store = createMemoryLocalStore();
    state.email = 'ada@example.org';
  });
  afterEach(cleanup);

  it('keeps what is typed, and offers it back when the form opens again', async () => {
    const first = render(<NoteForm />);
    await waitFor(() => {
      expect(screen.getByLabelText('Note')).toBeTruthy();
    });
    await typeNote('Ask about weekends');
    await waitFor(async () => {
      expect((await readFormDraft(store(), key, 'ada@example.org'))?.fields).toEqual({
        note: 'Ask about weekends',
      });
    });
    first.unmount();

    render(<NoteForm />);
    const offer = await screen.findByRole('group', { name: 'Restore your unsaved note?' });
    expect(offer.textContent).toContain('Ask about weekends');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Note').value).toBe('');
    fireEvent.click(screen.getByText('Restore'));
    expect(screen.getByLabelText<HTMLTextAreaElement>('Note').value).toBe('Ask about weekends');
    expect(screen.queryByRole('group', { name: 'Restore your unsaved note?' })).toBeNull();
  });

  it('deletes the draft when discarded, and when the form is saved', async () => {
    await saveFormDraft(store(), key, {
      fields: { note: 'old' },
      owner: 'ada@example.org',
      now: new Date(),
    });
    render(<NoteForm />);
    fireEvent.click(await screen.findByText('Discard'));
    await waitFor(async () => {
      expect(await readFormDraft(store(), key, 'ada@example.org')).toBeNull();
    });

    await typeNote('new');
    await waitFor(async () => {
      expect(await readFormDraft(store(), key, 'ada@example.org')).not.toBeNull();
    });
    fireEvent.click(screen.getByText('Save'));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, DRAFT_SAVE_DELAY_MS * 2));
    });
    expect(await readFormDraft(store(), key, 'ada@example.org')).toBeNull();
  });

  it('does not offer another account’s draft', async () => {
    await saveFormDraft(store(), key, {
      fields: { note: 'Bob’s' },
      owner: 'bob@example.org',
      now: new Date(),
    });
    render(<NoteForm />);
    // Typing is kept only once the stored draft was read: it was, and not offered.
    await typeNote('Ada’s');
    await waitFor(async () => {
      expect((await readFormDraft(store(), key, 'ada@example.org'))?.fields).toEqual({
        note: 'Ada’s',
      });
    });
    expect(screen.queryByRole('group', { name: 'Restore your unsaved note?' })).toBeNull();
  });
});
