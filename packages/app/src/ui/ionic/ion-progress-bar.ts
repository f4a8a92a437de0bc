import type { IonProgressBar as Proxy } from '@ionic/react';
import {
  IonProgressBar as IonProgressBarElement,
  defineCustomElement,
} from '@ionic/core/components/ion-progress-bar.js';
import { createComponent } from '@stencil/react-output-target/runtime';
import React from 'react';

/** Ionic's `<IonProgressBar>` as `@ionic/react` makes it; loaded with the screens that use it (README.md). */
export const IonProgressBar: typeof Proxy = createComponent({
  tagName: 'ion-progress-bar',
  elementClass: IonProgressBarElement,
  react: React,
  events: {},
  defineCustomElement,
});
