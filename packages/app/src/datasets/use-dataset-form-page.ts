import { useIonRouter, useIonViewDidLeave } from '@ionic/react';
import type { Dataset } from '@docket/core/store';
import { useCallback, useEffect, useRef } from 'react';
import { useFormDraft } from '../drafts/use-form-draft.ts';
import { useUnsavedChangesGuard } from '../ui/use-unsaved-changes-guard.ts';
import type { DatasetFormState } from './dataset-text-field.tsx';

// The add-dataset page's life around its form: the typed fields kept on this device as a draft,
// the warning before unsaved changes are left, the jobs screen once an import is queued, and a
// fresh form once the page that saved is left.

export function useDatasetFormPage({
  form,
  dataset,
  backHref,
  onSavedAndLeft,
}: {
  form: DatasetFormState;
  dataset: Dataset | null;
  /** Where the page goes once its dataset is deleted or removed. */
  backHref: string;
  /** Once the page that saved is left: the screen starts a fresh form. */
  onSavedAndLeft: () => void;
}) {
  const ionRouter = useIonRouter();
  // The typed fields are kept on this device as they are typed; saving or leaving lets them go.
  const draft = useFormDraft({
    form: 'dataset',
    scope: dataset?.id ?? 'new',
    fields: form.text,
    dirty: form.textChanged,
    onRestore: form.restoreText,
  });
  const reset = form.reset;
  const clearDraft = draft.clear;
  const leave = useCallback(() => {
    reset();
    clearDraft();
  }, [reset, clearDraft]);
  useUnsavedChangesGuard(form.dirty, leave, 'The changes you made to this dataset will be lost.');

  const started = form.started;
  const shownJobsFor = useRef<typeof started>(null);
  useEffect(() => {
    // After the guard has seen the form clean again, so it lets this navigation through. Once
    // per save: useIonRouter's value changes with every navigation, which runs this again.
    if (started === null || shownJobsFor.current === started) return;
    shownJobsFor.current = started;
    clearDraft();
    ionRouter.push('/jobs', 'forward', 'push');
  }, [started, ionRouter, clearDraft]);
  const savedAndLeft = useRef({ started, onSavedAndLeft });
  useEffect(() => {
    savedAndLeft.current = { started, onSavedAndLeft };
  }, [started, onSavedAndLeft]);
  useIonViewDidLeave(() => {
    if (savedAndLeft.current.started !== null) savedAndLeft.current.onSavedAndLeft();
  });

  /** The dataset is gone (deleted or removed): its changes let go, back to the list. */
  const removed = () => {
    leave();
    ionRouter.push(backHref, 'back');
  };
  return { draft, removed };
}
