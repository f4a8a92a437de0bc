// Query strings can carry a user's API key (LegiScan's API takes it as `key=`), and a public
// link's address carries the link's key in its fragment (`#k=…`, issue 38): nothing this app
// reports or records keeps either. Every web address in a report's text loses its query, and
// every link key its value, written plainly or percent-encoded, in a full address or a path (a
// navigation breadcrumb's "/public-link/…#k=…").

const URL_WITH_QUERY = /(https?:\/\/[^\s?#"'<>]+)\?[^\s#"'<>]*/gi;
const LINK_KEY = /#k=[^\s"'<>\\]*/g;
const ENCODED_LINK_KEY = /%23k%3D[^\s"'<>&\\]*/gi;

/** The text with every http(s) address's query string and every link key taken out. */
export function withoutAddressSecrets(text: string): string {
  return text
    .replace(URL_WITH_QUERY, '$1?…')
    .replace(LINK_KEY, '#k=…')
    .replace(ENCODED_LINK_KEY, '%23k%3D…');
}

/**
 * A session recording's event without link keys: its page address, navigations and any
 * attribute that held one. Events without one are given back as they are.
 */
export function scrubRecordingEvent<T>(event: T): T {
  const json = JSON.stringify(event);
  if (!/#k=|%23k%3D/i.test(json)) return event;
  return JSON.parse(withoutAddressSecrets(json)) as T;
}

interface Scrubbable {
  message?: string | undefined;
  data?: Record<string, unknown> | undefined;
}

/** A breadcrumb (or anything with a message and data) without address secrets in either. */
export function scrubBreadcrumb<T extends Scrubbable>(crumb: T): T {
  const data =
    crumb.data === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(crumb.data).map(([name, value]) => [
            name,
            typeof value === 'string' ? withoutAddressSecrets(value) : value,
          ]),
        );
  return {
    ...crumb,
    ...(crumb.message === undefined ? {} : { message: withoutAddressSecrets(crumb.message) }),
    ...(data === undefined ? {} : { data }),
  };
}
