import type { Tag } from '@docket/core/store';
import { TagRow, type TagPanel, type TagScreenReport } from './tag-row.tsx';

/** Which form is open on the bill-tags screen: at most one on the whole screen. */
export type OpenPanel = { kind: 'new' } | { kind: 'tag'; tagId: string; panel: TagPanel } | null;

/** The bill-tags screen's tags, each with its bills and its forms, at most one of them open. */
export function TagList({
  tags,
  counts,
  readOnly,
  open,
  onOpen,
  report,
}: {
  /** Undefined while read. */
  readonly tags: readonly Tag[] | undefined;
  /** Bills per tag id; undefined while counted. */
  readonly counts: ReadonlyMap<string, number> | undefined;
  readonly readOnly: boolean;
  readonly open: OpenPanel;
  readonly onOpen: (open: OpenPanel) => void;
  readonly report: TagScreenReport;
}) {
  if (tags === undefined) return <p role="status">Loading tags…</p>;
  if (tags.length === 0) {
    return (
      <p>
        {readOnly
          ? 'No tags yet.'
          : 'No tags yet. Make one with “New tag”, or from a bill’s details.'}
      </p>
    );
  }
  return (
    <ul className="tag-rows" aria-label="Tags">
      {tags.map((tag) => (
        <TagRow
          key={tag.id}
          tag={tag}
          billCount={counts === undefined ? undefined : (counts.get(tag.id) ?? 0)}
          otherTags={tags.filter((other) => other.id !== tag.id)}
          panel={open?.kind === 'tag' && open.tagId === tag.id ? open.panel : null}
          onPanel={(panel) => {
            onOpen(panel === null ? null : { kind: 'tag', tagId: tag.id, panel });
          }}
          report={report}
        />
      ))}
    </ul>
  );
}
