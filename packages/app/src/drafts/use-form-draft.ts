import {
  deleteFormDraft,
  type FormDraftFields,
  formDraftKey,
  readFormDraft,
  saveFormDraft,
} from '@docket/core/device';
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { createDraftKeeper, type DraftKeeper } from './draft-keeper.ts';
import { createPausedWriter, type PausedWriter } from './paused-writer.ts';

// A form's draft on this device (core's form-drafts.ts): kept as it is typed, offered back when
// the form opens again, deleted once saved or discarded. One hook for every form that would
// otherwise lose typed work to a reload (the reconnect's, spec §4), a closed tab or a crash.
// A form with no Save button (the position's "Why") gives `autosave` too: the hook then saves
// the form itself a moment after typing stops, and the draft covers the moment before.

/** How long an autosaving form waits after the last keystroke: long enough not to write at
 *  every keystroke, short enough that a pause saves. */
export const AUTOSAVE_DELAY_MS = 700;

export interface FormAutosave<F extends FormDraftFields> {
  /** Saves the form (a command of core's); rejects when it could not. Saves run one after
   *  another, each when the one before has finished. */
  readonly save: (fields: F) => Promise<void>;
  /** Whether what the form holds can be saved (not too long): while not, nothing is saved and
   *  a waiting save is dropped; the draft is still kept. */
  readonly ready: boolean;
  readonly onError?: (error: unknown) => void;
}

export interface FormDraftOptions<F extends FormDraftFields> {
  /** Which form: "annotation-note", "dataset", "backup", "tag". */
  readonly form: string;
  /** What it is about: a bill id, a dataset id, "new". */
  readonly scope: string;
  /** What the form holds now. */
  readonly fields: F;
  /** Whether it holds anything worth keeping (it differs from how it started). */
  readonly dirty: boolean;
  /** Puts a stored draft back into the form. */
  readonly onRestore: (fields: F) => void;
  /**
   * For a form with no Save button: saved AUTOSAVE_DELAY_MS after the last change while it is
   * dirty and ready, at once by flush() (the field left), when the page is hidden or left and
   * when the form closes. Once the saved text is what the form holds, the form is no longer
   * dirty and the draft goes.
   */
  readonly autosave?: FormAutosave<F>;
}

export interface FormDraft<F extends FormDraftFields> {
  /** A draft from before, waiting for Restore or Discard; null when there is none. */
  readonly offered: { readonly fields: F; readonly savedAt: Date } | null;
  readonly restore: () => void;
  readonly discard: () => void;
  /** Call once the form is saved, or its changes let go: the draft is deleted. */
  readonly clear: () => void;
  /** An autosaving form's waiting save, made at once (the field is left); resolves once done. */
  readonly flush: () => Promise<void>;
}

type Phase<F> =
  | { readonly kind: 'reading' }
  | { readonly kind: 'offering'; readonly fields: F; readonly savedAt: Date }
  | { readonly kind: 'keeping'; readonly stored: boolean };

/** Runs `leaving` when the page is hidden or left (the reconnect reloads it at once). */
function whenPageLeaves(leaving: () => void): () => void {
  const hidden = () => {
    if (document.visibilityState === 'hidden') leaving();
  };
  window.addEventListener('pagehide', leaving);
  document.addEventListener('visibilitychange', hidden);
  return () => {
    window.removeEventListener('pagehide', leaving);
    document.removeEventListener('visibilitychange', hidden);
  };
}

function logFailure(error: unknown): void {
  // A draft that cannot be kept must not get in the way of the form itself.
  console.warn('Could not keep the form’s draft on this device', error);
}

/** What the latest render passed, for effects and callbacks that read it without following it. */
interface Latest<F extends FormDraftFields> {
  readonly fieldsText: string;
  readonly onRestore: (fields: F) => void;
  readonly autosave: FormAutosave<F> | undefined;
}

/** A waiting autosave: the fields, with the save of the form they were typed in. */
interface PendingSave<F extends FormDraftFields> {
  readonly fields: F;
  readonly save: (fields: F) => Promise<void>;
}

/** The draft's phase, which belongs to one draft key and account (`readKey`): another one starts
 *  from reading again. */
