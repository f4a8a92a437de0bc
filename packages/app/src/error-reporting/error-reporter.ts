import type { BrowserOptions } from '@sentry/react';

/** Identifies the user to the error-reporting and session-recording service (spec §7). */
export interface ErrorReporter {
  identify(email: string | null): void;
}

export const silentErrorReporter: ErrorReporter = { identify: () => undefined };

/**
 * Sentry, only when a DSN is configured. The SDK (with session replay) is loaded on demand so
 * that builds without a DSN do not carry it; calls made meanwhile are applied in order.
 */
export function createErrorReporter(
  dsn: string | undefined,
  environment: string,
  // For tests only: a transport that keeps what would be sent, in place of Sentry's, which sends.
  testOptions: { transport?: BrowserOptions['transport'] } = {},
): ErrorReporter {
  if (!dsn) return silentErrorReporter;
  const sentry = Promise.all([
    import('@sentry/react'),
    import('./secret-scrub.ts'),
    import('./scrubbing-transport.ts'),
  ]).then(
    ([
      Sentry,
      { scrubBreadcrumb, scrubRecordingEvent, withoutAddressSecretsDeep },
      { withoutRecordedLinkKeys },
    ]) => {
      Sentry.init({
        dsn,
        environment,
        // A recording's own events (each holds the page's address) skip beforeAddRecordingEvent.
        transport: withoutRecordedLinkKeys(testOptions.transport ?? Sentry.makeFetchTransport),
        // Bill text and notes are the user's own work: recordings mask text and block media.
        integrations: [
          Sentry.replayIntegration({
            maskAllText: true,
            blockAllMedia: true,
            // A public link's page address holds its key: recordings keep no link key.
            beforeAddRecordingEvent: (event) => scrubRecordingEvent(event),
          }),
          // A replay's report (its list of page addresses, its request) skips beforeSend.
          {
            name: 'DocketReplayScrub',
            processEvent: (event) =>
              event.type === 'replay_event' ? withoutAddressSecretsDeep(event) : event,
          },
        ],
        replaysSessionSampleRate: 0.1,
        replaysOnErrorSampleRate: 1,
        // Query strings can carry a user's API key (LegiScan's) and a link's fragment its key: no
        // address in a report keeps either, wherever it is: the request, an exception, a
        // breadcrumb's data (a console line's arguments), the contexts.
        beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
        beforeSend: (event) => withoutAddressSecretsDeep(event),
      });
      return Sentry;
    },
  );
  sentry.catch((error: unknown) => {
    console.error('[docket] Error reporting could not start:', error);
  });
  return {
    identify(email) {
      sentry
        .then((Sentry) => {
          Sentry.setUser(email === null ? null : { email });
        })
        .catch(() => undefined);
    },
  };
}
