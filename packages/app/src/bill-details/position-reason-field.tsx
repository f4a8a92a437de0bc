import { POSITION_REASON_MAX, setPositionReason } from '@docket/core/commands';
import { useEffect, useId, useRef, useState } from 'react';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { DraftOffer } from '../drafts/draft-offer.tsx';
import { useFormDraft } from '../drafts/use-form-draft.ts';
import { commandFailureMessage } from '../ui/command-failure.ts';

// "Why": the reason for the position, in the user's words. It saves as it is typed (no Save
// button, as the position beside it): drafts/use-form-draft.ts saves it a moment after typing
// stops, at once when the field is left or the page hidden, and keeps a draft on the device
// meanwhile, so a reload or a crash before the save loses nothing; a text too long to save
// stays in the field and in the draft, with the limit said under it. The text is a textarea's
// value, never markup.

function tooLongMessage(text: string): string | null {
  const length = text.trim().length;
  return length > POSITION_REASON_MAX
    ? `A reason is at most ${POSITION_REASON_MAX.toLocaleString('en-US')} characters; this one has ${length.toLocaleString('en-US')}.`
    : null;
}

/**
 * What the field shows once the stored reason changed from `previous` to `stored`: the user's own
 * text while it holds typing not saved yet, otherwise what is stored now (a change from another
 * tab or device, or from a restore).
 */
export function reasonAfterStoredChange(text: string, previous: string, stored: string): string {
  const typed = text.trim();
  if (typed === stored.trim()) return text;
  return typed === previous.trim() ? stored : text;
}

/**
 * The field's text and its setter. A change of the stored reason (ours landing, or another tab's
 * or device's) is shown unless the field holds typing not saved yet (reasonAfterStoredChange).
 */
function useReasonFollowingStored(stored: string): [string, (text: string) => void] {
  const [text, setText] = useState(stored);
  const [previous, setPrevious] = useState(stored);
  if (stored !== previous) {
    setPrevious(stored);
    setText(reasonAfterStoredChange(text, previous, stored));
  }
  return [text, setText];
}

/**
 * The reason's draft, saved as it is typed (useFormDraft's autosave) when it is `ready` and not
 * what is stored already; a failure goes to `onFailure`.
 */
function useReasonAutosave({
  billId,
  text,
  stored,
  ready,
  onRestore,
  onSaved,
  onFailure,
}: {
  readonly billId: string;
  readonly text: string;
  readonly stored: string;
  /** Whether the text can be saved (not too long). */
  readonly ready: boolean;
  readonly onRestore: (reason: string) => void;
  readonly onSaved: () => void;
  readonly onFailure: (message: string) => void;
}) {
  const latest = useRef({ stored, onFailure });
  useEffect(() => {
    latest.current = { stored, onFailure };
  });
  return useFormDraft({
    form: 'position-reason',
    scope: billId,
    fields: { reason: text },
    dirty: text.trim() !== stored.trim(),
    onRestore: (fields) => {
      onRestore(fields.reason);
    },
    autosave: {
      ready,
      save: async ({ reason }) => {
        // Compared when its turn comes: a save before it may have stored this very text.
        const trimmed = reason.trim();
        if (trimmed === latest.current.stored.trim()) return;
        await setPositionReason(await editCommandContext(), billId, trimmed);
        onSaved();
      },
      onError: (failure) => {
        latest.current.onFailure(commandFailureMessage(failure, 'save the reason'));
      },
    },
  });
}

/** "Why": the reason for the position, typed, saved as it is typed, with its limit said. */
export function PositionReasonField({
  billId,
  stored,
  onFailure,
}: {
  readonly billId: string;
  /** The reason as stored ('' for none). */
  readonly stored: string;
  readonly onFailure: (message: string) => void;
}) {
  const id = useId();
  const [text, setText] = useReasonFollowingStored(stored);
  const [saved, setSaved] = useState(false);
  const change = (next: string) => {
    setText(next);
    setSaved(false);
  };
  const error = tooLongMessage(text);
  const draft = useReasonAutosave({
    billId,
    text,
    stored,
    ready: error === null,
    onRestore: change,
    onSaved: () => {
      setSaved(true);
    },
    onFailure,
  });

  return (
    <div className="position-reason no-print">
      <DraftOffer draft={draft} what="reason" preview={(fields) => fields.reason} />
      <label htmlFor={`${id}-why`}>Why</label>
      <textarea
        className="text-box"
        id={`${id}-why`}
        // Private words: kept out of the browser's form restore, which writes typed text into the
        // profile's session files (issue 38).
        autoComplete="off"
        value={text}
        rows={3}
        dir="auto"
        aria-invalid={error !== null}
        aria-describedby={`${id}-hint${error === null ? '' : ` ${id}-error`}`}
        onChange={(event) => {
          change(event.currentTarget.value);
        }}
        onBlur={() => {
          void draft.flush();
        }}
      />
      {error !== null && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      <p id={`${id}-hint`} className="field-hint">
        Your reason for this position, in your words: saved as you type, at most{' '}
        {POSITION_REASON_MAX.toLocaleString('en-US')} characters.
      </p>
      <p className="field-hint" role="status">
        {saved && error === null && text.trim() === stored.trim() ? 'Reason saved.' : ''}
      </p>
    </div>
  );
}
