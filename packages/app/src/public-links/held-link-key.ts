// A public link's key while its reader signs in (PRODUCT.md, Public links; issue 38). The key is
// the page address's fragment, which the browser never sends. The detour through sign-in must
// not put it anywhere that is sent: the sign-in page's address, the sign-up's callbackURL (which
// the server logs and mails). So "Sign in to import" leaves with the link's id only and the key
// waits in this tab's session storage (gone with the tab, never shared with other tabs or
// sent) until the link's page is back and puts it into its own fragment again.

const PREFIX = 'docket:link-key:';

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // A browser that refuses storage (some private modes): the reader opens the link again.
    return null;
  }
}

/** Keeps a link's fragment (`#k=…`) for this tab until the link's page takes it back. */
export function holdLinkKey(linkId: string, fragment: string): void {
  if (fragment === '' || fragment === '#') return;
  try {
    storage()?.setItem(`${PREFIX}${linkId}`, fragment.startsWith('#') ? fragment : `#${fragment}`);
  } catch {
    // A full or refused storage: the detour then ends on "This link has no key", which says why.
  }
}

/** The fragment held for a link; null when none is held. */
export function heldLinkKey(linkId: string): string | null {
  return storage()?.getItem(`${PREFIX}${linkId}`) ?? null;
}

/** Forgets the fragment held for a link, once the page has it back in its own address. */
export function forgetHeldLinkKey(linkId: string): void {
  storage()?.removeItem(`${PREFIX}${linkId}`);
}
