import { useState } from 'react';
import { DraftOffer } from '../drafts/draft-offer.tsx';
import { useFormDraft } from '../drafts/use-form-draft.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { freshNewTag, type NewTagFields } from '../tags/new-tag-form.tsx';
import { NewTagPanel } from '../tags/new-tag-panel.tsx';
import { type OpenPanel, TagList } from '../tags/tag-list.tsx';
import { tagRowHeading, type TagScreenReport } from '../tags/tag-row.tsx';
import { catchFallingFocus, visibleScreenHeading } from '../ui/falling-focus.ts';
import { useTagBillCounts, useTags } from '../local-store/live-tags.ts';
import { useSpaceReadOnly, VIEWER_WORDS } from '../local-store/space-role.ts';
import '../tags/tags.css';
import { useStatusToast } from '../toasts/status-toast.ts';

/** /bill-tags: create, rename, recolour, merge and delete the user's tags. */
export function BillTagsScreen() {
  const tags = useTags();
  const counts = useTagBillCounts();
  const [open, setOpen] = useState<OpenPanel>(null);
  const [newTag, setNewTag] = useState<NewTagFields>({ name: '', colour: '' });
  const toast = useStatusToast();
  const readOnly = useSpaceReadOnly();
  const report: TagScreenReport = {
    done: (message, focusTagId) => {
      toast.done(message);
      setOpen(null);
      catchFallingFocus(() =>
        focusTagId === undefined ? visibleScreenHeading() : tagRowHeading(focusTagId),
      );
    },
  };
  // The new tag's name is kept on this device as it is typed; Cancel lets it go.
  const draft = useFormDraft({
    form: 'tag',
    scope: 'new',
    fields: newTag,
    dirty: open?.kind === 'new' && newTag.name.trim() !== '',
    onRestore: (fields) => {
      setNewTag({ name: fields.name, colour: fields.colour });
      setOpen({ kind: 'new' });
    },
  });
  return (
    <>
      <PageHeader title="Tags" backHref="/tabs/more" />
      <PageBody>
        <h1>Tags</h1>
        <p>
          Tags group bills your way. Renaming or recolouring a tag changes it on every bill; merging
          moves its bills to another tag; deleting takes it off its bills.
        </p>
        {readOnly ? (
          <p className="tag-muted">{VIEWER_WORDS}</p>
        ) : (
          <DraftOffer draft={draft} what="tag" preview={(fields) => fields.name} />
        )}
        {readOnly ? null : (
          <NewTagPanel
            isOpen={open?.kind === 'new'}
            value={newTag}
            onChange={setNewTag}
            onOpen={() => {
              setNewTag(freshNewTag(tags ?? []));
              setOpen({ kind: 'new' });
            }}
            onClose={() => {
              setOpen(null);
            }}
            onCreated={(tag) => {
              draft.clear();
              report.done(`Created the tag "${tag.name}".`, tag.id);
            }}
          />
        )}
        <TagList
          tags={tags}
          counts={counts}
          readOnly={readOnly}
          open={open}
          onOpen={setOpen}
          report={report}
        />
      </PageBody>
    </>
  );
}
