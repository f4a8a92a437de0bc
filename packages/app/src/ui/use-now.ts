import { useEffect, useState } from 'react';

/**
 * The wall clock, read again every `everyMs` (never when null): a screen that says "2 min ago"
 * or counts a duration up re-renders as time passes, without calling the clock while rendering.
 */
export function useNow(everyMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (everyMs === null) return;
    const timer = window.setInterval(() => {
      setNow(Date.now());
    }, everyMs);
    return () => {
      window.clearInterval(timer);
    };
  }, [everyMs]);
  return now;
}
