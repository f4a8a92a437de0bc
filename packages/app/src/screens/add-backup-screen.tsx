import { useParams } from 'react-router-dom';
import { PlannedScreen } from '../layout/planned-screen.tsx';

/** /add-backup makes a backup; /add-backup/:id edits the name and description of one. */
export function AddBackupScreen() {
  const { id } = useParams();
  return id === undefined ? (
    <PlannedScreen
      title="New backup"
      purpose="A form to make an encrypted backup of your data on the server will be here."
      backHref="/tabs/backups"
    />
  ) : (
    <PlannedScreen
      title="Edit backup"
      purpose="A form to change this backup's name and description will be here."
      backHref="/tabs/backups"
    />
  );
}
