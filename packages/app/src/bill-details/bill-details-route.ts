import { useState } from 'react';
import { useLocation } from 'react-router-dom';

export const BILL_DETAILS_PATH = '/bill-details';

/** The bill id of `?id=`, or null when it is missing or blank. */
export function billIdOf(search: string): string | null {
  const id = new URLSearchParams(search).get('id');
  return id === null || id.trim() === '' ? null : id;
}

/**
 * `?id=` of /bill-details. Ionic keeps a page mounted under the next one (the annotation screen
 * opened from here), and the location then names that page; this one keeps its own bill.
 */
export function useBillDetailsId(): string | null {
  const { pathname, search } = useLocation();
  const [seen, setSeen] = useState(() => ({ search, id: billIdOf(search) }));
  if (pathname === BILL_DETAILS_PATH && search !== seen.search) {
    // Adjusting state while rendering: React re-renders at once, before painting.
    setSeen({ search, id: billIdOf(search) });
  }
  return seen.id;
}

/** Where the annotation screen opens: a new annotation, or an existing one. */
export function annotationPath(billId: string, annotationId?: string): string {
  const bill = `/annotation?bill=${encodeURIComponent(billId)}`;
  return annotationId === undefined ? bill : `${bill}&id=${encodeURIComponent(annotationId)}`;
}
