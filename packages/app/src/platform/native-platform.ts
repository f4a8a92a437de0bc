import { nativeAlerts } from './native-alerts.ts';
import { nativeFileSharing } from './native-file-sharing.ts';
import { nativeSourceFetch } from './native-source-fetch.ts';
import type { KeyValueStore, Platform } from './platform.ts';
import { preferencesKeyValueStore } from './preferences-key-value-store.ts';

/** Where the native shells keep the bearer token (the stored auth record lives under 'auth'). */
const BEARER_TOKEN_KEY = 'auth-token';

/**
 * The iOS and Android shells: persistent sign-in with a bearer token kept in Preferences, and
 * a server at VITE_DOCKET_SERVER_URL since the shell's own origin serves only the bundle, and
 * files and links handed to the system share sheet, alerts through Local Notifications, and
 * sources fetched by the shell's own HTTP, which no site's CORS policy stops.
 */
export function createNativePlatform(
  kind: 'ios' | 'android',
  serverUrl: string | undefined,
  store: KeyValueStore = preferencesKeyValueStore,
) {
  if (!serverUrl) {
    throw new Error('VITE_DOCKET_SERVER_URL must be set when building the native shells.');
  }
  return {
    kind,
    serverOrigin: new URL(serverUrl).origin,
    store,
    auth: {
      kind: 'bearer',
      token: async () => (await store.get(BEARER_TOKEN_KEY)) ?? undefined,
      rememberToken: (token) => store.set(BEARER_TOKEN_KEY, token),
      forgetToken: () => store.remove(BEARER_TOKEN_KEY),
    },
    usesServiceWorker: false,
    alerts: nativeAlerts,
    sourceFetcher: nativeSourceFetch,
    ...nativeFileSharing,
  } satisfies Platform;
}
