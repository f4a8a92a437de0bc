import type { Invitation } from '@docket/protocol/workspaces';
import { IonButton } from '@ionic/react';
import { useCallback, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageBody } from '../layout/page-body.tsx';
import { activeWorkspaceId } from '../local-store/account-databases.ts';
import { enterSpace } from '../local-store/enter-space.ts';
import { takeSpaceGone } from '../local-store/forget-spaces.ts';
import { PageHeader } from '../layout/page-header.tsx';
import { FormError } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useReading, type Reading } from '../workspaces/use-reading.ts';
import { useWorkspaceService } from '../workspaces/use-workspace-service.ts';
import { WorkspaceNotice } from '../workspaces/workspace-notice.tsx';
import {
  Outcome,
  useWorkspaceAction,
  type WorkspaceAction,
} from '../workspaces/workspace-outcome.tsx';
import type { WorkspaceService, WorkspaceView } from '../workspaces/workspace-service.ts';
import {
  failureMessage,
  roleWords,
  WAITING_FOR_OWNER,
  workspacePath,
} from '../workspaces/workspace-words.ts';
import { MyFingerprint, WaitingWords } from '../workspaces/workspace-standing.tsx';
import '../workspaces/workspaces.css';

export { WORKSPACES_PATH } from '../workspaces/workspace-words.ts';

/** Where a page entering another space loads: the Bills deck, in that space. */
const BILLS_PATH = '/tabs/bills';

/**
 * /tabs/more/workspaces: my fingerprint, a new workspace, the workspaces I belong to and the
 * invitations to my address (issue 39). Needs the cloud keys on this device: the member key
 * pair is wrapped under them.
 */
export function WorkspacesScreen() {
  const access = useWorkspaceService();
  // Said once, after the page left a workspace the account no longer has (forget-spaces.ts).
  const [gone] = useState(takeSpaceGone);
  return (
    <>
      <PageHeader title="Workspaces" backHref="/tabs/more" />
      <PageBody>
        <h1>Workspaces</h1>
        {gone !== null && (
          <p className="workspace-notice" role="status">
            {gone}
          </p>
        )}
        {access.status === 'ready' ? (
          <WorkspacesPanel service={access.service} />
        ) : (
          <WorkspaceNotice access={access} />
        )}
      </PageBody>
    </>
  );
}

export function WorkspacesPanel({ service }: { readonly service: WorkspaceService }) {
  const list = useReading(useCallback(() => service.list(), [service]));
  const invitations = useReading(useCallback(() => service.invitations(), [service]));
  const action = useWorkspaceAction();
  return (
    <>
      <MyFingerprint service={service} />
      <NewWorkspaceSection service={service} action={action} onMade={list.reload} />
      <Outcome said={action.said} />
      <YourWorkspaces service={service} list={list.reading} action={action} />
      <InvitationsSection
        service={service}
        invitations={invitations}
        action={action}
        onAccepted={list.reload}
      />
    </>
  );
}

/** "New workspace": a name, then the workspace made with this account as its owner. */
function NewWorkspaceSection({
  service,
  action,
  onMade,
}: {
  readonly service: WorkspaceService;
  readonly action: WorkspaceAction;
  readonly onMade: () => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const { busy, setSaid, run } = action;
  return (
    <section aria-labelledby={id} className="workspace-section">
      <h2 id={id}>New workspace</h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const chosen = name.trim();
          if (chosen === '') {
            setSaid({ kind: 'error', text: 'Give the workspace a name.' });
            return;
          }
          void run('Creating the workspace', async () => {
            const made = await service.create(chosen);
            setName('');
            onMade();
            return `Workspace “${made.name ?? chosen}” created. Invite its members from its page.`;
          });
        }}
      >
        <TextField
          label="Name"
          value={name}
          maxlength={200}
          autocomplete="off"
          onChange={setName}
        />
        <div className="screen-actions">
          <IonButton type="submit" disabled={busy}>
            New workspace
          </IonButton>
        </div>
      </form>
    </section>
  );
}

