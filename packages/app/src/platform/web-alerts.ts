import type { DeviceAlerts } from './platform.ts';

// The browser's Notification API. A browser without it (or a page where it is blocked) answers
// "not allowed", and the settings say where to allow it.

function permission(): NotificationPermission | null {
  return typeof Notification === 'undefined' ? null : Notification.permission;
}

export const webAlerts: DeviceAlerts = {
  allowed: () => Promise.resolve(permission() === 'granted'),
  askToAllow: async () => {
    const now = permission();
    if (now === null || now === 'denied') return false;
    if (now === 'granted') return true;
    return (await Notification.requestPermission()) === 'granted';
  },
  refusedMessage:
    'This browser does not allow Docket to show notifications. Allow them in its site settings, then turn alerts on again.',
  show: ({ title, body, tag }) => {
    if (permission() === 'granted') new Notification(title, { body, tag });
    return Promise.resolve();
  },
};
