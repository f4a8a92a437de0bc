import { PlannedScreen } from '../layout/planned-screen.tsx';

export function AnnotationScreen() {
  return (
    <PlannedScreen
      title="Annotation"
      purpose="A highlight and a note on a passage of a bill will be edited here."
      backHref="/tabs/tracked"
    />
  );
}
