export interface ConnectivityEvents {
  addEventListener(type: 'online' | 'offline', listener: () => void): void;
  removeEventListener(type: 'online' | 'offline', listener: () => void): void;
}

export interface ConnectivityActions {
  setOnline(online: boolean): void;
  navigateHome(): void;
  reloadPage(): void;
}

/**
 * Spec §4 Connectivity: going offline sets online to false; when the connection returns after
 * being offline: navigate to the root, reload the page, then set online to true. An app that
 * starts without a connection counts as having gone offline. Returns a function that stops
 * listening.
 */
export function watchConnectivity(
  events: ConnectivityEvents,
  actions: ConnectivityActions,
  startsOffline = false,
): () => void {
  let wasOffline = false;
  const onOffline = () => {
    wasOffline = true;
    actions.setOnline(false);
  };
  const onOnline = () => {
    if (!wasOffline) return;
    wasOffline = false;
    actions.navigateHome();
    actions.reloadPage();
    actions.setOnline(true);
  };
  if (startsOffline) onOffline();
  events.addEventListener('offline', onOffline);
  events.addEventListener('online', onOnline);
  return () => {
    events.removeEventListener('offline', onOffline);
    events.removeEventListener('online', onOnline);
  };
}
