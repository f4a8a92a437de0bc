import { PlannedScreen } from '../layout/planned-screen.tsx';

export function TrackedBillsScreen() {
  return (
    <PlannedScreen
      title="Tracked"
      purpose="The bills you track will be listed here, with search and filters."
    />
  );
}