function useDraftPhase<F extends FormDraftFields>(
  readKey: string,
): [Phase<F>, (next: Phase<F>) => void] {
  const [state, setState] = useState<{ readonly of: string; readonly phase: Phase<F> }>({
    of: '',
    phase: { kind: 'reading' },
  });
  const phase: Phase<F> = state.of === readKey ? state.phase : { kind: 'reading' };
  const setPhase = useCallback(
    (next: Phase<F>) => {
      setState({ of: readKey, phase: next });
    },
    [readKey],
  );
  return [phase, setPhase];
}

/** What the latest render passed, kept in a ref updated after every render. */
function useLatest<F extends FormDraftFields>(latestNow: Latest<F>): RefObject<Latest<F>> {
  const latest = useRef(latestNow);
  useEffect(() => {
    latest.current = latestNow;
  });
  return latest;
}

/**
 * The autosave, from the start (typing while a draft is offered saves too): a waiting save
 * while the form is dirty and ready, made at once when the page is hidden or left and when the
 * form closes. Each waiting save carries the save of the form it was typed in, so one still
 * waiting when the form moves to another scope is made for the scope it belongs to.
 */
function useAutosave<F extends FormDraftFields>({
  key,
  autosaving,
  ready,
  dirty,
  fieldsText,
  latest,
}: {
  readonly key: string;
  /** Whether the form saves itself (it gives `autosave`). */
  readonly autosaving: boolean;
  /** Whether what the form holds can be saved now (the autosave's `ready`). */
  readonly ready: boolean;
  readonly dirty: boolean;
  readonly fieldsText: string;
  readonly latest: RefObject<Latest<F>>;
}): RefObject<PausedWriter<PendingSave<F>> | null> {
  const saver = useRef<PausedWriter<PendingSave<F>> | null>(null);
  useEffect(() => {
    if (!autosaving) return;
    const made = createPausedWriter<PendingSave<F>>({
      write: ({ fields: saved, save }) => save(saved),
      delayMs: AUTOSAVE_DELAY_MS,
      onError: (error) => {
        latest.current.autosave?.onError?.(error);
      },
    });
    saver.current = made;
    const stop = whenPageLeaves(() => {
      void made.flush();
    });
    return () => {
      stop();
      void made.flush();
      if (saver.current === made) saver.current = null;
    };
  }, [autosaving, key, latest]);
  useEffect(() => {
    const made = saver.current;
    const autosave = latest.current.autosave;
    if (made === null || autosave === undefined) return;
    if (dirty && ready) made.change({ fields: JSON.parse(fieldsText) as F, save: autosave.save });
    else made.cancel();
  }, [dirty, ready, fieldsText, latest]);
  return saver;
}

/** Reads the stored draft for the key and account: offered back unless the form says it already. */
function useStoredDraftRead<F extends FormDraftFields>(
  key: string,
  owner: string | null,
  setPhase: (next: Phase<F>) => void,
  latest: RefObject<Latest<F>>,
): void {
  useEffect(() => {
    let current = true;
    pageLocalStore()
      .then((store) => readFormDraft(store, key, owner))
      .then((draft) => {
        if (!current) return;
        // A draft that says what the form already says has nothing to offer.
        if (draft === null || JSON.stringify(draft.fields) === latest.current.fieldsText) {
          setPhase({ kind: 'keeping', stored: draft !== null });
        } else {
          setPhase({
            kind: 'offering',
            fields: draft.fields as F,
            savedAt: new Date(draft.savedAt),
          });
        }
      })
      .catch((error: unknown) => {
        logFailure(error);
        if (current) setPhase({ kind: 'keeping', stored: false });
      });
    return () => {
      current = false;
    };
  }, [key, owner, setPhase, latest]);
}

/**
 * Once no draft is offered, keeps the draft in step with what the form holds (a light pause
 * after the last keystroke, at once when the page is hidden or left); the keeper while keeping.
 */
