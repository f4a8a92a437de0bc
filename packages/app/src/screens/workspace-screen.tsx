import type { WorkspaceRole } from '@docket/protocol/workspaces';
import { IonButton, useIonRouter } from '@ionic/react';
import { useCallback, useId, useState } from 'react';
import { useParams } from 'react-router-dom';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { FormError } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useReading } from '../workspaces/use-reading.ts';
import { useWorkspaceService } from '../workspaces/use-workspace-service.ts';
import { MemberRow } from '../workspaces/member-row.tsx';
import { WorkspaceNotice } from '../workspaces/workspace-notice.tsx';
import {
  ActionButton,
  Outcome,
  useWorkspaceAction,
  type WorkspaceAction,
} from '../workspaces/workspace-outcome.tsx';
import {
  leaveGoneSpace,
  type WorkspaceService,
  type WorkspaceView,
} from '../workspaces/workspace-service.ts';
import { failureMessage, roleWords } from '../workspaces/workspace-words.ts';
import {
  KeeperNote,
  keepsForOwner,
  RotationDueNotice,
  WaitingWords,
} from '../workspaces/workspace-standing.tsx';
import '../workspaces/workspaces.css';
import { WORKSPACES_PATH } from './workspaces-screen.tsx';
import { useAlert } from '../ui/lazy-overlays.ts';
import { activeWorkspaceId } from '../local-store/account-databases.ts';

const ROLES: readonly WorkspaceRole[] = ['owner', 'editor', 'viewer'];

/**
 * /tabs/more/workspaces/:workspaceId: one workspace. An owner sees its members, invites, confirms
 * an accepted member after comparing fingerprints, and removes members; anyone else sees their
 * role and can leave.
 */
export function WorkspaceScreen() {
  const { workspaceId = '' } = useParams();
  const access = useWorkspaceService();
  const service = access.status === 'ready' ? access.service : null;
  const list = useReading(
    useCallback(() => (service === null ? Promise.resolve([]) : service.list()), [service]),
  );
  const workspace =
    list.reading.kind === 'read'
      ? (list.reading.value.find((candidate) => candidate.id === workspaceId) ?? null)
      : undefined;
  const title = workspace?.name ?? 'Workspace';
  return (
    <>
      <PageHeader title={title} backHref={WORKSPACES_PATH} />
      <PageBody>
        <h1 dir="auto">{title}</h1>
        {service === null ? (
          <WorkspaceNotice access={access} />
        ) : list.reading.kind === 'reading' ? (
          <p role="status">Reading the workspace…</p>
        ) : list.reading.kind === 'failed' ? (
          <FormError message={failureMessage('Reading the workspace', list.reading.error)} />
        ) : workspace === null || workspace === undefined ? (
          <p>You are not a member of this workspace, or it no longer exists.</p>
        ) : (
          <WorkspacePanel service={service} workspace={workspace} onChanged={list.reload} />
        )}
      </PageBody>
    </>
  );
}

export function WorkspacePanel({
  service,
  workspace,
  onChanged,
}: {
  readonly service: WorkspaceService;
  readonly workspace: WorkspaceView;
  readonly onChanged: () => void;
}) {
  const ids = useId();
  const ionRouter = useIonRouter();
  const action = useWorkspaceAction();
  const owner = workspace.role === 'owner' && !workspace.waiting;
  const keeper = keepsForOwner(workspace);
  return (
    <>
      <p>
        Your role: <strong>{roleWords[workspace.role]}</strong>.
      </p>
      <WaitingWords workspace={workspace} />
      {keeper && <KeeperNote />}
      {owner && workspace.rotationDue && (
        <RotationDueNotice
          service={service}
          workspaceId={workspace.id}
          action={action}
          onChanged={onChanged}
        />
      )}
      {/* Near the top, so what an action came to is seen at a phone's size without scrolling. */}
      <Outcome said={action.said} />
      {owner || keeper ? (
        <MembersSection
          service={service}
          workspaceId={workspace.id}
          action={action}
          keeper={keeper}
        />
      ) : null}
      <InviteSection service={service} workspaceId={workspace.id} owner={owner} action={action} />
      {owner && <DeleteSection service={service} workspace={workspace} action={action} />}
      {!owner && (
        <section aria-labelledby={`${ids}-leave`} className="workspace-section">
          <h2 id={`${ids}-leave`}>Leave</h2>
          <p>Leaving takes this workspace off your list; an owner can invite you again.</p>
          <ActionButton
            action={action}
            color="danger"
            fill="outline"
            what="Leaving the workspace"
            work={async () => {
              await service.leave(workspace.id);
              return 'You left the workspace.';
            }}
            after={(left) => {
              if (!left) return;
              onChanged();
              ionRouter.push(WORKSPACES_PATH, 'back', 'pop');
            }}
          >
            Leave workspace
          </ActionButton>
        </section>
      )}
    </>
  );
}

