// Capacitor Preferences fetches its web code on first use; the app reads the stored session
// before it renders, so that was one more round trip before the first paint (issue 19).
import '@capacitor/preferences/dist/esm/web.js';
import type { Platform } from './platform.ts';
import { preferencesKeyValueStore } from './preferences-key-value-store.ts';
import { webAlerts } from './web-alerts.ts';
import { webFileSharing } from './web-file-sharing.ts';

/**
 * The browser: same-origin server, standard cookie session, service worker for offline use,
 * files offered as downloads, alerts through the Notification API.
 */
export const webPlatform = {
  kind: 'web',
  serverOrigin: '',
  store: preferencesKeyValueStore,
  auth: {
    kind: 'cookie',
    token: () => Promise.resolve(undefined),
    rememberToken: () => Promise.resolve(),
    forgetToken: () => Promise.resolve(),
  },
  usesServiceWorker: true,
  alerts: webAlerts,
  sourceFetcher: null,
  ...webFileSharing,
} satisfies Platform;
