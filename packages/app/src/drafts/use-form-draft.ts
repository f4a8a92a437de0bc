import {
  deleteFormDraft,
  type FormDraftFields,
  formDraftKey,
  readFormDraft,
  saveFormDraft,
} from '@docket/core/device';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { createDraftKeeper, type DraftKeeper } from './draft-keeper.ts';

// A form's draft on this device (core's form-drafts.ts): kept as it is typed, offered back when
// the form opens again, deleted once saved or discarded. One hook for every form that would
// otherwise lose typed work to a reload (the reconnect's, spec §4), a closed tab or a crash.

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
}

export interface FormDraft<F extends FormDraftFields> {
  /** A draft from before, waiting for Restore or Discard; null when there is none. */
  readonly offered: { readonly fields: F; readonly savedAt: Date } | null;
  readonly restore: () => void;
  readonly discard: () => void;
  /** Call once the form is saved, or its changes let go: the draft is deleted. */
  readonly clear: () => void;
}

type Phase<F> =
  | { readonly kind: 'reading' }
  | { readonly kind: 'offering'; readonly fields: F; readonly savedAt: Date }
  | { readonly kind: 'keeping'; readonly stored: boolean };

function logFailure(error: unknown): void {
  // A draft that cannot be kept must not get in the way of the form itself.
  console.warn('Could not keep the form’s draft on this device', error);
}

export function useFormDraft<F extends FormDraftFields>(
  options: FormDraftOptions<F>,
): FormDraft<F> {
  const { form, scope, fields, dirty } = options;
  const owner = useAppState((state) => state.email);
  const key = useMemo(() => formDraftKey(form, scope), [form, scope]);
  // The phase belongs to one draft key and account; another one starts from reading again.
  const readKey = `${key}\n${owner ?? ''}`;
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
  const fieldsText = JSON.stringify(fields);
  const latest = useRef({ fieldsText, onRestore: options.onRestore });
  useEffect(() => {
    latest.current = { fieldsText, onRestore: options.onRestore };
  });

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
  }, [key, owner, setPhase]);

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
    const leaving = () => {
      void made.flush();
    };
    const hidden = () => {
      if (document.visibilityState === 'hidden') leaving();
    };
    window.addEventListener('pagehide', leaving);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', leaving);
      document.removeEventListener('visibilitychange', hidden);
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

  const offered = phase.kind === 'offering' ? phase : null;
  const restore = useCallback(() => {
    if (offered === null) return;
    latest.current.onRestore(offered.fields);
    // Stored still: the restored fields are kept again as soon as they are typed on.
    setPhase({ kind: 'keeping', stored: true });
  }, [offered, setPhase]);
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
  }, [key, setPhase]);

  return {
    offered: offered === null ? null : { fields: offered.fields, savedAt: offered.savedAt },
    restore,
    discard,
    clear,
  };
}
