import { IonButton } from '@ionic/react';
import type { Tag } from '@docket/core/local-records';
import { createTag } from '@docket/core/tag-commands';
import { useState } from 'react';
import { billCommandContext } from '../bills/bill-command-services.ts';
import { commandFailureMessage } from './command-failure.ts';
import { TagColourField } from './tag-colour-field.tsx';
import { TagNameField } from './tag-name-field.tsx';
import { suggestTagColour } from './tag-palette.ts';

/** The bill-tags screen's "New tag" form: a name, a colour (the least used one to start). */
export function NewTagForm({
  tags,
  close,
  onCreated,
}: {
  tags: readonly Tag[];
  close: () => void;
  onCreated: (tag: Tag) => void;
}) {
  const [name, setName] = useState('');
  const [colour, setColour] = useState(() => suggestTagColour(tags.map((tag) => tag.color)));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      onCreated(await createTag(await billCommandContext(), { name, color: colour }));
    } catch (failure) {
      setError(commandFailureMessage(failure, 'create the tag'));
      setBusy(false);
    }
  };
  return (
    <form
      className="tag-form"
      noValidate
      aria-label="New tag"
      onSubmit={(event) => {
        event.preventDefault();
        save().catch(() => undefined);
      }}
    >
      <TagNameField value={name} error={error} autoFocus onChange={setName} />
      <TagColourField legend="Colour" value={colour} onChange={setColour} />
      <div className="tag-actions">
        <IonButton type="submit" disabled={busy}>
          Save
        </IonButton>
        <IonButton fill="outline" disabled={busy} onClick={close}>
          Cancel
        </IonButton>
      </div>
    </form>
  );
}
