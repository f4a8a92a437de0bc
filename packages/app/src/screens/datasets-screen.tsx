import { PlannedScreen } from '../layout/planned-screen.tsx';

/** Shown as a tab and as its own route; as a route it offers a way back to the tabs. */
export function DatasetsScreen({ backHref }: { readonly backHref?: string }) {
  return (
    <PlannedScreen
      title="Datasets"
      purpose="Your datasets and their imports will be listed here."
      {...(backHref === undefined ? {} : { backHref })}
    />
  );
}
