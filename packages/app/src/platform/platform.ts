/**
 * Everything that differs between the web app and the native shells, behind one interface.
 * Screens and services receive a Platform; only pick-platform.ts decides which one runs.
 */
export type PlatformKind = 'web' | 'ios' | 'android';

/** String values by key on the device; survives reloads and restarts. */
export interface KeyValueStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/**
 * How a signed-in session survives a restart. The web relies on the server's session cookie;
 * the native shells talk to another origin, where cookies are unreliable, so they keep the
 * bearer token the server hands out and send it with every auth and API call.
 */
export interface AuthPersistence {
  readonly kind: 'cookie' | 'bearer';
  /** The token to send as `Authorization: Bearer …`, if this platform keeps one. */
  token(): Promise<string | undefined>;
  /** Keeps a token from a `set-auth-token` response header. */
  rememberToken(token: string): Promise<void>;
  forgetToken(): Promise<void>;
}

/**
 * Handing the user a file or a link. The web offers a file as a download and shares links
 * through the Web Share API where the browser has it; the native shells (whose web view
 * ignores downloads) write the file to the cache and open the system share sheet, from which
 * the user saves it to Files or sends it. Closing the share sheet is not an error.
 */
export interface FileSharing {
  /** Offers `data` as a file named `name` (no folders); `mimeType` is what the web labels it. */
  saveFile(name: string, data: Uint8Array | Blob, mimeType: string): Promise<void>;
  /** Whether shareLink can work here; when not, screens offer copying only. */
  canShareLinks(): boolean;
  shareLink(url: string, title: string): Promise<void>;
}

/**
 * Notifications the device itself shows when a refresh finds changes to followed bills: the
 * browser's Notification API on the web, Local Notifications in the native shells. Nothing
 * leaves the device to send them.
 */
export interface DeviceAlerts {
  /** Whether alerts may be shown now, without asking. */
  allowed(): Promise<boolean>;
  /** Asks the user where the platform needs to; whether alerts may then be shown. */
  askToAllow(): Promise<boolean>;
  /** What to tell the user when alerts are not allowed, and where to allow them. */
  readonly refusedMessage: string;
  /** Shows one alert; an alert with the same tag replaces the one before it. */
  show(alert: { title: string; body: string; tag: string }): Promise<void>;
}

/** A source's answer as plain data, so it can cross from the page to the import worker. */
export interface SourceAnswer {
  status: number;
  statusText: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer> | null;
}

/**
 * Fetches a source's URL outside the web view's rules: the native shells' HTTP (Capacitor's),
 * which no site's CORS policy stops. Throws an error that says why when there is no answer.
 */
export type SourceFetcher = (url: string, headers: Record<string, string>) => Promise<SourceAnswer>;

export interface Platform extends FileSharing {
  readonly kind: PlatformKind;
  /** Origin of the Docket server; '' means the app's own origin. */
  readonly serverOrigin: string;
  readonly store: KeyValueStore;
  readonly auth: AuthPersistence;
  /** Whether the app shell is cached by a service worker (the native shells bundle it). */
  readonly usesServiceWorker: boolean;
  readonly alerts: DeviceAlerts;
  /** How the import worker fetches sources instead of its own fetch; null on the web. */
  readonly sourceFetcher: SourceFetcher | null;
}
