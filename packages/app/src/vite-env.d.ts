/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Sentry DSN; error reporting stays off when it is absent. */
  readonly VITE_SENTRY_DSN?: string;
  /** Origin of the Docket server for the native shells (the web app uses its own origin). */
  readonly VITE_DOCKET_SERVER_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
