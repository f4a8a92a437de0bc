/** Identifies the user to the error-reporting and session-recording service (spec §7). */
export interface ErrorReporter {
  identify(email: string | null): void;
}

export const silentErrorReporter: ErrorReporter = { identify: () => undefined };

/**
 * Sentry, only when a DSN is configured. The SDK (with session replay) is loaded on demand so
 * that builds without a DSN do not carry it; calls made meanwhile are applied in order.
 */
export function createErrorReporter(dsn: string | undefined, environment: string): ErrorReporter {
  if (!dsn) return silentErrorReporter;
  const sentry = Promise.all([import('@sentry/react'), import('./secret-scrub.ts')]).then(
    ([Sentry, { scrubBreadcrumb, scrubRecordingEvent, withoutAddressSecrets }]) => {
      Sentry.init({
        dsn,
        environment,
        // Bill text and notes are the user's own work: recordings mask text and block media.
        integrations: [
          Sentry.replayIntegration({
            maskAllText: true,
            blockAllMedia: true,
            // A public link's page address holds its key: recordings keep no link key.
            beforeAddRecordingEvent: (event) => scrubRecordingEvent(event),
          }),
        ],
        replaysSessionSampleRate: 0.1,
        replaysOnErrorSampleRate: 1,
        // Query strings can carry a user's API key (LegiScan's) and a link's fragment its key: no
        // address in a report keeps either.
        beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
        beforeSend: (event) => {
          if (event.request?.url !== undefined) {
            event.request.url = withoutAddressSecrets(event.request.url);
          }
          for (const exception of event.exception?.values ?? []) {
            if (exception.value !== undefined)
              exception.value = withoutAddressSecrets(exception.value);
          }
          if (event.message !== undefined) event.message = withoutAddressSecrets(event.message);
          return event;
        },
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
