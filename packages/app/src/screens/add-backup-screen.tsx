import { IonButton, useIonRouter } from '@ionic/react';
import { useEffect, useId, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useAppServices } from '../services/app-services.ts';
import { createBackup, renameBackup, type OpenedBackup } from '../backups/backup-actions.ts';
import { BackupKeyNotice } from '../backups/backup-key-notice.tsx';
import { useBackupKeys, type BackupKeys } from '../backups/backup-keys.ts';
import '../backups/backups.css';
import { useOpenedBackup } from '../backups/use-opened-backup.ts';
import { TextField } from '../ui/text-field.tsx';
import { useUnsavedChangesGuard } from '../ui/use-unsaved-changes-guard.ts';
import { DraftOffer } from '../drafts/draft-offer.tsx';
import { useFormDraft } from '../drafts/use-form-draft.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useStatusToast } from '../toasts/status-toast.ts';

const BACK_HREF = '/tabs/backups';
const NAME_MAX = 200;
const DESCRIPTION_MAX = 5000;

/** /add-backup makes a backup; /add-backup/:id changes the name and description of one. */
export function AddBackupScreen() {
  const { id } = useParams();
  const keys = useBackupKeys();
  const opened = useOpenedBackup(id, keys);
  const title = id === undefined ? 'New backup' : 'Rename backup';
  if (keys.status !== 'ready') {
    return (
      <>
        <PageHeader title={title} backHref={BACK_HREF} />
        <PageBody>
          <h1>{title}</h1>
          <BackupKeyNotice keys={keys} />
        </PageBody>
      </>
    );
  }
  if (id !== undefined && opened.status !== 'open') {
    return (
      <>
        <PageHeader title={title} backHref={BACK_HREF} />
        <PageBody>
          <h1>{title}</h1>
          {opened.status === 'loading' ? (
            <p role="status">Opening the backup…</p>
          ) : (
            <p className="backup-error" role="alert">
              {opened.message}
            </p>
          )}
        </PageBody>
      </>
    );
  }
  return (
    <BackupForm
      key={id ?? 'new'}
      title={title}
      keys={keys}
      backup={opened.status === 'open' ? opened.backup : null}
    />
  );
}

/**
 * The backup form's use case: its fields (kept as a draft while typed, guarded on leaving), and
 * Save, which makes the backup or renames it, then goes back to the list.
 */
function useBackupForm(
  keys: Extract<BackupKeys, { status: 'ready' }>,
  backup: OpenedBackup | null,
) {
  const { api } = useAppServices();
  const ionRouter = useIonRouter();
  const toast = useStatusToast();
  const initial = {
    name: backup?.metadata.name ?? '',
    description: backup?.metadata.description ?? '',
  };
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description);
  const [phase, setPhase] = useState<'editing' | 'saving' | 'saved'>('editing');
  const [error, setError] = useState<string | null>(null);
  const dirty = phase !== 'saved' && (name !== initial.name || description !== initial.description);
  // Kept on this device as it is typed; saving or leaving lets it go.
  const draft = useFormDraft({
    form: 'backup',
    scope: backup?.summary.id ?? 'new',
    fields: { name, description },
    dirty,
    onRestore: (fields) => {
      setName(fields.name);
      setDescription(fields.description);
    },
  });
  useUnsavedChangesGuard(
    dirty,
    () => {
      setName(initial.name);
      setDescription(initial.description);
      draft.clear();
    },
    'The changes you made to this backup will be lost.',
  );

  useEffect(() => {
    // Only once the guard has seen the form clean, so it lets this navigation through.
    if (phase === 'saved') ionRouter.push(BACK_HREF, 'back', 'pop');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase]);

  const save = async () => {
    const trimmed = name.trim();
    if (trimmed === '') {
      setError('Enter a name for the backup.');
      return;
    }
    setError(null);
    setPhase('saving');
    try {
      const account = { api, userId: keys.userId, keys: keys.keys };
      await (backup === null
        ? createBackup({ ...account, name: trimmed, description })
        : renameBackup({ ...account, backup, name: trimmed, description }));
      draft.clear();
      // Said as a polite status: the form goes back to the list, which a screen reader does not
      // read out by itself.
      toast.done(`Backup “${trimmed}” saved.`);
      setPhase('saved');
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The backup was not saved.');
      setPhase('editing');
    }
  };

  return { name, setName, description, setDescription, phase, error, draft, save };
}

function BackupForm({
  title,
  keys,
  backup,
}: {
  readonly title: string;
  readonly keys: Extract<BackupKeys, { status: 'ready' }>;
  readonly backup: OpenedBackup | null;
}) {
  const ids = useId();
  const { name, setName, description, setDescription, phase, error, draft, save } = useBackupForm(
    keys,
    backup,
  );
  const errorId = `${ids}-error`;
  return (
    <>
      <PageHeader title={title} backHref={BACK_HREF} />
      <PageBody>
        <h1>{title}</h1>
        {backup === null && (
          <p>
            The backup holds your tags, positions, triage, annotations and dataset definitions, with
            the bills they refer to. It is encrypted on this device before it is uploaded; its name
            and description are encrypted too.
          </p>
        )}
        <DraftOffer
          draft={draft}
          what="backup"
          preview={(fields) => [fields.name, fields.description].filter(Boolean).join(' · ')}
        />
        <form
          className="backup-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save().catch((failure: unknown) => {
              console.error('Could not save the backup', failure);
            });
          }}
        >
          <TextField
            label="Name"
            value={name}
            maxlength={NAME_MAX}
            autocomplete="off"
            aria-describedby={error === null ? undefined : errorId}
            onChange={setName}
          />
          <DescriptionField value={description} onChange={setDescription} />
          {error !== null && (
            <p id={errorId} className="backup-error" role="alert">
              {error}
            </p>
          )}
          <p role="status" aria-live="polite">
            {phase === 'saving'
              ? backup === null
                ? 'Encrypting and uploading the backup…'
                : 'Saving…'
              : ''}
          </p>
          <div className="screen-actions">
            <IonButton type="submit" disabled={phase !== 'editing'}>
              Save
            </IonButton>
          </div>
        </form>
      </PageBody>
    </>
  );
}

/** "Description": a few lines of the person's own words, in any direction. */
function DescriptionField({
  value,
  onChange,
}: {
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="backup-field">
      <label htmlFor={id}>Description</label>
      <textarea
        id={id}
        value={value}
        rows={4}
        dir="auto"
        autoComplete="off"
        maxLength={DESCRIPTION_MAX}
        onChange={(event) => {
          onChange(event.currentTarget.value);
        }}
      />
    </div>
  );
}
