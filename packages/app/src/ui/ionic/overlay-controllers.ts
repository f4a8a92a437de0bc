import { alertController, toastController } from '@ionic/core/components';
import { defineCustomElement as defineAlert } from '@ionic/core/components/ion-alert.js';
import { defineCustomElement as defineToast } from '@ionic/core/components/ion-toast.js';

// Loaded by ../lazy-overlays.ts the first time an alert or a toast is shown (README.md).

/** Ionic's alert controller, its element defined. */
export function alerts(): typeof alertController {
  defineAlert();
  return alertController;
}

/** Ionic's toast controller, its element defined. */
export function toasts(): typeof toastController {
  defineToast();
  return toastController;
}
