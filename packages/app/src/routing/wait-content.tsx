import { IonContent, IonSpinner } from '@ionic/react';

/**
 * A page's content while it waits: for the access guard's decision, or for a screen's code to
 * arrive. A spinner with a status a screen reader announces ('Loading' unless told what).
 */
export function WaitContent({ message = null }: { readonly message?: string | null }) {
  return (
    <IonContent>
      <div className="guard-wait" role="status">
        <IonSpinner aria-hidden="true" name="crescent" color="primary" />
        {message === null ? <span className="visually-hidden">Loading</span> : <p>{message}</p>}
      </div>
    </IonContent>
  );
}
