import { useIonRouter } from '@ionic/react';
import type { CommandReport } from '../bill-details/bill-user-sections.tsx';
import { BillDetailsArticle, MissingBill } from '../bill-details/bill-details-article.tsx';
import { useBillDetailsId } from '../bill-details/bill-details-route.ts';
import { KeptBillNotes, useRemovedBillNotes } from '../bill-details/removed-bill-notes.tsx';
import { useBillWithFetchedTexts } from '../bill-details/use-bill-with-fetched-texts.ts';
import { BillTextVersions } from '../bill-text/bill-text-versions.tsx';
import { useBillAnnotations } from '../local-store/live-annotations.ts';
import { useDecision } from '../local-store/live-decisions.ts';
import { usePosition } from '../local-store/live-positions.ts';
import '../bill-details/bill-details.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useStatusToast } from '../toasts/status-toast.ts';
import { useBillTags } from '../local-store/live-tags.ts';
import '../tags/tags.css';

const BACK_HREF = '/tabs/tracked';
const TITLE = 'Bill details';

/** /bill-details?id=<encoded bill id>: the whole record, and the user's rows on it. */
export function BillDetailsScreen() {
  const billId = useBillDetailsId();
  // The bill with the text versions this device fetched in place ("Get text"), so annotations
  // made on them are placed, not orphans.
  const { storedBill, fetched, bill } = useBillWithFetchedTexts(billId);
  const tags = useBillTags(billId);
  const position = usePosition(billId);
  const decision = useDecision(billId);
  const annotations = useBillAnnotations(billId);
  // What a command did (or why it did not) is a toast that leaves, never a bar over the page.
  const report: CommandReport = useStatusToast();
  // A bill not on this device (its dataset deleted, or never imported here) still has the
  // user's notes: they are shown instead of only "No bill with this id".
  const keptNotes = useRemovedBillNotes(billId);
  const kept = keptNotes?.[0];
  const ionRouter = useIonRouter();

  if (bill === null && kept !== undefined) {
    return (
      <>
        <PageHeader title={kept.label?.identifier ?? TITLE} backHref={BACK_HREF} />
        <PageBody>
          <KeptBillNotes
            entry={kept}
            onDeleted={() => {
              ionRouter.push(BACK_HREF, 'back', 'pop');
            }}
          />
        </PageBody>
      </>
    );
  }

  if (billId === null || bill == null) {
    return (
      <>
        <PageHeader title={TITLE} backHref={BACK_HREF} />
        <PageBody>
          <MissingBill
            title={TITLE}
            backHref={BACK_HREF}
            loading={billId !== null && (bill === undefined || keptNotes === undefined)}
            named={billId !== null}
          />
        </PageBody>
      </>
    );
  }

  return (
    <>
      <PageHeader title={bill.identifier} backHref={BACK_HREF} />
      <PageBody>
        <BillDetailsArticle
          bill={bill}
          tags={tags}
          position={position}
          decision={decision}
          annotations={annotations}
          report={report}
          texts={
            <BillTextVersions
              bill={storedBill ?? bill}
              texts={bill.texts}
              fetched={fetched}
              annotations={annotations}
            />
          }
        />
      </PageBody>
    </>
  );
}
