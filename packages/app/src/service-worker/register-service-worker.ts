import { Workbox } from 'workbox-window';

/** The file vite-plugin-pwa generates at the root of dist. */
export const SERVICE_WORKER_URL = '/sw.js';

export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  await new Workbox(SERVICE_WORKER_URL, { scope: '/' }).register();
}
