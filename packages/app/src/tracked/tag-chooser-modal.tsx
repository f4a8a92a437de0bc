import {
  IonButton,
  IonButtons,
  IonContent,
  IonHeader,
  IonInput,
  IonModal,
  IonTitle,
  IonToolbar,
} from '@ionic/react';
import { useState, type CSSProperties } from 'react';
import type { Tag } from '@docket/core/local-records';

// Chooses the tag for "Tag selected": one of the user's tags, or a new one named here. The
// screen does the tagging; this only says which tag (or which new name) the user picked.

export type TagChoice = { readonly tagId: string } | { readonly newName: string };

export interface TagChooserModalProps {
  readonly isOpen: boolean;
  readonly count: number;
  readonly tags: readonly Tag[];
  readonly busy: boolean;
  /** A command's refusal (say, a duplicate name), shown in the modal. */
  readonly error: string | null;
  readonly onChoose: (choice: TagChoice) => void;
  readonly onClose: () => void;
}

export function TagChooserModal({
  isOpen,
  count,
  tags,
  busy,
  error,
  onChoose,
  onClose,
}: TagChooserModalProps) {
  const [name, setName] = useState('');
  const heading = count === 1 ? 'Tag 1 bill' : `Tag ${count} bills`;
  return (
    <IonModal
      isOpen={isOpen}
      onDidDismiss={() => {
        setName('');
        onClose();
      }}
      aria-labelledby="tag-chooser-title"
    >
      <IonHeader>
        <IonToolbar>
          <IonTitle id="tag-chooser-title">{heading}</IonTitle>
          <IonButtons slot="end">
            <IonButton onClick={onClose}>Close</IonButton>
          </IonButtons>
        </IonToolbar>
      </IonHeader>
      <IonContent className="ion-padding">
        <div className="tag-chooser">
          {tags.length > 0 && (
            <section aria-labelledby="tag-chooser-existing">
              <h2 id="tag-chooser-existing">Your tags</h2>
              <ul className="tag-chooser-list">
                {tags.map((tag) => (
                  <li key={tag.id}>
                    <button
                      type="button"
                      className="tag-chip tag-chip-button"
                      style={{ '--tag-colour': tag.color } as CSSProperties}
                      disabled={busy}
                      onClick={() => {
                        onChoose({ tagId: tag.id });
                      }}
                    >
                      {tag.name}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <form
            aria-labelledby="tag-chooser-new"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              onChoose({ newName: name });
            }}
          >
            <h2 id="tag-chooser-new">New tag</h2>
            <IonInput
              label="Tag name"
              labelPlacement="stacked"
              fill="outline"
              value={name}
              maxlength={100}
              autocomplete="off"
              onIonInput={(event) => {
                setName(event.detail.value ?? '');
              }}
            />
            {error !== null && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
            <IonButton type="submit" disabled={busy}>
              Save
            </IonButton>
          </form>
        </div>
      </IonContent>
    </IonModal>
  );
}
