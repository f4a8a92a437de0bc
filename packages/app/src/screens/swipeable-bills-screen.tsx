import { PlannedScreen } from '../layout/planned-screen.tsx';

/** Shown as a tab and as its own route; as a route it offers a way back to the tabs. */
export function SwipeableBillsScreen({ backHref }: { readonly backHref?: string }) {
  return (
    <PlannedScreen
      title="Bills"
      purpose="Untriaged bills from your datasets will be dealt here as a deck of cards, to track, dismiss or keep for later."
      {...(backHref === undefined ? {} : { backHref })}
    />
  );
}
