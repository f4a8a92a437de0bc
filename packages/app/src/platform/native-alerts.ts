import { LocalNotifications } from '@capacitor/local-notifications';
import type { DeviceAlerts } from './platform.ts';

// Capacitor's Local Notifications in the native shells: the system asks once (Android 13 and
// later, iOS), and an alert is scheduled to show at once. Local notifications are numbered, not
// tagged, so a tag becomes a number (the same tag, the same number, the same notification).

/** A positive 31-bit number from a tag, as Android's notification ids must be. */
export function notificationId(tag: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < tag.length; index++) {
    hash = Math.imul(hash ^ tag.charCodeAt(index), 0x01000193);
  }
  return hash >>> 1 || 1;
}

export const nativeAlerts: DeviceAlerts = {
  allowed: async () => (await LocalNotifications.checkPermissions()).display === 'granted',
  askToAllow: async () => {
    const now = (await LocalNotifications.checkPermissions()).display;
    if (now === 'granted') return true;
    if (now === 'denied') return false;
    return (await LocalNotifications.requestPermissions()).display === 'granted';
  },
  refusedMessage:
    'This device does not allow Docket to show notifications. Allow them in the system settings for Docket, then turn alerts on again.',
  show: async ({ title, body, tag }) => {
    await LocalNotifications.schedule({
      notifications: [{ id: notificationId(tag), title, body }],
    });
  },
};
