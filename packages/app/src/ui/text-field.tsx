import { forwardRef, type ComponentProps } from 'react';
import { flushSync } from 'react-dom';
import { IonInput } from './ionic/ion-input.ts';

// The app's text field: Ionic's input with its label above and an outline, handing back the
// typed text as a string (Ionic's event gives null for an emptied field).
//
// Each keystroke's update is made at once (flushSync). Ionic's ionInput is a custom event, which
// React schedules as default work, not as a discrete event: a form that submits on the Enter
// pressed right after the last keystroke would otherwise read its fields from before that
// keystroke (text-field.web.test.ts shows it).

export type TextFieldProps = Omit<
  ComponentProps<typeof IonInput>,
  'labelPlacement' | 'fill' | 'value' | 'onIonInput' | 'onChange' | 'ref'
> & {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
};

export const TextField = forwardRef<HTMLIonInputElement, TextFieldProps>(function TextField(
  { onChange, ...input },
  ref,
) {
  return (
    <IonInput
      ref={ref}
      labelPlacement="stacked"
      fill="outline"
      {...input}
      onIonInput={(event) => {
        const typed = event.detail.value ?? '';
        flushSync(() => {
          onChange(typed);
        });
      }}
    />
  );
});
