import { Capacitor } from '@capacitor/core';
import type { Platform } from './platform.ts';
import { webPlatform } from './web-platform.ts';

/**
 * The one place that decides which platform the app runs on. The native shells' code (their
 * plugins, alerts, file sharing and fetch) loads only in a shell, so the web's first paint
 * carries none of it.
 */
export async function pickPlatform(): Promise<Platform> {
  if (!Capacitor.isNativePlatform()) return webPlatform;
  const kind = Capacitor.getPlatform() === 'ios' ? 'ios' : 'android';
  const { createNativePlatform } = await import('./native-platform.ts');
  return createNativePlatform(kind, import.meta.env.VITE_DOCKET_SERVER_URL);
}
