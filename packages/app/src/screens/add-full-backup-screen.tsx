import { useParams } from 'react-router-dom';
import { PlannedScreen } from '../layout/planned-screen.tsx';

/**
 * Open to everyone: a full backup rescues the data of a device that is signed out, offline or
 * about to be reset. /add-full-backup/:id works on one that was made before.
 */
export function AddFullBackupScreen() {
  const { id } = useParams();
  return id === undefined ? (
    <PlannedScreen
      title="Full backup"
      purpose="Making, downloading and restoring a file of this device's whole database will be done here."
    />
  ) : (
    <PlannedScreen
      title="Full backup"
      purpose="Downloading and restoring this full backup will be done here."
      backHref="/add-full-backup"
    />
  );
}
