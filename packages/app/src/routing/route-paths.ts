/** The home route: the empty root path, which opens the tabs (spec §2). */
export const HOME_PATH = '/';
/** Where the home route lands: the first tab. */
export const HOME_TAB_PATH = '/tabs/bills';
export const LOGIN_PATH = '/login';
export const LOGOUT_PATH = '/logout';
export const RETURN_TO_LINK_PARAM = 'returnToLink';

/** The home route and the tab it redirects to are one place for the guard's "go home". */
export function isHomePath(path: string): boolean {
  return path === HOME_PATH || path === '' || path === HOME_TAB_PATH;
}

/** /login with the path (and query) to come back to after sign-in. */
export function loginPathReturningTo(attempted: string): string {
  return `${LOGIN_PATH}?${RETURN_TO_LINK_PARAM}=${encodeURIComponent(attempted)}`;
}
