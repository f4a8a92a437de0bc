import { PlannedScreen } from '../layout/planned-screen.tsx';

/** Shown as a tab and as its own route; as a route it offers a way back to the tabs. */
export function BackupsScreen({ backHref }: { readonly backHref?: string }) {
  return (
    <PlannedScreen
      title="Backups"
      purpose="Your encrypted backups on the server will be listed here."
      {...(backHref === undefined ? {} : { backHref })}
    />
  );
}
