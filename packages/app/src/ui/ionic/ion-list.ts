import type { IonList as Proxy } from '@ionic/react';
import { IonList as IonListElement, defineCustomElement } from '@ionic/core/components/ion-list.js';
import { createComponent } from '@stencil/react-output-target/runtime';
import React from 'react';

/** Ionic's `<IonList>` as `@ionic/react` makes it; loaded with the screens that use it (README.md). */
export const IonList: typeof Proxy = createComponent({
  tagName: 'ion-list',
  elementClass: IonListElement,
  react: React,
  events: {},
  defineCustomElement,
});
