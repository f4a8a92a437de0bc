// Query strings can carry a user's API key (LegiScan's API takes it as `key=`), so nothing this
// app reports or records keeps one: every web address in a report's text loses its query.

const URL_WITH_QUERY = /(https?:\/\/[^\s?#"'<>]+)\?[^\s#"'<>]*/gi;

/** The text with every http(s) address's query string taken out. */
export function withoutQueryStrings(text: string): string {
  return text.replace(URL_WITH_QUERY, '$1?…');
}

interface Scrubbable {
  message?: string | undefined;
  data?: Record<string, unknown> | undefined;
}

/** A breadcrumb (or anything with a message and data) without query strings in either. */
export function scrubBreadcrumb<T extends Scrubbable>(crumb: T): T {
  const data =
    crumb.data === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(crumb.data).map(([name, value]) => [
            name,
            typeof value === 'string' ? withoutQueryStrings(value) : value,
          ]),
        );
  return {
    ...crumb,
    ...(crumb.message === undefined ? {} : { message: withoutQueryStrings(crumb.message) }),
    ...(data === undefined ? {} : { data }),
  };
}
