import { useId } from 'react';
import type { ListedAnnotation } from './annotation-list.tsx';
import { AnnotationList } from './annotation-list.tsx';

// The lists under the bill text on the annotation screen: the highlights in the text shown,
// those made on another version and found in it, and the orphans a re-import left.

/**
 * "Highlights in this text", then "Highlights from other versions" and "Orphaned annotations"
 * when there are any.
 */
export function HighlightSections({
  targets,
  inThisText,
  fromOtherVersions,
  orphans,
  currentId,
}: {
  /** The bill's texts with their labels, to name the versions carried highlights were made on. */
  readonly targets: readonly { readonly target: string; readonly label: string }[];
  readonly inThisText: readonly ListedAnnotation[];
  readonly fromOtherVersions: readonly ListedAnnotation[];
  readonly orphans: readonly ListedAnnotation[];
  /** The highlight open on the screen, if any. */
  readonly currentId: string | null;
}) {
  const ids = useId();
  const versionLabel = (annotationTarget: string): string =>
    targets.find((option) => option.target === annotationTarget)?.label ?? 'another version';
  const madeOn = [
    ...new Set(fromOtherVersions.map((entry) => versionLabel(entry.annotation.target))),
  ];
  return (
    <>
      <section aria-labelledby={`${ids}-here`}>
        <h2 id={`${ids}-here`}>Highlights in this text</h2>
        {inThisText.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <AnnotationList
            label="Highlights in this text"
            items={inThisText}
            currentId={currentId}
          />
        )}
      </section>

      {fromOtherVersions.length > 0 && (
        <section aria-labelledby={`${ids}-carried`}>
          <h2 id={`${ids}-carried`}>Highlights from other versions</h2>
          <p>Made on {madeOn.join(', ')} and found in this version&apos;s text.</p>
          <AnnotationList
            label="Highlights from other versions"
            items={fromOtherVersions}
            currentId={currentId}
          />
        </section>
      )}

      {orphans.length > 0 && (
        <section aria-labelledby={`${ids}-orphans`}>
          <h2 id={`${ids}-orphans`}>Orphaned annotations</h2>
          <p>
            Their passages are no longer in the bill&apos;s text after a new import. Each is kept
            with the quote it was made on; open one to edit or delete it.
          </p>
          <AnnotationList label="Orphaned annotations" items={orphans} currentId={currentId} />
        </section>
      )}
    </>
  );
}
