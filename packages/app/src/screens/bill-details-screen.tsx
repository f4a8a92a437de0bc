import { PlannedScreen } from '../layout/planned-screen.tsx';

export function BillDetailsScreen() {
  return (
    <PlannedScreen
      title="Bill details"
      purpose="A bill's status, sponsors, history, text and votes will be shown here, with your tags, position and annotations."
      backHref="/tabs/tracked"
    />
  );
}
