import { getConfig, isPlatform } from '@ionic/react';

// Ionic's input shims (its scroll assist and scroll padding) keep its own ion-input and
// ion-textarea above the keyboard, by default on iOS phones and in Android's mobile browsers
// (@ionic/core's app.js, `needInputShims`). keep-focus-in-view.ts leaves those fields to it, so
// the two never scroll one field at once; every other field, and every field where the shims do
// not run, is keep-focus-in-view's.

/** Whether Ionic's scroll assist moves this field when it is focused. */
export function ionicScrollAssists(field: Element): boolean {
  if (field.closest('ion-input, ion-textarea') === null) return false;
  const shimsByDefault =
    (isPlatform('ios') && isPlatform('mobile')) ||
    (isPlatform('android') && isPlatform('mobileweb'));
  const config = getConfig();
  if (config === null) return shimsByDefault;
  return config.getBoolean('inputShims', shimsByDefault) && config.getBoolean('scrollAssist', true);
}
