import type { IonText as Proxy } from '@ionic/react';
import { IonText as IonTextElement, defineCustomElement } from '@ionic/core/components/ion-text.js';
import { createComponent } from '@stencil/react-output-target/runtime';
import React from 'react';

/** Ionic's `<IonText>` as `@ionic/react` makes it; loaded with the screens that use it (README.md). */
export const IonText: typeof Proxy = createComponent({
  tagName: 'ion-text',
  elementClass: IonTextElement,
  react: React,
  events: {},
  defineCustomElement,
});
