import { IonButton } from '@ionic/react';
import { useEffect, useRef, type RefObject } from 'react';
import { catchFallingFocus, focusControl } from '../ui/falling-focus.ts';
import { RoleChange } from './role-change.tsx';
import { ActionButton, type WorkspaceAction } from './workspace-outcome.tsx';
import type { MemberView, WorkspaceService } from './workspace-service.ts';
import { keyCheckWords, memberStatusWords, roleWords } from './workspace-words.ts';

// One member on a workspace's Members list: who, their role and state, and what an owner can do
// about them: change the role, confirm them after comparing fingerprints, remove them.

/** What a member's row needs of its workspace to act on the member. */
interface MemberContext {
  readonly service: WorkspaceService;
  readonly workspaceId: string;
  readonly action: WorkspaceAction;
  readonly onChanged: () => void;
}

/** The member's name and address, or the address alone when they gave no name. */
function memberName(member: MemberView): string {
  const name = member.displayName?.trim() ?? '';
  return name === '' ? member.email : `${name} (${member.email})`;
}

/**
 * Focus follows the Confirm panel: into it when Confirm opens it (the button that opened it is
 * gone), and back to Confirm when Cancel closes it.
 */
function useFocusFollowsPanel(open: boolean) {
  const panel = useRef<HTMLDivElement>(null);
  const confirmButton = useRef<HTMLIonButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) panel.current?.focus();
    else if (wasOpen.current) focusControl(confirmButton.current);
    wasOpen.current = open;
  }, [open]);
  return { panel, confirmButton };
}

/** What can be done to another member while their Confirm panel is closed. */
function MemberActions({
  member,
  name,
  again,
  keeper,
  confirmButton,
  onConfirming,
  ...context
}: MemberContext & {
  readonly member: MemberView;
  readonly name: string;
  /** Whether the member is confirmed but their key needs confirming again. */
  readonly again: boolean;
  readonly keeper: boolean;
  readonly confirmButton: RefObject<HTMLIonButtonElement | null>;
  readonly onConfirming: (open: boolean) => void;
}) {
  const { service, workspaceId, action, onChanged } = context;
  return (
    <>
      {member.userId !== null && !keeper && (
        <RoleChange
          service={service}
          workspaceId={workspaceId}
          userId={member.userId}
          name={name}
          role={member.role}
          action={action}
          onChanged={onChanged}
        />
      )}
      <div className="screen-actions">
        {(member.status === 'accepted' || again) && (
          <IonButton
            ref={confirmButton}
            disabled={action.busy}
            onClick={() => {
              onConfirming(true);
            }}
          >
            {again ? 'Confirm again' : 'Confirm'}
          </IonButton>
        )}
        {!keeper && (
          <RemoveMember
            service={service}
            workspaceId={workspaceId}
            member={member}
            name={name}
            action={action}
            onChanged={onChanged}
          />
        )}
      </div>
    </>
  );
}

/** One member: who, their role and state, and (not for me) Confirm and Remove member. */
export function MemberRow({
  member,
  confirming,
  onConfirming,
  keeper,
  ...context
}: MemberContext & {
  readonly member: MemberView;
  /** Whether this member's Confirm panel is open. */
  readonly confirming: boolean;
  readonly onConfirming: (open: boolean) => void;
  /** Confirm only: an editor keeping the workspace manages no roles and removes nobody. */
  readonly keeper: boolean;
}) {
  const name = memberName(member);
  const again = member.keyCheck !== null && member.keyCheck !== 'matches';
  const open = confirming && (member.status === 'accepted' || again);
  const { panel, confirmButton } = useFocusFollowsPanel(open);
  const row = useRef<HTMLLIElement>(null);
  return (
    <li ref={row}>
      <p dir="auto">
        <strong>{name}</strong>
        {member.isMe ? ' (you)' : ''}
      </p>
      <p className="workspace-muted">
        {roleWords[member.role]} · {memberStatusWords[member.status]}
      </p>
      {again && <p className="workspace-warning">{keyCheckWords[member.keyCheck]}</p>}
      {open ? (
        <ConfirmPanel
          panel={panel}
          member={member}
          name={name}
          again={again}
          service={context.service}
          workspaceId={context.workspaceId}
          action={context.action}
          onDone={(done) => {
            if (done) {
              onConfirming(false);
              // Confirm goes away once the member is confirmed: focus stays on their row.
              catchFallingFocus(() => row.current);
            }
            context.onChanged();
          }}
          onCancel={() => {
            onConfirming(false);
          }}
        />
      ) : (
        !member.isMe && (
          <MemberActions
            member={member}
            name={name}
            again={again}
            keeper={keeper}
            confirmButton={confirmButton}
            onConfirming={onConfirming}
            {...context}
          />
        )
      )}
    </li>
  );
}

