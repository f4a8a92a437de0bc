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

/**
 * Choosing a tag and making one in place. Two commands: choosing fails in the dialog's alert,
 * making fails under its name field.
 */
function useTagPicker(onPick: TagPickerModalProps['onPick'], tags: readonly Tag[] | undefined) {
  const choosing = useCommand();
  const making = useCommand();
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');

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

  const cancel = () => {
    setCreating(false);
    making.setError(null);
  };

  return {
    busy: choosing.busy || making.busy,
    failure: choosing.error,
    nameError: making.error,
    creating,
    setCreating,
    name,
    setName,
    pick,
    save,
    cancel,
  };
}

/** The tags on offer, each a button that chooses it. */
function TagChoices({
  tags,
  offered,
  busy,
  onChoose,
}: {
  /** Every tag; undefined while read. */
  readonly tags: readonly Tag[] | undefined;
  /** The tags not excluded. */
  readonly offered: readonly Tag[];
  readonly busy: boolean;
  readonly onChoose: (tag: Tag) => void;
}) {
  if (tags === undefined) return <p role="status">Loading tags…</p>;
  if (offered.length === 0) {
    return <p>{tags.length === 0 ? 'No tags yet. Make the first one.' : 'No other tags yet.'}</p>;
  }
  return (
    <ul className="tag-choices" aria-label="Tags">
      {offered.map((tag) => (
        <li key={tag.id}>
          <button
            type="button"
            className="tag-choice"
            disabled={busy}
            onClick={() => {
              onChoose(tag);
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
  );
}

/** A new tag's name, saved and chosen at once, or Cancel. */
function NewTagInPlace({
  name,
  nameError,
  busy,
  onName,
  onSave,
  onCancel,
}: {
  readonly name: string;
  readonly nameError: string | null;
  readonly busy: boolean;
  readonly onName: (name: string) => void;
  readonly onSave: () => void;
  readonly onCancel: () => void;
}) {
  return (
    <form
      className="tag-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      <TagNameField value={name} error={nameError} autoFocus onChange={onName} />
      <div className="tag-actions">
        <IonButton type="submit" disabled={busy}>
          {busy ? <IonSpinner name="dots" aria-hidden="true" /> : null}
          Save
        </IonButton>
        <IonButton
          fill="outline"
          disabled={busy}
          onClick={() => {
            onCancel();
          }}
        >
          Cancel
        </IonButton>
      </div>
    </form>
  );
}

function TagPickerBody({ onPick, excludeTagIds }: TagPickerModalProps) {
  const tags = useTags();
  const picker = useTagPicker(onPick, tags);
  const excluded = new Set(excludeTagIds ?? []);
  const offered = (tags ?? []).filter((tag) => !excluded.has(tag.id));

  return (
    <IonContent className="ion-padding">
      <TagChoices
        tags={tags}
        offered={offered}
        busy={picker.busy}
        onChoose={(tag) => {
          picker.pick(tag).catch(() => undefined);
        }}
      />
      {picker.creating ? (
        <NewTagInPlace
          name={picker.name}
          nameError={picker.nameError}
          busy={picker.busy}
          onName={picker.setName}
          onSave={() => {
            picker.save().catch(() => undefined);
          }}
          onCancel={picker.cancel}
        />
      ) : (
        <div className="tag-actions">
          <IonButton
            fill="outline"
            disabled={picker.busy}
            onClick={() => {
              picker.setCreating(true);
            }}
          >
            New tag
          </IonButton>
        </div>
      )}
      <FormError message={picker.failure} />
    </IonContent>
  );
}
