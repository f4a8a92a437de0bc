// The public face of text/ for the other packages (README.md); inside core, files import each other directly.
export {
  type AnnotationPlacement,
  annotationTargets,
  annotationTargetText,
  placeAnnotation,
  placeOnOtherVersion,
  targetVersion,
} from './annotation-targets.ts';
export type { StructuredText, TextHeading } from './html-to-text.ts';
export { pdfText } from './pdf-text.ts';
export { describeSelection } from './text-anchoring.ts';
export { compareTexts, type VersionDiff } from './version-diff.ts';
export {
  headingLines,
  markupVersionText,
  NOT_A_TEXT_FORMAT,
  sniffVersionFormat,
  textPieces,
  withFetchedTexts,
} from './version-text.ts';
export { readVersionTexts, saveVersionText } from './version-text-rows.ts';
export {
  fetchRefreshedVersions,
  recordRefreshedTextFailures,
  refreshedVersionsToFetch,
} from './refreshed-versions.ts';
