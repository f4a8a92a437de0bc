import type { IonInput as Proxy } from '@ionic/react';
import {
  IonInput as IonInputElement,
  defineCustomElement,
} from '@ionic/core/components/ion-input.js';
import { createComponent } from '@stencil/react-output-target/runtime';
import React from 'react';

/** Ionic's `<IonInput>` as `@ionic/react` makes it; loaded with the screens that use it (README.md). */
export const IonInput: typeof Proxy = createComponent({
  tagName: 'ion-input',
  elementClass: IonInputElement,
  react: React,
  events: {
    onIonInput: 'ionInput',
    onIonChange: 'ionChange',
    onIonBlur: 'ionBlur',
    onIonFocus: 'ionFocus',
  },
  defineCustomElement,
});
