import type { CapacitorConfig } from '@capacitor/cli';

// The native shells load the same build as the web (`vite build` → dist); they reach the server
// through VITE_DOCKET_SERVER_URL, baked in at build time.
const config: CapacitorConfig = {
  appId: 'org.docket.app',
  appName: 'Docket',
  webDir: 'dist',
};

export default config;