/** "Your workspaces": each with its role, and a way into its space (or back to the personal one). */
function YourWorkspaces({
  service,
  list,
  action,
}: {
  readonly service: WorkspaceService;
  readonly list: Reading<WorkspaceView[]>;
  readonly action: WorkspaceAction;
}) {
  const id = useId();
  const { busy, run } = action;
  const current = activeWorkspaceId();
  // Another space is another database: the page loads again on the Bills deck, in that space.
  const openSpace = (workspace: WorkspaceView | null, what: string) => {
    void run(what, async () => {
      await enterSpace(service.userId, workspace?.id ?? null, workspace?.role ?? null);
      window.location.assign(BILLS_PATH);
      return workspace === null ? 'Opening your personal space…' : 'Opening the workspace…';
    });
  };
  return (
    <section aria-labelledby={id} className="workspace-section">
      <h2 id={id}>Your workspaces</h2>
      {current !== null && (
        <div className="screen-actions">
          <IonButton
            fill="outline"
            disabled={busy}
            onClick={() => {
              openSpace(null, 'Opening your personal space');
            }}
          >
            Open personal space
          </IonButton>
        </div>
      )}
      {list.kind === 'reading' && <p role="status">Reading your workspaces…</p>}
      {list.kind === 'failed' && (
        <FormError message={failureMessage('Reading your workspaces', list.error)} />
      )}
      {list.kind === 'read' &&
        (list.value.length === 0 ? (
          <p>You belong to no workspace yet. Make one, or accept an invitation.</p>
        ) : (
          <ul className="workspace-list" aria-labelledby={id}>
            {list.value.map((workspace) => (
              <WorkspaceItem
                key={workspace.id}
                workspace={workspace}
                current={workspace.id === current}
                busy={busy}
                onOpen={() => {
                  openSpace(workspace, 'Opening the workspace');
                }}
              />
            ))}
          </ul>
        ))}
    </section>
  );
}

/** What a workspace waiting for a confirmation is called until its name can be opened. */
function waitingName(workspace: WorkspaceView): string {
  return workspace.role === 'owner' ? 'A workspace you own' : 'A workspace you accepted';
}

/** One of my workspaces: its name (or why it cannot be read), my role, and "Open workspace". */
function WorkspaceItem({
  workspace,
  current,
  busy,
  onOpen,
}: {
  readonly workspace: WorkspaceView;
  /** The page works in this workspace's space. */
  readonly current: boolean;
  readonly busy: boolean;
  readonly onOpen: () => void;
}) {
  return (
    <li>
      <Link to={workspacePath(workspace.id)} dir="auto">
        {workspace.name ??
          (workspace.waiting ? waitingName(workspace) : 'A workspace (name sealed)')}
      </Link>
      <span className="workspace-muted"> · {roleWords[workspace.role]}</span>
      <WaitingWords workspace={workspace} />
      {!workspace.waiting && workspace.name === null && (
        <p className="workspace-muted">Its name was sealed under a key you were not given.</p>
      )}
      {!workspace.waiting &&
        (current ? (
          <p className="workspace-muted">You are working in this workspace.</p>
        ) : (
          <div className="screen-actions">
            <IonButton disabled={busy} onClick={onOpen}>
              Open workspace
              <span className="visually-hidden" dir="auto">
                {' '}
                {workspace.name ?? ''}
              </span>
            </IonButton>
          </div>
        ))}
    </li>
  );
}

/** "Invitations" to my address: Accept or Decline each. */
function InvitationsSection({
  service,
  invitations,
  action,
  onAccepted,
}: {
  readonly service: WorkspaceService;
  readonly invitations: { readonly reading: Reading<Invitation[]>; readonly reload: () => void };
  readonly action: WorkspaceAction;
  readonly onAccepted: () => void;
}) {
  const id = useId();
  const { busy, run } = action;
  return (
    <section aria-labelledby={id} className="workspace-section">
      <h2 id={id}>Invitations</h2>
      {invitations.reading.kind === 'reading' && <p role="status">Reading invitations…</p>}
      {invitations.reading.kind === 'failed' && (
        <FormError message={failureMessage('Reading invitations', invitations.reading.error)} />
      )}
      {invitations.reading.kind === 'read' &&
        (invitations.reading.value.length === 0 ? (
          <p>No invitations.</p>
        ) : (
          <ul className="workspace-list" aria-labelledby={id}>
            {invitations.reading.value.map((invitation) => {
              const from =
                invitation.invitedBy === null
                  ? 'Someone'
                  : invitation.invitedBy.name.trim() === ''
                    ? invitation.invitedBy.email
                    : `${invitation.invitedBy.name} (${invitation.invitedBy.email})`;
              return (
                <li key={invitation.workspaceId}>
                  <p dir="auto">
                    {from} invited you as {roleWords[invitation.role].toLowerCase()}.
                  </p>
                  <div className="screen-actions">
                    <IonButton
                      disabled={busy}
                      onClick={() => {
                        void run('Accepting the invitation', async () => {
                          await service.accept(invitation.workspaceId);
                          invitations.reload();
                          onAccepted();
                          return `You accepted ${from}’s invitation. ${WAITING_FOR_OWNER}.`;
                        });
                      }}
                    >
                      Accept
                    </IonButton>
                    <IonButton
                      fill="outline"
                      disabled={busy}
                      onClick={() => {
                        void run('Declining the invitation', async () => {
                          await service.decline(invitation.workspaceId);
                          invitations.reload();
                          return `You declined ${from}’s invitation.`;
                        });
                      }}
                    >
                      Decline
                    </IonButton>
                  </div>
                </li>
              );
            })}
          </ul>
        ))}
    </section>
  );
}
