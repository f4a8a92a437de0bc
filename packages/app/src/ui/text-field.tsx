import { forwardRef, type ComponentProps } from 'react';
import { IonInput } from './ionic/ion-input.ts';

// The app's text field: Ionic's input with its label above and an outline, handing back the
// typed text as a string (Ionic's event gives null for an emptied field).

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
        onChange(event.detail.value ?? '');
      }}
    />
  );
});
