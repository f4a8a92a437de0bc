import { IonItem as IonItemElement, defineCustomElement } from '@ionic/core/components/ion-item.js';
import type { Components } from '@ionic/core/components';
import { createComponent } from '@stencil/react-output-target/runtime';
import React from 'react';

/**
 * Ionic's `<ion-item>`, loaded with the screens that use it (README.md). Unlike `@ionic/react`'s
 * it takes no `routerLink`: a link item gets `href` and an `onClick` that navigates in the app
 * (see more-screen.tsx), so the item is still a link to the keyboard and the screen reader.
 */
// ion-item fires no events of its own: its event map is empty.
// eslint-disable-next-line @typescript-eslint/no-generated-empty-object-type
export const IonItem = createComponent<IonItemElement, Record<never, string>, Components.IonItem>({
  tagName: 'ion-item',
  elementClass: IonItemElement,
  react: React,
  events: {},
  defineCustomElement,
});
