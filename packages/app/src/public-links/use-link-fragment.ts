import { fragmentKeyOf } from '@docket/core/backups';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { forgetHeldLinkKey, heldLinkKey } from './held-link-key.ts';

// The fragment (`#k=…`) of the public link a reader's page shows: the page's own address, or,
// back from the sign-in detour, the key held in this tab (held-link-key.ts), put back into the
// page's address and forgotten.

/** The page of a public link, without its key. */
export function publicLinkPath(id: string): string {
  return `/public-link/${encodeURIComponent(id)}`;
}

/** The fragment of the link `id`'s page: its address's, or the one held while its reader signed in. */
export function useLinkFragment(id: string | undefined): string {
  const location = useLocation();
  // Back from the sign-in detour, the key waits in this tab's session storage (never in an
  // address that is sent): it is put back into this page's own fragment, then forgotten.
  const fromAddress = fragmentKeyOf(location.hash) === null ? null : location.hash;
  // Only while this page is the one shown: Ionic keeps it rendered under the sign-in page, where
  // the address is the sign-in page's, which must never get the key.
  const waiting =
    fromAddress === null && id !== undefined && location.pathname === publicLinkPath(id)
      ? heldLinkKey(id)
      : null;
  const [restored, setRestored] = useState<{ id: string; hash: string } | null>(null);
  const hash =
    fromAddress ?? waiting ?? (restored !== null && restored.id === id ? restored.hash : '');
  if (waiting !== null && id !== undefined && restored?.hash !== waiting) {
    setRestored({ id, hash: waiting });
  }
  useEffect(() => {
    if (waiting === null || id === undefined) return;
    window.history.replaceState(
      window.history.state,
      '',
      `${location.pathname}${location.search}${waiting}`,
    );
    forgetHeldLinkKey(id);
  }, [waiting, id, location.pathname, location.search]);
  return hash;
}
