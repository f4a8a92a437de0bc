import { PlannedScreen } from '../layout/planned-screen.tsx';

export function PublicLinkScreen() {
  return (
    <PlannedScreen
      title="Shared bills"
      purpose="The read-only set of bills shared through this link will be shown here."
    />
  );
}
