import { PlannedScreen } from '../layout/planned-screen.tsx';

export function BackupLinkScreen() {
  return (
    <PlannedScreen
      title="Backup link"
      purpose="The read-only public link of a backup will be created, copied and revoked here."
      backHref="/tabs/backups"
    />
  );
}
