import { IonBackButton, IonBadge, IonButtons, IonHeader, IonTitle, IonToolbar } from '@ionic/react';
import { useAppState } from '../state/use-app-state.ts';

export interface PageHeaderProps {
  readonly title: string;
  /** Where the back button leads when there is no history to go back to. */
  readonly backHref?: string;
}

/** The toolbar every page shows: its title and the app's connection (and later sync) state. */
export function PageHeader({ title, backHref }: PageHeaderProps) {
  const online = useAppState((state) => state.online);
  return (
    <IonHeader>
      <IonToolbar>
        {backHref !== undefined && (
          <IonButtons slot="start">
            <IonBackButton defaultHref={backHref} />
          </IonButtons>
        )}
        <IonTitle>{title}</IonTitle>
        {/* The sync state joins the offline flag in this slot once sync exists. */}
        <IonButtons slot="end" className="page-status">
          {!online && (
            <IonBadge color="warning" role="status">
              Offline
            </IonBadge>
          )}
        </IonButtons>
      </IonToolbar>
    </IonHeader>
  );
}
