import type { IonNote as Proxy } from '@ionic/react';
import { IonNote as IonNoteElement, defineCustomElement } from '@ionic/core/components/ion-note.js';
import { createComponent } from '@stencil/react-output-target/runtime';
import React from 'react';

/** Ionic's `<IonNote>` as `@ionic/react` makes it; loaded with the screens that use it (README.md). */
export const IonNote: typeof Proxy = createComponent({
  tagName: 'ion-note',
  elementClass: IonNoteElement,
  react: React,
  events: {},
  defineCustomElement,
});
