import { IonButton } from '@ionic/react';
import type { Tag } from '@docket/core/store';
import { NewTagForm, type NewTagFields } from './new-tag-form.tsx';

/** The bill-tags screen's "New tag", or the form it opens (the screen keeps the fields, as a draft). */
export function NewTagPanel({
  isOpen,
  value,
  onChange,
  onOpen,
  onClose,
  onCreated,
}: {
  readonly isOpen: boolean;
  readonly value: NewTagFields;
  readonly onChange: (value: NewTagFields) => void;
  readonly onOpen: () => void;
  readonly onClose: () => void;
  readonly onCreated: (tag: Tag) => void;
}) {
  return isOpen ? (
    <NewTagForm value={value} onChange={onChange} close={onClose} onCreated={onCreated} />
  ) : (
    <div className="tag-actions">
      <IonButton
        onClick={() => {
          onOpen();
        }}
      >
        New tag
      </IonButton>
    </div>
  );
}
