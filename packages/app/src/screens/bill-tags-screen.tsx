import { IonButton } from '@ionic/react';
import { useState } from 'react';
import { DraftOffer } from '../drafts/draft-offer.tsx';
import { useFormDraft } from '../drafts/use-form-draft.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { freshNewTag, NewTagForm, type NewTagFields } from '../tags/new-tag-form.tsx';
import { TagRow, tagRowHeading, type TagPanel, type TagScreenReport } from '../tags/tag-row.tsx';
import { catchFallingFocus, visibleScreenHeading } from '../ui/falling-focus.ts';
import { useTagBillCounts, useTags } from '../local-store/live-tags.ts';
import { useSpaceReadOnly, VIEWER_WORDS } from '../local-store/space-role.ts';
import '../tags/tags.css';
import { useStatusToast } from '../toasts/status-toast.ts';

/** Which form is open: at most one on the whole screen. */
type OpenPanel = { kind: 'new' } | { kind: 'tag'; tagId: string; panel: TagPanel } | null;

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
        {readOnly ? null : open?.kind === 'new' ? (
          <NewTagForm
            value={newTag}
            onChange={setNewTag}
            close={() => {
              setOpen(null);
            }}
            onCreated={(tag) => {
              draft.clear();
              report.done(`Created the tag "${tag.name}".`, tag.id);
            }}
          />
        ) : (
          <div className="tag-actions">
            <IonButton
              onClick={() => {
                setNewTag(freshNewTag(tags ?? []));
                setOpen({ kind: 'new' });
              }}
            >
              New tag
            </IonButton>
          </div>
        )}
        {tags === undefined ? (
          <p role="status">Loading tags…</p>
        ) : tags.length === 0 ? (
          <p>
            {readOnly
              ? 'No tags yet.'
              : 'No tags yet. Make one with “New tag”, or from a bill’s details.'}
          </p>
        ) : (
          <ul className="tag-rows" aria-label="Tags">
            {tags.map((tag) => (
              <TagRow
                key={tag.id}
                tag={tag}
                billCount={counts === undefined ? undefined : (counts.get(tag.id) ?? 0)}
                otherTags={tags.filter((other) => other.id !== tag.id)}
                panel={open?.kind === 'tag' && open.tagId === tag.id ? open.panel : null}
                onPanel={(panel) => {
                  setOpen(panel === null ? null : { kind: 'tag', tagId: tag.id, panel });
                }}
                report={report}
              />
            ))}
          </ul>
        )}
      </PageBody>
    </>
  );
}
