import type { IonFooter as Proxy } from '@ionic/react';
import {
  IonFooter as IonFooterElement,
  defineCustomElement,
} from '@ionic/core/components/ion-footer.js';
import { createComponent } from '@stencil/react-output-target/runtime';
import React from 'react';

/** Ionic's `<IonFooter>` as `@ionic/react` makes it; loaded with the screens that use it (README.md). */
export const IonFooter: typeof Proxy = createComponent({
  tagName: 'ion-footer',
  elementClass: IonFooterElement,
  react: React,
  events: {},
  defineCustomElement,
});
