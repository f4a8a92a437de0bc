import { Capacitor } from '@capacitor/core';
import { createNativePlatform } from './native-platform.ts';
import type { Platform } from './platform.ts';
import { webPlatform } from './web-platform.ts';

/** The one place that decides which platform the app runs on. */
export function pickPlatform(): Platform {
  if (!Capacitor.isNativePlatform()) return webPlatform;
  const kind = Capacitor.getPlatform() === 'ios' ? 'ios' : 'android';
  return createNativePlatform(kind, import.meta.env.VITE_DOCKET_SERVER_URL);
}
