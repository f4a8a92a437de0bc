import { useIonViewWillEnter } from '@ionic/react';
import { useCallback, useEffect, useRef, useState } from 'react';

// A value read from the server when a screen opens, read again on `reload()` and each time the
// page is entered again (Ionic keeps a visited page mounted: a list left for a workspace's page
// would otherwise show what it read before). A reading in flight when the screen leaves (or a
// newer reading starts) is dropped.

export type Reading<T> =
  | { readonly kind: 'reading' }
  | { readonly kind: 'read'; readonly value: T }
  | { readonly kind: 'failed'; readonly error: unknown };

export function useReading<T>(read: (() => Promise<T>) | null): {
  reading: Reading<T>;
  reload: () => void;
} {
  const [round, setRound] = useState(0);
  const [reading, setReading] = useState<Reading<T>>({ kind: 'reading' });
  useEffect(() => {
    if (read === null) return;
    let current = true;
    read().then(
      (value) => {
        if (current) setReading({ kind: 'read', value });
      },
      (error: unknown) => {
        if (current) setReading({ kind: 'failed', error });
      },
    );
    return () => {
      current = false;
    };
  }, [read, round]);
  const reload = useCallback(() => {
    setRound((n) => n + 1);
  }, []);
  const entered = useRef(false);
  useIonViewWillEnter(() => {
    // The first entry is the mount's reading.
    if (entered.current) reload();
    entered.current = true;
  });
  return { reading, reload };
}
