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
 * Text without link keys, its other addresses left whole. Safe on JSON text: a key ends at a
 * quote or a backslash, so the text stays valid JSON (address queries are not touched, since a
 * query can end in an escaped quote, as a recorded stylesheet's `url(\"…?…\")` does).
 */
export function withoutLinkKeys(text: string): string {
  return text.replace(LINK_KEY, '#k=…').replace(ENCODED_LINK_KEY, '%23k%3D…');
}

/** Whether the text holds a link key, plainly or percent-encoded. */
export function hasLinkKey(text: string): boolean {
  return /#k=|%23k%3D/i.test(text);
}

/**
 * A session recording's event without link keys: its page address, navigations and any
 * attribute that held one. Events without one are given back as they are.
 */
export function scrubRecordingEvent<T>(event: T): T {
  const json = JSON.stringify(event);
  if (!hasLinkKey(json)) return event;
  return JSON.parse(withoutLinkKeys(json)) as T;
}

/**
 * The value with address secrets taken out of every string in it, however deep in its arrays
 * and plain objects (a console breadcrumb's arguments, a report's request and contexts, a
 * replay's list of addresses). Other objects are given back as they are: Sentry turns them into
 * plain data before `beforeSend`, where this runs again.
 */
export function withoutAddressSecretsDeep<T>(value: T): T {
  return scrubbedValue(value, 0) as T;
}

const DEEPEST = 40;

function scrubbedValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return withoutAddressSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any report goes: a cycle, kept out rather than followed.
  if (depth > DEEPEST) return '[…]';
  if (Array.isArray(value)) return value.map((item) => scrubbedValue(item, depth + 1));
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      withoutAddressSecrets(name),
      scrubbedValue(item, depth + 1),
    ]),
  );
}

interface Scrubbable {
  message?: string | undefined;
  data?: Record<string, unknown> | undefined;
}

/** A breadcrumb (or anything with a message and data) without address secrets in either. */
export function scrubBreadcrumb<T extends Scrubbable>(crumb: T): T {
  return {
    ...crumb,
    ...(crumb.message === undefined ? {} : { message: withoutAddressSecrets(crumb.message) }),
    ...(crumb.data === undefined ? {} : { data: withoutAddressSecretsDeep(crumb.data) }),
  };
}
