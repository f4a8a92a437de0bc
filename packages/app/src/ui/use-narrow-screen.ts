import { useSyncExternalStore } from 'react';

// Whether the screen is a phone's (issue 40): there the Tracked tab folds its filters behind one
// button so the search, the count and the first results come first. Read from `matchMedia`, so
// it follows a turned phone or a resized window; where there is no `matchMedia` (jsdom, a
// server) the screen counts as wide, as it did before.

/** Phone widths: the width below which the laptop's layout no longer fits (app.css's measure). */
export const NARROW_SCREEN_QUERY = '(max-width: 40rem)';

function mediaList(query: string): MediaQueryList | null {
  return typeof window === 'undefined' || typeof window.matchMedia !== 'function'
    ? null
    : window.matchMedia(query);
}

/** Whether `query` matches now; the component renders again when that changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = mediaList(query);
      if (list === null) return () => undefined;
      list.addEventListener('change', onChange);
      return () => {
        list.removeEventListener('change', onChange);
      };
    },
    () => mediaList(query)?.matches ?? false,
    () => false,
  );
}

/** Whether the screen is phone-sized (`NARROW_SCREEN_QUERY`). */
export function useNarrowScreen(): boolean {
  return useMediaQuery(NARROW_SCREEN_QUERY);
}
