import { IonButton } from '@ionic/react';
import type { Tag } from '@docket/core/store';
import { createTag } from '@docket/core/commands';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { useCommand } from '../ui/use-command.ts';
import { TagColourField } from './tag-colour-field.tsx';
import { TagNameField } from './tag-name-field.tsx';
import { suggestTagColour } from './tag-palette.ts';

/** What the "New tag" form holds; the screen keeps it, so that its draft can be restored. */
// A type, not an interface: a draft's fields are a record of strings, which only a type is.
export type NewTagFields = {
  readonly name: string;
  readonly colour: string;
};

/** A fresh form: no name, the least used colour. */
export function freshNewTag(tags: readonly Tag[]): NewTagFields {
  return { name: '', colour: suggestTagColour(tags.map((tag) => tag.color)) };
}

/** The bill-tags screen's "New tag" form: a name, a colour (the least used one to start). */
export function NewTagForm({
  value,
  onChange,
  close,
  onCreated,
}: {
  value: NewTagFields;
  onChange: (value: NewTagFields) => void;
  close: () => void;
  onCreated: (tag: Tag) => void;
}) {
  const { name, colour } = value;
  const setName = (next: string) => {
    onChange({ ...value, name: next });
  };
  const setColour = (next: string) => {
    onChange({ ...value, colour: next });
  };
  const { busy, error, run } = useCommand();
  const save = (typed: string) =>
    run('create the tag', async () => {
      onCreated(await createTag(await editCommandContext(), { name: typed, color: colour }));
    });
  return (
    <form
      className="tag-form"
      noValidate
      aria-label="New tag"
      onSubmit={(event) => {
        event.preventDefault();
        // The name as the field holds it: Enter right after the last key (a fast typist, a slow
        // phone) submits before React has rendered the newest name, and the render's name was
        // the one before ("Hou" for "Housing", in a clean-clone run under load).
        const field = event.currentTarget.querySelector<HTMLInputElement>('ion-input input');
        save(field?.value ?? name).catch(() => undefined);
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