/** A member's Confirm panel: the fingerprint to compare, then "The words match: confirm" or Cancel. */
function ConfirmPanel({
  panel,
  member,
  name,
  again,
  service,
  workspaceId,
  action,
  onDone,
  onCancel,
}: {
  readonly panel: RefObject<HTMLDivElement | null>;
  readonly member: MemberView;
  readonly name: string;
  /** A confirmed member whose key I hold no matching record of: only my record is kept again. */
  readonly again: boolean;
  readonly service: WorkspaceService;
  readonly workspaceId: string;
  readonly action: WorkspaceAction;
  readonly onDone: (done: boolean) => void;
  readonly onCancel: () => void;
}) {
  return (
    <div
      ref={panel}
      tabIndex={-1}
      className="workspace-confirm"
      role="group"
      aria-label={`Confirm ${member.email}`}
    >
      <FingerprintToCompare member={member} name={name} />
      <div className="screen-actions">
        {member.fingerprint !== null && (
          <ActionButton
            action={action}
            what="Confirming the member"
            work={async () => {
              if (again) {
                await service.confirmAgain(workspaceId, member);
                return `${name}’s key is confirmed again: a new key can be sealed to them.`;
              }
              await service.confirm(workspaceId, member);
              return `${name} is confirmed: the workspace key is sealed to them.`;
            }}
            after={onDone}
          >
            The words match: confirm
          </ActionButton>
        )}
        <IonButton fill="outline" onClick={onCancel}>
          Cancel
        </IonButton>
      </div>
    </div>
  );
}

/** "Remove member": a confirmed one with the key rotated; an invitation withdrawn. */
function RemoveMember({
  service,
  workspaceId,
  member,
  name,
  action,
  onChanged,
}: {
  readonly service: WorkspaceService;
  readonly workspaceId: string;
  readonly member: MemberView;
  readonly name: string;
  readonly action: WorkspaceAction;
  readonly onChanged: () => void;
}) {
  return (
    <ActionButton
      action={action}
      color="danger"
      fill="outline"
      what="Removing the member"
      work={async () => {
        if (member.userId === null) {
          await service.withdraw(workspaceId, member.email);
          return `The invitation to ${name} is withdrawn.`;
        }
        await service.remove(workspaceId, member.userId);
        return member.status === 'confirmed'
          ? `${name} is removed; the workspace has a new key they do not hold.`
          : `${name} is removed.`;
      }}
      after={onChanged}
    >
      Remove member
    </ActionButton>
  );
}

function FingerprintToCompare({
  member,
  name,
}: {
  readonly member: MemberView;
  readonly name: string;
}) {
  if (member.fingerprint === null) {
    return <p>The server lists no usable key for this member: they cannot be confirmed.</p>;
  }
  return (
    <>
      <dl className="workspace-fingerprint">
        <dt>Fingerprint</dt>
        <dd>{member.fingerprint}</dd>
      </dl>
      <p>
        Ask {name} to read you “Your fingerprint” from their Workspaces screen, in person or on a
        call. Confirm only if every word is the same: other words mean the key is not theirs.
      </p>
    </>
  );
}
