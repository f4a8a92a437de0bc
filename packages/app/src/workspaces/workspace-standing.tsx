import { useCallback, useId } from 'react';
import { FormError } from '../ui/form-error.tsx';
import { useReading } from './use-reading.ts';
import { ActionButton, type WorkspaceAction } from './workspace-outcome.tsx';
import type { WorkspaceService, WorkspaceView } from './workspace-service.ts';
import {
  failureMessage,
  KEY_REPLACED,
  WAITING_FOR_EDITOR,
  WAITING_FOR_OWNER,
} from './workspace-words.ts';

// Where I stand, as the workspace screens say it: my key's fingerprint (new after a reset),
// waiting for someone to confirm me, keeping the workspace for an owner whose reset replaced
// their key, or owing it a new key after a member left.

/** Who confirms me next: an owner, or an editor where I was an owner and none holds the key. */
export function WaitingWords({ workspace }: { readonly workspace: WorkspaceView }) {
  if (!workspace.waiting) return null;
  return (
    <p className="workspace-muted">
      {workspace.role === 'owner' && workspace.ownerWaiting
        ? WAITING_FOR_EDITOR
        : WAITING_FOR_OWNER}
      .
    </p>
  );
}

/** No owner holds the key (each one's reset replaced it): a confirmed editor confirms one back. */
export function keepsForOwner(workspace: WorkspaceView): boolean {
  return workspace.role === 'editor' && workspace.ownerWaiting && !workspace.waiting;
}

export function KeeperNote() {
  return (
    <p className="workspace-notice" role="note">
      No owner holds this workspace’s key: its owner reset their cloud password, which gave them a
      new key. Compare their new fingerprint with them and confirm them, so they can manage the
      workspace again.
    </p>
  );
}

/** A member who held the key left: an owner makes the next key, for those who stay. */
export function RotationDueNotice({
  service,
  workspaceId,
  action,
  onChanged,
}: {
  readonly service: WorkspaceService;
  readonly workspaceId: string;
  readonly action: WorkspaceAction;
  readonly onChanged: () => void;
}) {
  return (
    <div className="workspace-notice" role="note">
      <p>
        A member who held this workspace’s key left. Make a new key, sealed to each confirmed member
        who stays, so nothing written from now on opens with the old one.
      </p>
      <ActionButton
        action={action}
        fill="outline"
        what="Making a new key"
        work={async () => {
          await service.rotate(workspaceId);
          return 'The workspace has a new key, sealed to each confirmed member.';
        }}
        after={(done) => {
          if (done) onChanged();
        }}
      >
        Make a new key
      </ActionButton>
    </div>
  );
}

/** "Your fingerprint": the six words an owner compares, and, on the device that made a new key after a reset, why it is new. */
export function MyFingerprint({ service }: { readonly service: WorkspaceService }) {
  const id = useId();
  const fingerprint = useReading(useCallback(() => service.myFingerprint(), [service]));
  return (
    <section aria-labelledby={id} className="workspace-section">
      <h2 id={id}>Your fingerprint</h2>
      {fingerprint.reading.kind === 'reading' && <p role="status">Reading your key…</p>}
      {fingerprint.reading.kind === 'failed' && (
        <FormError message={failureMessage('Reading your key', fingerprint.reading.error)} />
      )}
      {fingerprint.reading.kind === 'read' && (
        <>
          <dl className="workspace-fingerprint">
            <dt>Fingerprint</dt>
            <dd>{fingerprint.reading.value}</dd>
          </dl>
          <p className="workspace-muted">
            When an owner confirms you, they see six words for your key. Read these to them: if any
            word differs, the key they were given is not yours.
          </p>
          {service.keyReplacedHere() && (
            <p className="workspace-notice" role="note">
              {KEY_REPLACED}
            </p>
          )}
        </>
      )}
    </section>
  );
}
