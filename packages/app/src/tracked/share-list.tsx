import type { BillListQuery } from '@docket/core/lists';
import type { Tag } from '@docket/core/store';
import { IonButton } from '@ionic/react';
import { lazy, Suspense, useRef, useState } from 'react';
import { focusControl } from '../ui/falling-focus.ts';

// "Share" on the Tracked tab (PRODUCT.md: "shares what the list shows"), in three taps: Share,
// then "Create link" on the sheet that says what goes in, then "Share link" (the platform's share
// sheet) or "Copy link". The sheet and all it needs (backup keys, the user-data worker, sealing)
// load the first time it opens, not with the tab.

const ShareListSheet = lazy(() =>
  import('./share-list-sheet.tsx').then((module) => ({ default: module.ShareListSheet })),
);

export interface ShareListProps {
  readonly query: BillListQuery;
  /** How many bills the list shows. */
  readonly total: number;
  /** Every bill id the list shows, in its order. */
  readonly allIds: () => Promise<string[]>;
  readonly tags: readonly Tag[];
  /** The name of the person of the sponsor filter, when known. */
  readonly sponsorName: string | null | undefined;
}

export function ShareList(props: ShareListProps) {
  const [open, setOpen] = useState(false);
  // Asked for once: the sheet stays mounted (closed) after, so it opens at once the next time.
  const [wanted, setWanted] = useState(false);
  const button = useRef<HTMLIonButtonElement>(null);
  return (
    <>
      <IonButton
        ref={button}
        fill="outline"
        size="small"
        aria-haspopup="dialog"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        Share
      </IonButton>
      {wanted && (
        <Suspense fallback={null}>
          <ShareListSheet
            {...props}
            isOpen={open}
            onClose={() => {
              setOpen(false);
              // Back where the person was: the sheet's Close took the focus with it.
              focusControl(button.current);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
