import { PlannedScreen } from '../layout/planned-screen.tsx';

export function ImportScreen() {
  return (
    <PlannedScreen
      title="Import"
      purpose="Importing files exported from Docket will be done here."
      backHref="/tabs/more"
    />
  );
}
