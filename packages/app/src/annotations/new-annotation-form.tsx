import { IonButton } from '@ionic/react';
import { createAnnotation, QUOTE_MAX } from '@docket/core/annotation-commands';
import { useId, useState } from 'react';
import { billCommandContext } from '../bills/bill-command-services.ts';
import { ColourChoice } from './colour-choice.tsx';
import { commandMessage } from './command-message.ts';
import { defaultHighlightColour } from './highlight-colours.ts';
import { NoteField } from './note-field.tsx';
import type { TextOffsets } from './selection-offsets.ts';

/** A passage picked in a text, with the text it was picked in (to notice a re-import). */
export interface PickedPassage extends TextOffsets {
  readonly target: string;
  readonly text: string;
}

/** Colour, note and Save for a new highlight on the passage selected in the text. */
export function NewAnnotationForm({
  billId,
  passage,
  currentText,
  onSaved,
}: {
  readonly billId: string;
  readonly passage: PickedPassage | null;
  /** The target's text as it is now. */
  readonly currentText: string;
  readonly onSaved: () => void;
}) {
  const [color, setColor] = useState(defaultHighlightColour.value);
  const [note, setNote] = useState('');
  const ids = useId();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (passage === null) {
      setError('Select a passage of the text to annotate.');
      return;
    }
    if (passage.text !== currentText) {
      setError('The text changed since you selected the passage (a new import?); select it again.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const context = await billCommandContext();
      await createAnnotation(context, {
        billId,
        target: passage.target,
        start: passage.start,
        end: passage.end,
        color,
        note,
      });
      setNote('');
      document.getSelection()?.removeAllRanges();
      onSaved();
    } catch (caught) {
      setError(commandMessage(caught, 'save the highlight'));
    } finally {
      setBusy(false);
    }
  };

  const quote = passage === null ? null : passage.text.slice(passage.start, passage.end);
  return (
    <form
      className="annotation-form"
      aria-labelledby={`${ids}-heading`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save().catch((caught: unknown) => {
          setError(commandMessage(caught, 'save the highlight'));
        });
      }}
    >
      <h2 id={`${ids}-heading`}>New highlight</h2>
      {quote === null ? (
        <p className="field-hint">
          No passage selected yet: select one in the text above, with the mouse, by touch, or with
          the keyboard below.
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
      {error !== null && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <IonButton type="submit" disabled={busy}>
        Save
      </IonButton>
    </form>
  );
}
