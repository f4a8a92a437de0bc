import { useState } from 'react';
import { useLocation } from 'react-router-dom';

export interface AnnotationRouteParams {
  readonly billId: string | null;
  readonly annotationId: string | null;
  /** The text to show first (`text:<n>`), for a new highlight. */
  readonly target: string | null;
}

function paramsOf(search: string): AnnotationRouteParams {
  const query = new URLSearchParams(search);
  const billId = query.get('bill');
  const annotationId = query.get('id');
  const target = query.get('target');
  return {
    target: target === null || target === '' ? null : target,
    billId: billId === null || billId === '' ? null : billId,
    annotationId: annotationId === null || annotationId === '' ? null : annotationId,
  };
}

/**
 * `?bill=&id=&target=` of /annotation. Ionic keeps a page mounted under the next one, and the location
 * then names that next page; the page keeps the parameters it was opened with instead.
 */
export function useAnnotationRouteParams(): AnnotationRouteParams {
  const { pathname, search } = useLocation();
  const [seen, setSeen] = useState(() => ({ search, params: paramsOf(search) }));
  if (pathname === '/annotation' && search !== seen.search) {
    // Adjusting state while rendering: React re-renders at once, before painting.
    setSeen({ search, params: paramsOf(search) });
  }
  return seen.params;
}
