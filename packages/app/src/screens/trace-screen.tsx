import { PlannedScreen } from '../layout/planned-screen.tsx';

export function TraceScreen() {
  return (
    <PlannedScreen
      title="Trace"
      purpose="This device's diagnostic log of syncs, jobs, sign-ins and connectivity will be shown here."
      backHref="/tabs/more"
    />
  );
}
