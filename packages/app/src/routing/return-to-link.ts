import { HOME_PATH, LOGIN_PATH, LOGOUT_PATH, RETURN_TO_LINK_PARAM } from './route-paths.ts';

// Any origin will do: it only tells whether a path would leave the app's own origin.
const PROBE_ORIGIN = 'https://docket.invalid';

/**
 * The in-app path a returnToLink value may lead to, or null when it must be refused: only a
 * same-origin path that starts with a single '/' is accepted, never '//host', '/\host', a
 * scheme such as 'https:' or 'javascript:', or a path that would sign the user out or leave
 * the app for the API. A fragment is dropped.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // Control characters and whitespace are stripped by URL parsers, so they could hide a host.
  if (/[\p{Cc}\s]/u.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  if (url.pathname === LOGOUT_PATH || url.pathname === '/api' || url.pathname.startsWith('/api/')) {
    return null;
  }
  // Never a fragment: a public link's key lives there (issue 38), and a return path travels in
  // addresses that are sent (the sign-in page's, a sign-up's callbackURL).
  return `${url.pathname}${url.search}`;
}

/** The decoded returnToLink of a query string ('?a=b'), if it is safe to follow. */
export function returnPathFromSearch(search: string): string | null {
  return safeReturnPath(new URLSearchParams(search).get(RETURN_TO_LINK_PARAM));
}

/**
 * Where a page that must reload to enter the account just signed in (it kept another account's
 * database open) loads again: on the sign-in page, where that sign-in was going (its
 * returnToLink, or home), since the reload cuts off the form's own navigation; elsewhere, the
 * same address.
 */
export function addressAfterAccountReload(location: { pathname: string; search: string }): string {
  if (location.pathname !== LOGIN_PATH) return `${location.pathname}${location.search}`;
  return returnPathFromSearch(location.search) ?? HOME_PATH;
}