/**
 * An owner deletes the workspace for every member, after a question that names it: the server
 * forgets its log, keys and members; each member's copy leaves their device at their next
 * reading of the list, and this page leaves the workspace's space if it works in it.
 */
function DeleteSection({
  service,
  workspace,
  action,
}: {
  readonly service: WorkspaceService;
  readonly workspace: WorkspaceView;
  readonly action: WorkspaceAction;
}) {
  const ids = useId();
  const ionRouter = useIonRouter();
  const [presentAlert] = useAlert();
  const remove = () => {
    void action
      .run('Deleting the workspace', async () => {
        await service.deleteWorkspace(workspace.id);
        return `${workspace.name} is deleted.`;
      })
      .then(async (done) => {
        if (!done) return;
        if (activeWorkspaceId() === workspace.id) {
          await leaveGoneSpace(service.userId, 'deleted');
          return;
        }
        // The list's next reading forgets its copy on this device.
        ionRouter.push(WORKSPACES_PATH, 'back', 'pop');
      });
  };
  return (
    <section aria-labelledby={`${ids}-delete`} className="workspace-section">
      <h2 id={`${ids}-delete`}>Delete</h2>
      <p>
        Deleting the workspace deletes its bills’ tags, positions and notes for every member, and
        each member’s copy on their devices. Nothing of it can be brought back.
      </p>
      <IonButton
        color="danger"
        fill="outline"
        disabled={action.busy}
        onClick={() => {
          void presentAlert({
            header: 'Delete workspace?',
            message: `${workspace.name} and everything its members wrote in it will be deleted, for every member.`,
            buttons: [
              { text: 'Cancel', role: 'cancel' },
              { text: 'Delete workspace', role: 'destructive', handler: remove },
            ],
          });
        }}
      >
        Delete workspace
      </IonButton>
    </section>
  );
}

function InviteSection({
  service,
  workspaceId,
  owner,
  action,
}: {
  readonly service: WorkspaceService;
  readonly workspaceId: string;
  readonly owner: boolean;
  readonly action: WorkspaceAction;
}) {
  const ids = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('editor');
  return (
    <section aria-labelledby={`${ids}-invite`} className="workspace-section">
      <h2 id={`${ids}-invite`}>Invite</h2>
      {!owner && (
        <p className="workspace-muted">Only an owner can invite; the server refuses anyone else.</p>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const address = email.trim();
          if (!/^[^\s@]+@[^\s@]+$/.test(address)) {
            action.setSaid({ kind: 'error', text: 'Enter the e-mail address to invite.' });
            return;
          }
          void action.run('The invitation', async () => {
            await service.invite(workspaceId, address, role);
            setEmail('');
            return `${address} is invited as ${roleWords[role].toLowerCase()}. Once they accept, confirm them here.`;
          });
        }}
      >
        <TextField
          label="Email"
          type="email"
          value={email}
          autocomplete="off"
          inputmode="email"
          onChange={setEmail}
        />
        <fieldset className="workspace-roles">
          <legend>Role</legend>
          {ROLES.map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name={`${ids}-role`}
                value={choice}
                checked={role === choice}
                onChange={() => {
                  setRole(choice);
                }}
              />
              {roleWords[choice]}
            </label>
          ))}
        </fieldset>
        <div className="screen-actions">
          <IonButton type="submit" disabled={action.busy}>
            Invite
          </IonButton>
        </div>
      </form>
    </section>
  );
}

function MembersSection({
  service,
  workspaceId,
  action,
  keeper,
}: {
  readonly service: WorkspaceService;
  readonly workspaceId: string;
  readonly action: WorkspaceAction;
  /** An editor while no owner holds the key: the owners waiting, to confirm back, and no more. */
  readonly keeper: boolean;
}) {
  const ids = useId();
  const members = useReading(
    useCallback(() => service.members(workspaceId), [service, workspaceId]),
  );
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <section aria-labelledby={`${ids}-members`} className="workspace-section">
      <h2 id={`${ids}-members`}>Members</h2>
      {members.reading.kind === 'reading' && <p role="status">Reading the members…</p>}
      {members.reading.kind === 'failed' && (
        <FormError message={failureMessage('Reading the members', members.reading.error)} />
      )}
      {members.reading.kind === 'read' && (
        <ul className="workspace-list" aria-labelledby={`${ids}-members`}>
          {members.reading.value.members
            .filter((member) => !keeper || (member.role === 'owner' && member.userId !== null))
            .map((member) => {
              const key = member.userId ?? member.email;
              return (
                <MemberRow
                  key={key}
                  member={member}
                  confirming={confirming === key}
                  onConfirming={(open) => {
                    setConfirming(open ? key : null);
                  }}
                  service={service}
                  workspaceId={workspaceId}
                  action={action}
                  onChanged={members.reload}
                  keeper={keeper}
                />
              );
            })}
        </ul>
      )}
    </section>
  );
}
