import type { IonToggle as Proxy } from '@ionic/react';
import {
  IonToggle as IonToggleElement,
  defineCustomElement,
} from '@ionic/core/components/ion-toggle.js';
import { createComponent } from '@stencil/react-output-target/runtime';
import React from 'react';

/** Ionic's `<IonToggle>` as `@ionic/react` makes it; loaded with the screens that use it (README.md). */
export const IonToggle: typeof Proxy = createComponent({
  tagName: 'ion-toggle',
  elementClass: IonToggleElement,
  react: React,
  events: { onIonChange: 'ionChange', onIonFocus: 'ionFocus', onIonBlur: 'ionBlur' },
  defineCustomElement,
});
