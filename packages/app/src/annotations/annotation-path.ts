/** Where an annotation opens; without an annotation id, the screen makes a new one on the bill.
 *  Bill ids hold slashes, so both travel encoded. */
export function annotationPath(billId: string, annotationId?: string): string {
  const bill = `/annotation?bill=${encodeURIComponent(billId)}`;
  return annotationId === undefined ? bill : `${bill}&id=${encodeURIComponent(annotationId)}`;
}

/** A new highlight on one of the bill's texts (`text:<n>`, annotation-targets.ts). */
export function annotationOnTextPath(billId: string, target: string): string {
  return `${annotationPath(billId)}&target=${encodeURIComponent(target)}`;
}
