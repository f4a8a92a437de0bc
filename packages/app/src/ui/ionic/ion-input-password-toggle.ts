import type { IonInputPasswordToggle as Proxy } from '@ionic/react';
import {
  IonInputPasswordToggle as IonInputPasswordToggleElement,
  defineCustomElement,
} from '@ionic/core/components/ion-input-password-toggle.js';
import { createComponent } from '@stencil/react-output-target/runtime';
import React from 'react';

/** Ionic's `<IonInputPasswordToggle>` as `@ionic/react` makes it; loaded with the screens that use it (README.md). */
export const IonInputPasswordToggle: typeof Proxy = createComponent({
  tagName: 'ion-input-password-toggle',
  elementClass: IonInputPasswordToggleElement,
  react: React,
  events: {},
  defineCustomElement,
});
