import { PlannedScreen } from '../layout/planned-screen.tsx';

export function JobsScreen() {
  return (
    <PlannedScreen
      title="Jobs"
      purpose="Imports, exports, backups and restores will be listed here with their progress."
      backHref="/tabs/more"
    />
  );
}
