import { IonButton } from '@ionic/react';
import type { FormDraftFields } from '@docket/core/device';
import { useId } from 'react';
import type { FormDraft } from './use-form-draft.ts';
import './drafts.css';

const PREVIEW_LIMIT = 160;

function timeOf(date: Date): string {
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })
    : date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * "Restore your unsaved note?" with Restore and Discard, shown while a draft from before waits.
 * `what` names the form's thing ("note", "dataset"); `preview` shows what the draft says.
 */
export function DraftOffer<F extends FormDraftFields>({
  draft,
  what,
  preview,
  hint,
}: {
  readonly draft: FormDraft<F>;
  readonly what: string;
  readonly preview?: (fields: F) => string;
  /** What the draft does not hold ("Picked files are not kept: pick them again."). */
  readonly hint?: string;
}) {
  const ids = useId();
  const offered = draft.offered;
  if (offered === null) return null;
  const shown = preview?.(offered.fields).trim() ?? '';
  return (
    <div className="draft-offer" role="group" aria-labelledby={`${ids}-question`}>
      <p id={`${ids}-question`} className="draft-offer-question">
        Restore your unsaved {what}?
      </p>
      <p className="draft-offer-when">
        Kept on this device at {timeOf(offered.savedAt)}.{hint === undefined ? '' : ` ${hint}`}
      </p>
      {shown !== '' && (
        <blockquote className="draft-offer-preview" dir="auto">
          {shown.length > PREVIEW_LIMIT ? `${shown.slice(0, PREVIEW_LIMIT)}…` : shown}
        </blockquote>
      )}
      <div className="draft-offer-actions">
        <IonButton size="small" onClick={draft.restore}>
          Restore
        </IonButton>
        <IonButton size="small" fill="outline" onClick={draft.discard}>
          Discard
        </IonButton>
      </div>
    </div>
  );
}
