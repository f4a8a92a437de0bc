import { IonButton } from '@ionic/react';
import { lazy, Suspense } from 'react';
import { activeAccountHasSpaces, activeWorkspaceId } from '../local-store/account-databases.ts';
import { useAppState } from '../state/use-app-state.ts';
import { PERSONAL_SPACE, TEAM_SPACE, WORKSPACES_PATH } from './workspace-words.ts';

// The header's space switcher (issue 39): it names the space this page works in, the personal
// one or a team workspace's, and leads to the Workspaces screen, where another is chosen. Shown
// once the account has entered a workspace on this device; an account that never did sees the
// header as before. Loaded after the first paint (layout/page-header.tsx), so the first screens'
// script stays within its budget. A workspace's name is sealed: it is opened by space-name.tsx,
// loaded in turn, and the button says "Team workspace" until then, or when it cannot be opened
// (offline, no cloud password on this device).

const SpaceName = lazy(() => import('./space-name.tsx'));

export default function SpaceSwitcher() {
  const signedIn = useAppState((state) => state.user !== null);
  if (!signedIn) return null;
  const workspaceId = activeWorkspaceId();
  if (workspaceId === null && !activeAccountHasSpaces()) return null;
  return (
    <IonButton routerLink={WORKSPACES_PATH} fill="clear" size="small" className="space-switcher">
      {workspaceId === null ? (
        <SpaceLabel name={PERSONAL_SPACE} />
      ) : (
        <Suspense fallback={<SpaceLabel name={TEAM_SPACE} />}>
          <SpaceName workspaceId={workspaceId} />
        </Suspense>
      )}
    </IonButton>
  );
}

/**
 * The space's name, then (for a screen reader) what the control is for. A screen reader reads the
 * hidden words alone, the name first: two spans read in turn are joined with a space by the
 * browser ("Health team : the space…"), since a visually hidden span lies outside the line.
 */
export function SpaceLabel({ name }: { readonly name: string }) {
  return (
    <>
      <span dir="auto" aria-hidden="true">
        {name}
      </span>
      <span className="visually-hidden">{`${name}: the space you work in. Change space`}</span>
    </>
  );
}
