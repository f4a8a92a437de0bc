import { PlannedScreen } from '../layout/planned-screen.tsx';

export function BackupPreviewScreen() {
  return (
    <PlannedScreen
      title="Backup preview"
      purpose="What a backup holds will be shown here before you restore it."
      backHref="/tabs/backups"
    />
  );
}
