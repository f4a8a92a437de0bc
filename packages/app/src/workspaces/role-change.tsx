import type { WorkspaceRole } from '@docket/protocol/workspaces';
import { IonButton } from '@ionic/react';
import { useId, useState } from 'react';
import type { WorkspaceAction } from './workspace-outcome.tsx';
import type { WorkspaceService } from './workspace-service.ts';
import { roleWords } from './workspace-words.ts';

const ROLES: readonly WorkspaceRole[] = ['owner', 'editor', 'viewer'];

/**
 * An owner gives a member another role: a choice, then "Change role" (so moving through the
 * choices by keyboard changes nothing). The server keeps at least one confirmed owner and says
 * so when refused.
 */
export function RoleChange({
  service,
  workspaceId,
  userId,
  name,
  role,
  action,
  onChanged,
}: {
  readonly service: WorkspaceService;
  readonly workspaceId: string;
  readonly userId: string;
  /** How the member is named on the screen, for the label and what is said. */
  readonly name: string;
  readonly role: WorkspaceRole;
  readonly action: WorkspaceAction;
  readonly onChanged: () => void;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<WorkspaceRole>(role);
  return (
    <form
      className="workspace-role-change"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen === role) return;
        void action
          .run('Changing the role', async () => {
            await service.changeRole(workspaceId, userId, chosen);
            return `${name} is now ${roleWords[chosen].toLowerCase()}.`;
          })
          .then(onChanged);
      }}
    >
      <label htmlFor={id}>
        Role<span className="visually-hidden"> of {name}</span>
      </label>
      <select
        id={id}
        value={chosen}
        onChange={(event) => {
          setChosen(event.target.value as WorkspaceRole);
        }}
      >
        {ROLES.map((choice) => (
          <option key={choice} value={choice}>
            {roleWords[choice]}
          </option>
        ))}
      </select>
      <IonButton type="submit" fill="outline" disabled={action.busy || chosen === role}>
        Change role
      </IonButton>
    </form>
  );
}
