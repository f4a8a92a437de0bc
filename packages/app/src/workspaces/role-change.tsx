import type { WorkspaceRole } from '@docket/protocol/workspaces';
import { IonButton } from '@ionic/react';
import { useId, useRef, useState } from 'react';
import { catchFallingFocus } from '../ui/falling-focus.ts';
import type { WorkspaceAction } from './workspace-outcome.tsx';
import type { WorkspaceService } from './workspace-service.ts';
import { roleWords } from './workspace-words.ts';

const ROLES: readonly WorkspaceRole[] = ['owner', 'editor', 'viewer'];

/**
 * An owner gives a member another role: a choice, then "Change role" (so moving through the
 * choices by keyboard changes nothing). The server keeps at least one confirmed owner and says
 * so when refused. Once the role is changed the button is disabled (the choice is the role now), so
 * focus goes back to the choice rather than falling to the top of the page.
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
  // Nothing picked: the choice shows the role the server holds (after this change or another
  // owner's).
  const [picked, setPicked] = useState<WorkspaceRole | null>(null);
  const chosen = picked ?? role;
  const choice = useRef<HTMLSelectElement>(null);
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
          .then((done) => {
            if (done) {
              setPicked(null);
              catchFallingFocus(() => choice.current);
            }
            onChanged();
          });
      }}
    >
      <label htmlFor={id}>
        Role<span className="visually-hidden"> of {name}</span>
      </label>
      <select
        ref={choice}
        id={id}
        value={chosen}
        onChange={(event) => {
          setPicked(event.target.value as WorkspaceRole);
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
