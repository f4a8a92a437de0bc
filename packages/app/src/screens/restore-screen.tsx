import { PlannedScreen } from '../layout/planned-screen.tsx';

export function RestoreScreen() {
  return (
    <PlannedScreen
      title="Restore"
      purpose="Restoring your data from a backup, after seeing what will change, will be done here."
      backHref="/tabs/backups"
    />
  );
}
