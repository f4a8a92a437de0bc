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

/** A passage as the draft's fields keep it: all text, empty when no passage is picked. */
interface PassageDraftFields {
  readonly target: string;
  readonly start: string;
  readonly end: string;
  readonly quote: string;
}

/** The picked passage as a draft keeps it, or empty fields when none is picked. */
export function passageDraftFields(passage: PickedPassage | null): PassageDraftFields {
  return {
    target: passage?.target ?? '',
    start: passage === null ? '' : String(passage.start),
    end: passage === null ? '' : String(passage.end),
    quote: passage === null ? '' : passage.text.slice(passage.start, passage.end),
  };
}

/** The passage a restored draft had picked, or null when it had none (or one unreadable). */
export function restoredDraftPassage(fields: PassageDraftFields): DraftPassage | null {
  const start = Number(fields.start);
  const end = Number(fields.end);
  if (fields.target === '' || fields.start === '' || !Number.isInteger(start)) return null;
  return { target: fields.target, start, end, quote: fields.quote };
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

/** The props of the new-highlight form, but its form ref. */
type NewHighlightOptions = Omit<NewAnnotationProps, 'formRef'>;

/** The new-highlight form: the passage picked, its colour, its note and Save. */
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
  const ids = useId();
  const highlight = useNewHighlight({ billId, passage, currentText, onSaved, onRestorePassage });
  return (
    <AnnotationForm
      headingId={`${ids}-heading`}
      heading="New highlight"
      formRef={formRef}
      onSubmit={() => {
        void highlight.save();
      }}
    >
      <DraftOffer draft={highlight.draft} what="note" preview={(fields) => fields.note} />
      <PickedPassageQuote
        quote={passage === null ? null : passage.text.slice(passage.start, passage.end)}
      />
      <ColourChoice value={highlight.color} onChange={highlight.setColor} />
      <NoteField value={highlight.note} onChange={highlight.setNote} />
      <FormError message={highlight.error} />
      <IonButton type="submit" disabled={highlight.busy}>
        Save
      </IonButton>
    </AnnotationForm>
  );
}

/**
 * The new highlight's colour and note, kept as a draft with the passage meanwhile (a restored
 * draft picks its passage again), and `save`, which makes the highlight on the passage unless
 * none is picked or the text changed under it.
 */
function useNewHighlight({
  billId,
  passage,
  currentText,
  onSaved,
  onRestorePassage,
}: NewHighlightOptions) {
  const [color, setColor] = useState(defaultHighlightColour.value);
  const [note, setNote] = useState('');
  const { busy, error, setError, run } = useCommand();
  const draft = useFormDraft({
    form: 'annotation-note',
    scope: billId,
    fields: { note, color, ...passageDraftFields(passage) },
    dirty: note.trim() !== '',
    onRestore: (fields) => {
      setNote(fields.note);
      setColor(fields.color);
      const restored = restoredDraftPassage(fields);
      if (restored !== null) onRestorePassage(restored);
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
  return { color, setColor, note, setNote, busy, error, draft, save };
}

/** The passage picked for the highlight, one too long refused, or how to pick one. */
function PickedPassageQuote({ quote }: { readonly quote: string | null }) {
  if (quote === null) {
    return (
      <p className="field-hint">
        No passage selected yet: select one in the text above, with the mouse, by touch or with the
        keyboard.
      </p>
    );
  }
  return (
    <div className="picked-passage">
      <p className="field-label">
        Selected passage ({quote.length.toLocaleString('en-US')} characters)
      </p>
      {quote.length > QUOTE_MAX ? (
        <p className="form-error">
          A highlight is at most {QUOTE_MAX.toLocaleString('en-US')} characters; select a shorter
          passage.
        </p>
      ) : (
        <blockquote dir="auto" className="annotation-quote">
          {quote}
        </blockquote>
      )}
    </div>
  );
}
