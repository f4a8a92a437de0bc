import { IonButton } from '@ionic/react';
import { deleteAnnotation, updateAnnotation } from '@docket/core/commands';
import type { Annotation } from '@docket/core/store';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
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
  const ids = useId();
  const edit = useHighlightEdit(annotation, onSaved, onDeleted);
  const deletion = useDeleteConfirmation();
  const heading = orphan ? 'Orphaned highlight' : 'Highlight';

  if (readOnly) {
    return (
      <ReadOnlyHighlight
        annotation={annotation}
        quote={quote}
        heading={heading}
        headingId={`${ids}-heading`}
      />
    );
  }

  return (
    <AnnotationForm headingId={`${ids}-heading`} heading={heading} onSubmit={edit.save}>
      {orphan && (
        <p className="orphan-hint">
          Its passage is no longer in the bill&apos;s text. It is kept with the quote it was made
          on.
        </p>
      )}
      <blockquote dir="auto" className="annotation-quote">
        {quote}
      </blockquote>
      <DraftOffer draft={edit.draft} what="note" preview={(fields) => fields.note} />
      {annotation.note !== '' && (
        <div className="saved-note">
          <p className="field-label">Saved note</p>
          <NoteText note={annotation.note} />
        </div>
      )}
      <ColourChoice value={edit.color} onChange={edit.setColor} />
      <NoteField value={edit.note} onChange={edit.setNote} />
      <FormError message={edit.error} />
      <HighlightActions
        busy={edit.busy}
        deletion={deletion}
        questionId={`${ids}-question`}
        onDelete={edit.remove}
      />
    </AnnotationForm>
  );
}

/**
 * The highlight's colour and note as edited, kept as a draft meanwhile, and the commands that
 * save them or delete the highlight (each clears the draft, then says it is done).
 */
function useHighlightEdit(annotation: Annotation, onSaved: () => void, onDeleted: () => void) {
  const [color, setColor] = useState(annotation.color);
  const [note, setNote] = useState(annotation.note);
  const { busy, error, run } = useCommand();
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
  return { color, setColor, note, setNote, busy, error, draft, save, remove };
}

/** Delete's question: whether it is asked, and its confirming button, focused once it is. */
interface DeleteConfirmation {
  readonly confirming: boolean;
  readonly setConfirming: (confirming: boolean) => void;
  readonly confirmButton: RefObject<HTMLIonButtonElement | null>;
}

/** Whether Delete is being confirmed; the focus goes to the confirming button when it is asked. */
function useDeleteConfirmation(): DeleteConfirmation {
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLIonButtonElement>(null);
  useEffect(() => {
    if (confirming) focusControl(confirmButton.current);
  }, [confirming]);
  return { confirming, setConfirming, confirmButton };
}

/** Save and Delete, and once Delete is pressed, the question that deletes or cancels. */
function HighlightActions({
  busy,
  deletion,
  questionId,
  onDelete,
}: {
  readonly busy: boolean;
  readonly deletion: DeleteConfirmation;
  readonly questionId: string;
  readonly onDelete: () => void;
}) {
  const { confirming, setConfirming, confirmButton } = deletion;
  return (
    <>
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
        <div className="delete-confirm" role="group" aria-labelledby={questionId}>
          <p id={questionId}>Delete this highlight and its note? This cannot be undone.</p>
          <div className="screen-actions">
            <IonButton ref={confirmButton} color="danger" disabled={busy} onClick={onDelete}>
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
    </>
  );
}

/** A workspace's viewer reads the highlight and its note, with no control that changes them. */
function ReadOnlyHighlight({
  annotation,
  quote,
  heading,
  headingId,
}: {
  readonly annotation: Annotation;
  readonly quote: string;
  readonly heading: string;
  readonly headingId: string;
}) {
  return (
    <section aria-labelledby={headingId} className="annotation-form">
      <h2 id={headingId}>{heading}</h2>
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
