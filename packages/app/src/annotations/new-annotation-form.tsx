import { IonButton } from '@ionic/react';
import { createAnnotation, QUOTE_MAX } from '@docket/core/commands';
import { type Ref, useId, useState } from 'react';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { DraftOffer } from '../drafts/draft-offer.tsx';
import { useFormDraft } from '../drafts/use-form-draft.ts';
import { AnnotationForm } from './annotation-form.tsx';
import { ColourChoice } from './colour-choice.tsx';
import { useCommand } from '../ui/use-command.ts';
import { defaultHighlightColour } from './highlight-colours.ts';
import { NoteField } from './note-field.tsx';
import type { TextOffsets } from './selection-offsets.ts';
import { FormError } from '../ui/form-error.tsx';
import { useSpaceReadOnly, VIEWER_WORDS } from '../local-store/space-role.ts';

/** A passage picked in a text, with the text it was picked in (to notice a re-import). */
export interface PickedPassage extends TextOffsets {
  readonly target: string;
  readonly text: string;
}

/** A passage as a draft remembers it: where it was, and what it said then. */
export interface DraftPassage {
  readonly target: string;
  readonly start: number;
  readonly end: number;
  readonly quote: string;
}

type NewAnnotationProps = Parameters<typeof NewAnnotationFields>[0];

/**
 * Colour, note and Save for a new highlight on the passage selected in the text; for a
 * workspace's viewer, who makes none, the words that say so.
 */
export function NewAnnotationForm(props: NewAnnotationProps) {
  const readOnly = useSpaceReadOnly();
  if (readOnly) return <p className="orphan-hint">{VIEWER_WORDS}</p>;
  return <NewAnnotationFields {...props} />;
}

function NewAnnotationFields({
  billId,
  passage,
  currentText,
  onSaved,
  onRestorePassage,
  formRef,
}: {
  readonly billId: string;
  readonly passage: PickedPassage | null;
  /** The target's text as it is now. */
  readonly currentText: string;
  readonly onSaved: () => void;
  /** Selects a draft's passage again, when the text still has it there. */
  readonly onRestorePassage: (passage: DraftPassage) => void;
  /** The form, for the text to send the focus to once a passage is picked by keyboard. */
  readonly formRef?: Ref<HTMLFormElement> | undefined;
}) {
  const [color, setColor] = useState(defaultHighlightColour.value);
  const [note, setNote] = useState('');
  const ids = useId();
  const { busy, error, setError, run } = useCommand();
  const draft = useFormDraft({
    form: 'annotation-note',
    scope: billId,
    fields: {
      note,
      color,
      target: passage?.target ?? '',
      start: passage === null ? '' : String(passage.start),
      end: passage === null ? '' : String(passage.end),
      quote: passage === null ? '' : passage.text.slice(passage.start, passage.end),
    },
    dirty: note.trim() !== '',
    onRestore: (fields) => {
      setNote(fields.note);
      setColor(fields.color);
      const start = Number(fields.start);
      const end = Number(fields.end);
      if (fields.target !== '' && fields.start !== '' && Number.isInteger(start)) {
        onRestorePassage({ target: fields.target, start, end, quote: fields.quote });
      }
    },
  });

  const save = async () => {
    if (passage === null) {
      setError('Select a passage of the text to annotate.');
      return;
    }
    if (passage.text !== currentText) {
      setError('The text changed since you selected the passage (a new import?); select it again.');
      return;
    }
    await run('save the highlight', async () => {
      const context = await editCommandContext();
      await createAnnotation(context, {
        billId,
        target: passage.target,
        start: passage.start,
        end: passage.end,
        color,
        note,
      });
      draft.clear();
      setNote('');
      document.getSelection()?.removeAllRanges();
      onSaved();
    });
  };

  const quote = passage === null ? null : passage.text.slice(passage.start, passage.end);
  return (
    <AnnotationForm
      headingId={`${ids}-heading`}
      heading="New highlight"
      formRef={formRef}
      onSubmit={() => {
        void save();
      }}
    >
      <DraftOffer draft={draft} what="note" preview={(fields) => fields.note} />
      {quote === null ? (
        <p className="field-hint">
          No passage selected yet: select one in the text above, with the mouse, by touch or with
          the keyboard.
        </p>
      ) : (
        <div className="picked-passage">
          <p className="field-label">
            Selected passage ({quote.length.toLocaleString('en-US')} characters)
          </p>
          {quote.length > QUOTE_MAX ? (
            <p className="form-error">
              A highlight is at most {QUOTE_MAX.toLocaleString('en-US')} characters; select a
              shorter passage.
            </p>
          ) : (
            <blockquote dir="auto" className="annotation-quote">
              {quote}
            </blockquote>
          )}
        </div>
      )}
      <ColourChoice value={color} onChange={setColor} />
      <NoteField value={note} onChange={setNote} />
      <FormError message={error} />
      <IonButton type="submit" disabled={busy}>
        Save
      </IonButton>
    </AnnotationForm>
  );
}
