import {
  IonButton,
  IonButtons,
  IonContent,
  IonHeader,
  IonSpinner,
  IonTitle,
  IonToolbar,
} from '@ionic/react';
import type { Tag } from '@docket/core/store';
import { createTag } from '@docket/core/commands';
import { useState } from 'react';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { useCommand } from '../ui/use-command.ts';
import { TagNameField } from './tag-name-field.tsx';
import { suggestTagColour } from './tag-palette.ts';
import { useTags } from '../local-store/live-tags.ts';
import './tags.css';
import { FormError } from '../ui/form-error.tsx';
import { IonModal } from '../ui/ionic/ion-modal.ts';

export interface TagPickerModalProps {
  readonly isOpen: boolean;
  /** The dialog's heading, e.g. "Add a tag to 3 bills". */
  readonly title: string;
  /** Closing without a choice (Close, Escape, the backdrop). */
  readonly onDismiss: () => void;
  /**
   * A tag was chosen, or made and chosen. The modal stays open while this runs and shows what it
   * throws; the caller closes it (isOpen false) once it is done.
   */
  readonly onPick: (tag: Tag) => void | Promise<void>;
  /** Tags not offered, e.g. those the bill already has. */
  readonly excludeTagIds?: readonly string[];
}

/** Choose one of the user's tags, or make a new one in place and choose it. */
export function TagPickerModal(props: TagPickerModalProps) {
  return (
    <IonModal
      // Ionic names its inner dialog element only from aria-label, and copies it once, when the
      // modal is made: a new title (say, a new count of bills) makes a new modal.
      key={props.title}
      isOpen={props.isOpen}
      onDidDismiss={props.onDismiss}
      htmlAttributes={{ 'aria-label': props.title }}
    >
      <IonHeader>
        <IonToolbar>
          <IonTitle>
            <h2 className="tag-picker-title">{props.title}</h2>
          </IonTitle>
          <IonButtons slot="end">
            <IonButton onClick={props.onDismiss}>Close</IonButton>
          </IonButtons>
        </IonToolbar>
      </IonHeader>
      {/* Mounted only while open, so every opening starts with a clean form. */}
      {props.isOpen && <TagPickerBody {...props} />}
    </IonModal>
  );
}

function TagPickerBody({ onPick, excludeTagIds }: TagPickerModalProps) {
  const tags = useTags();
  // Choosing a tag fails in the dialog's alert; making one fails under its name field.
  const choosing = useCommand();
  const making = useCommand();
  const busy = choosing.busy || making.busy;
  const failure = choosing.error;
  const nameError = making.error;
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const excluded = new Set(excludeTagIds ?? []);
  const offered = (tags ?? []).filter((tag) => !excluded.has(tag.id));

  const pick = (tag: Tag) =>
    choosing.run('use the tag', async () => {
      await onPick(tag);
    });

  const save = () => {
    choosing.setError(null);
    return making.run('create the tag', async () => {
      const made = await createTag(await editCommandContext(), {
        name,
        color: suggestTagColour((tags ?? []).map((existing) => existing.color)),
      });
      setCreating(false);
      setName('');
      await pick(made);
    });
  };

  return (
    <IonContent className="ion-padding">
      {tags === undefined ? (
        <p role="status">Loading tags…</p>
      ) : offered.length === 0 ? (
        <p>{tags.length === 0 ? 'No tags yet. Make the first one.' : 'No other tags yet.'}</p>
      ) : (
        <ul className="tag-choices" aria-label="Tags">
          {offered.map((tag) => (
            <li key={tag.id}>
              <button
                type="button"
                className="tag-choice"
                disabled={busy}
                onClick={() => {
                  pick(tag).catch(() => undefined);
                }}
              >
                <span className="tag-swatch" style={{ background: tag.color }} aria-hidden="true" />
                <span className="tag-name" dir="auto">
                  {tag.name}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {creating ? (
        <form
          className="tag-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save().catch(() => undefined);
          }}
        >
          <TagNameField value={name} error={nameError} autoFocus onChange={setName} />
          <div className="tag-actions">
            <IonButton type="submit" disabled={busy}>
              {busy ? <IonSpinner name="dots" aria-hidden="true" /> : null}
              Save
            </IonButton>
            <IonButton
              fill="outline"
              disabled={busy}
              onClick={() => {
                setCreating(false);
                making.setError(null);
              }}
            >
              Cancel
            </IonButton>
          </div>
        </form>
      ) : (
        <div className="tag-actions">
          <IonButton
            fill="outline"
            disabled={busy}
            onClick={() => {
              setCreating(true);
            }}
          >
            New tag
          </IonButton>
        </div>
      )}
      <FormError message={failure} />
    </IonContent>
  );
}
