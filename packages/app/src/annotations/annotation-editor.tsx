import { IonButton } from '@ionic/react';
import { deleteAnnotation, updateAnnotation } from '@docket/core/commands';
import type { Annotation } from '@docket/core/store';
import { useEffect, useId, useRef, useState } from 'react';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { AuthoredBy } from '../authors/authored-by.tsx';
import { useSpaceReadOnly, VIEWER_WORDS } from '../local-store/space-role.ts';
import { DraftOffer } from '../drafts/draft-offer.tsx';
import { useFormDraft } from '../drafts/use-form-draft.ts';
import { AnnotationForm } from './annotation-form.tsx';
import { ColourChoice } from './colour-choice.tsx';
import { useCommand } from '../ui/use-command.ts';
import { NoteField } from './note-field.tsx';
import { NoteText } from './note-text.tsx';
import { FormError } from '../ui/form-error.tsx';
import { focusControl } from '../ui/falling-focus.ts';

/** An existing highlight: its quote, colour and note, editable, and deletable after asking. */
export function AnnotationEditor({
  annotation,
  quote,
  orphan,
  onSaved,
  onDeleted,
}: {
  readonly annotation: Annotation;
  /** The passage as it reads now, or the stored quote of an orphan. */
  readonly quote: string;
  readonly orphan: boolean;
  readonly onSaved: () => void;
  readonly onDeleted: () => void;
}) {
  const readOnly = useSpaceReadOnly();
  const [color, setColor] = useState(annotation.color);
  const [note, setNote] = useState(annotation.note);
  const ids = useId();
  const { busy, error, run } = useCommand();
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLIonButtonElement>(null);
  const draft = useFormDraft({
    form: 'annotation-note',
    scope: `${annotation.billId}#${annotation.id}`,
    fields: { note, color },
    dirty: note !== annotation.note || color !== annotation.color,
    onRestore: (fields) => {
      setNote(fields.note);
      setColor(fields.color);
    },
  });

  useEffect(() => {
    if (confirming) focusControl(confirmButton.current);
  }, [confirming]);

  const save = () => {
    void run('save the highlight', async () => {
      await updateAnnotation(await editCommandContext(), annotation.id, { note, color });
      draft.clear();
      onSaved();
    });
  };
  const remove = () => {
    void run('delete the highlight', async () => {
      await deleteAnnotation(await editCommandContext(), annotation.id);
      draft.clear();
      onDeleted();
    });
  };

  if (readOnly) {
    // A workspace's viewer reads the highlight and its note, with no control that changes them.
    return (
      <section aria-labelledby={`${ids}-heading`} className="annotation-form">
        <h2 id={`${ids}-heading`}>{orphan ? 'Orphaned highlight' : 'Highlight'}</h2>
        <blockquote dir="auto" className="annotation-quote">
          {quote}
        </blockquote>
        {annotation.note !== '' && (
          <div className="saved-note">
            <p className="field-label">
              Note
              <AuthoredBy table="annotations" rowId={annotation.id} field="note" />
            </p>
            <NoteText note={annotation.note} />
          </div>
        )}
        <p className="orphan-hint">{VIEWER_WORDS}</p>
      </section>
    );
  }

  return (
    <AnnotationForm
      headingId={`${ids}-heading`}
      heading={orphan ? 'Orphaned highlight' : 'Highlight'}
      onSubmit={save}
    >
      {orphan && (
        <p className="orphan-hint">
          Its passage is no longer in the bill&apos;s text. It is kept with the quote it was made
          on.
        </p>
      )}
      <blockquote dir="auto" className="annotation-quote">
        {quote}
      </blockquote>
      <DraftOffer draft={draft} what="note" preview={(fields) => fields.note} />
      {annotation.note !== '' && (
        <div className="saved-note">
          <p className="field-label">Saved note</p>
          <NoteText note={annotation.note} />
        </div>
      )}
      <ColourChoice value={color} onChange={setColor} />
      <NoteField value={note} onChange={setNote} />
      <FormError message={error} />
      <div className="screen-actions">
        <IonButton type="submit" disabled={busy}>
          Save
        </IonButton>
        {!confirming && (
          <IonButton
            fill="outline"
            color="danger"
            disabled={busy}
            onClick={() => {
              setConfirming(true);
            }}
          >
            Delete
          </IonButton>
        )}
      </div>
      {confirming && (
        <div className="delete-confirm" role="group" aria-labelledby={`${ids}-question`}>
          <p id={`${ids}-question`}>Delete this highlight and its note? This cannot be undone.</p>
          <div className="screen-actions">
            <IonButton ref={confirmButton} color="danger" disabled={busy} onClick={remove}>
              Delete highlight
            </IonButton>
            <IonButton
              fill="outline"
              disabled={busy}
              onClick={() => {
                setConfirming(false);
              }}
            >
              Cancel
            </IonButton>
          </div>
        </div>
      )}
    </AnnotationForm>
  );
}
