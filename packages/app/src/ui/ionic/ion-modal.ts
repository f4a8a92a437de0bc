import { defineCustomElement } from '@ionic/core/components/ion-modal.js';
import { IonModal } from '@ionic/react';

// `@ionic/react`'s IonModal, with `<ion-modal>` defined here rather than as `@ionic/react`
// loads: the build leaves that to this module (build-tools/trim-ionic-react.ts), so the modal's
// code loads with the screens that have a modal, not before the first paint (README.md).
defineCustomElement();

export { IonModal };
