import { PlannedScreen } from '../layout/planned-screen.tsx';

export function FullBackupPreviewScreen() {
  return (
    <PlannedScreen
      title="Full backup preview"
      purpose="What a full backup file holds will be shown here before you restore it."
      backHref="/add-full-backup"
    />
  );
}
