import { PlannedScreen } from '../layout/planned-screen.tsx';

export function BillTagsScreen() {
  return (
    <PlannedScreen
      title="Bill tags"
      purpose="Your tags will be managed here: created, renamed, recoloured, merged, deleted and put on bills."
      backHref="/tabs/more"
    />
  );
}