function useKeptDraft<F extends FormDraftFields>({
  phase,
  key,
  owner,
  dirty,
  fieldsText,
}: {
  readonly phase: Phase<F>;
  readonly key: string;
  readonly owner: string | null;
  readonly dirty: boolean;
  readonly fieldsText: string;
}): RefObject<DraftKeeper | null> {
  const keeper = useRef<DraftKeeper | null>(null);
  const keeping = phase.kind === 'keeping';
  const startedStored = phase.kind === 'keeping' && phase.stored;
  useEffect(() => {
    if (!keeping) return;
    const made = createDraftKeeper(
      {
        save: async (draft) => {
          await saveFormDraft(await pageLocalStore(), key, {
            fields: draft,
            owner,
            now: new Date(),
          });
        },
        remove: async () => {
          await deleteFormDraft(await pageLocalStore(), key);
        },
      },
      { stored: startedStored, onError: logFailure },
    );
    keeper.current = made;
    // The reconnect reloads the page at once: what is waiting is written as the page goes.
    const stop = whenPageLeaves(() => {
      void made.flush();
    });
    return () => {
      stop();
      void made.flush();
      if (keeper.current === made) keeper.current = null;
    };
    // startedStored is read when keeping starts, not followed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keeping, key, owner]);

  useEffect(() => {
    if (!keeping) return;
    keeper.current?.change(dirty ? (JSON.parse(fieldsText) as F) : null);
  }, [keeping, dirty, fieldsText]);
  return keeper;
}

/** The answers to a draft: Restore or Discard the one offered, Clear the one kept. */
function useDraftAnswers<F extends FormDraftFields>({
  offered,
  key,
  setPhase,
  keeper,
  latest,
}: {
  readonly offered: { readonly fields: F } | null;
  readonly key: string;
  readonly setPhase: (next: Phase<F>) => void;
  readonly keeper: RefObject<DraftKeeper | null>;
  readonly latest: RefObject<Latest<F>>;
}): Pick<FormDraft<F>, 'restore' | 'discard' | 'clear'> {
  const restore = useCallback(() => {
    if (offered === null) return;
    latest.current.onRestore(offered.fields);
    // Stored still: the restored fields are kept again as soon as they are typed on.
    setPhase({ kind: 'keeping', stored: true });
  }, [offered, setPhase, latest]);
  const discard = useCallback(() => {
    setPhase({ kind: 'keeping', stored: true });
    pageLocalStore()
      .then((store) => deleteFormDraft(store, key))
      .catch(logFailure);
  }, [key, setPhase]);
  const clear = useCallback(() => {
    if (keeper.current !== null) {
      void keeper.current.clear();
      return;
    }
    setPhase({ kind: 'keeping', stored: false });
    pageLocalStore()
      .then((store) => deleteFormDraft(store, key))
      .catch(logFailure);
  }, [key, setPhase, keeper]);
  return { restore, discard, clear };
}

/** A form's draft: read and offered back, then kept as typed; with `autosave`, the form's saves. */
export function useFormDraft<F extends FormDraftFields>(
  options: FormDraftOptions<F>,
): FormDraft<F> {
  const { form, scope, fields, dirty } = options;
  const owner = useAppState((state) => state.email);
  const key = useMemo(() => formDraftKey(form, scope), [form, scope]);
  const [phase, setPhase] = useDraftPhase<F>(`${key}\n${owner ?? ''}`);
  const fieldsText = JSON.stringify(fields);
  const latest = useLatest<F>({
    fieldsText,
    onRestore: options.onRestore,
    autosave: options.autosave,
  });

  const saver = useAutosave({
    key,
    autosaving: options.autosave !== undefined,
    ready: options.autosave?.ready ?? false,
    dirty,
    fieldsText,
    latest,
  });
  useStoredDraftRead(key, owner, setPhase, latest);
  const keeper = useKeptDraft({ phase, key, owner, dirty, fieldsText });

  const offered = phase.kind === 'offering' ? phase : null;
  const { restore, discard, clear } = useDraftAnswers({ offered, key, setPhase, keeper, latest });

  const flush = useCallback(() => saver.current?.flush() ?? Promise.resolve(), [saver]);

  return {
    offered: offered === null ? null : { fields: offered.fields, savedAt: offered.savedAt },
    restore,
    discard,
    clear,
    flush,
  };
}
