import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryLocalStore } from '@docket/core/store';
import { formDraftKey, readFormDraft, saveFormDraft } from '@docket/core/device';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DraftOffer } from './draft-offer.tsx';
import { DRAFT_SAVE_DELAY_MS } from './draft-keeper.ts';
import { AUTOSAVE_DELAY_MS, useFormDraft } from './use-form-draft.ts';

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

  it('saves an autosaving form a pause after typing stops, keeps the draft meanwhile, and not while it is not ready', async () => {
    const saves: string[] = [];
    function WhyForm() {
      const [stored, setStored] = useState('');
      const [why, setWhy] = useState('');
      const draft = useFormDraft({
        form: 'position-reason',
        scope: 'bill-1',
        fields: { why },
        dirty: why !== stored,
        onRestore: (fields) => {
          setWhy(fields.why);
        },
        autosave: {
          ready: why.length <= 10,
          save: async (fields) => {
            await Promise.resolve();
            saves.push(fields.why);
            setStored(fields.why);
          },
        },
      });
      return (
        <label>
          Why
          <textarea
            value={why}
            onChange={(event) => {
              setWhy(event.currentTarget.value);
            }}
            onBlur={() => {
              void draft.flush();
            }}
          />
        </label>
      );
    }
    const whyKey = formDraftKey('position-reason', 'bill-1');
    const wait = (ms: number) =>
      act(async () => {
        await new Promise((resolve) => setTimeout(resolve, ms));
      });
    render(<WhyForm />);
    // The draft is kept once the stored one was read (none here): let that happen first.
    await wait(DRAFT_SAVE_DELAY_MS);
    const field = screen.getByLabelText('Why');
    fireEvent.change(field, { target: { value: 'Costs' } });
    // The draft is written first, the save once the pause is over.
    await waitFor(async () => {
      expect((await readFormDraft(store(), whyKey, 'ada@example.org'))?.fields).toEqual({
        why: 'Costs',
      });
    });
    expect(saves).toEqual([]);
    await waitFor(() => {
      expect(saves).toEqual(['Costs']);
    });
    // Saved: the form is as stored, and its draft goes.
    await waitFor(async () => {
      expect(await readFormDraft(store(), whyKey, 'ada@example.org')).toBeNull();
    });

    // Too long: not saved, kept as a draft.
    fireEvent.change(field, { target: { value: 'Far too long a reason' } });
    await wait(AUTOSAVE_DELAY_MS + 100);
    expect(saves).toEqual(['Costs']);
    expect((await readFormDraft(store(), whyKey, 'ada@example.org'))?.fields).toEqual({
      why: 'Far too long a reason',
    });

    // Leaving the field saves at once.
    fireEvent.change(field, { target: { value: 'Rents' } });
    fireEvent.blur(field);
    await wait(20);
    expect(saves).toEqual(['Costs', 'Rents']);
  });
});
