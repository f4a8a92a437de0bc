import { IonBadge } from '@ionic/react';
import { useTeamActivity } from '../local-store/live-activity.ts';
import { useAppState } from '../state/use-app-state.ts';
import { plural } from '../ui/formatting.ts';

/**
 * The More tab button's count of teammates' changes not yet seen, said in words to screen
 * readers; nothing in the personal space. Loaded after the first
 * paint, and only in a workspace's space (tabs-screen.tsx), as the Tracked tab's "What changed"
 * badge is.
 */
export default function UnseenActivityBadge() {
  const userId = useAppState((state) => state.user?.id ?? null);
  const unseen = useTeamActivity(userId)?.unseen ?? 0;
  if (unseen === 0) return null;
  return (
    <>
      <IonBadge aria-hidden="true" className="unseen-badge">
        {unseen}
      </IonBadge>
      <span className="visually-hidden">{plural(unseen, 'change')} by teammates not yet seen</span>
    </>
  );
}
