import { IonContent } from '@ionic/react';
import type { ReactNode } from 'react';

/** The scrolling content of a page, kept to a readable width on wide screens. */
export function PageBody({ children }: { readonly children: ReactNode }) {
  return (
    <IonContent className="ion-padding">
      <div className="page-body">{children}</div>
    </IonContent>
  );
}
