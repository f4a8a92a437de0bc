import { IonButton } from '@ionic/react';
import type { LinkChoices } from '@docket/core/backups';
import { useId } from 'react';
import { expiryChoices, expiryOf, type LinkDraft, type PublishLink } from './use-publish-link.ts';

// The backup-link screen's form for a new link: when it expires, what it shares, whether its key
// stays on this device; then "Create link" and what it did (use-publish-link.ts does it).

/** What the sharer may let into a link, each with what it means. */
const linkChoiceFields: readonly {
  readonly key: keyof LinkChoices;
  readonly label: string;
  readonly hint: string;
}[] = [
  {
    key: 'dismissedBills',
    label: 'Dismissed bills',
    hint: 'Bills you dismissed, with their tags, positions and notes.',
  },
  {
    key: 'decisions',
    label: 'Decisions',
    hint: 'Whether each bill is Tracked, Later or Dismissed.',
  },
  { key: 'notes', label: 'Notes', hint: 'Your highlights and notes on the bills’ text.' },
];

function ExpiryField({ draft }: { readonly draft: LinkDraft }) {
  const id = useId();
  return (
    <div className="backup-field">
      <label htmlFor={`${id}-expiry`}>Expires</label>
      <select
        id={`${id}-expiry`}
        value={draft.expiry}
        onChange={(event) => {
          const value = expiryOf(event.currentTarget.value);
          if (value !== undefined) draft.setExpiry(value);
        }}
      >
        {expiryChoices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function LinkChoicesField({ draft }: { readonly draft: LinkDraft }) {
  const ids = useId();
  return (
    <fieldset className="backup-choices">
      <legend>What the link shares</legend>
      <p className="backup-hint">
        Always the bills you kept: tracked, set aside for later, tagged or given a position, with
        their tags, and their positions with your reasons. Also:
      </p>
      {linkChoiceFields.map((field) => (
        <div key={field.key} className="backup-choice">
          <input
            id={`${ids}-${field.key}`}
            type="checkbox"
            checked={draft.choices[field.key]}
            aria-describedby={`${ids}-${field.key}-hint`}
            onChange={(event) => {
              draft.setChoice(field.key, event.currentTarget.checked);
            }}
          />
          <label htmlFor={`${ids}-${field.key}`}>{field.label}</label>
          <p id={`${ids}-${field.key}-hint`} className="backup-hint">
            {field.hint}
          </p>
        </div>
      ))}
    </fieldset>
  );
}

function KeepLinkChoice({ draft }: { readonly draft: LinkDraft }) {
  const id = useId();
  return (
    <div className="backup-choice">
      <input
        id={`${id}-keep`}
        type="checkbox"
        checked={draft.keepLink}
        aria-describedby={`${id}-keep-hint`}
        onChange={(event) => {
          draft.setKeepLink(event.currentTarget.checked);
        }}
      />
      <label htmlFor={`${id}-keep`}>Keep this link on this device</label>
      <p id={`${id}-keep-hint`} className="backup-hint">
        Its key is kept locked with your work here, so you can copy the link again later. Otherwise
        copy it now: once you leave this screen it cannot be copied again here.
      </p>
    </div>
  );
}

/** The choices for a new link, "Create link", and what it did or why it could not. */
export function PublishLinkForm({ publish }: { readonly publish: PublishLink }) {
  const { draft, busy, status, error } = publish;
  return (
    <>
      <ExpiryField draft={draft} />
      <LinkChoicesField draft={draft} />
      <p aria-live="polite">The link will hold {draft.holds}.</p>
      <KeepLinkChoice draft={draft} />
      <div className="screen-actions">
        <IonButton disabled={busy} onClick={publish.create}>
          Create link
        </IonButton>
      </div>
      <p role="status" aria-live="polite">
        {busy ? 'Encrypting and uploading…' : status}
      </p>
      {error !== null && (
        <p className="backup-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
