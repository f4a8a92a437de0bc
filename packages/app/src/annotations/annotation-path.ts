/** Where an annotation opens; without an annotation id, the screen makes a new one on the bill.
 *  Bill ids hold slashes, so both travel encoded. */
export function annotationPath(billId: string, annotationId?: string): string {
  const bill = `/annotation?bill=${encodeURIComponent(billId)}`;
  return annotationId === undefined ? bill : `${bill}&id=${encodeURIComponent(annotationId)}`;
}
