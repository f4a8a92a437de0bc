import { billPlace } from '@docket/core/bills';
import { withFetchedTexts } from '@docket/core/text';
import { useMemo } from 'react';
import { IonButton, useIonRouter } from '@ionic/react';
import { Link } from 'react-router-dom';
import {
  ActionsTimeline,
  BillFacts,
  SponsorsSection,
  SubjectsSection,
  SummarySection,
  VotesSection,
} from '../bill-details/bill-record-sections.tsx';
import {
  AnnotationsSection,
  BillTagsSection,
  DecisionSection,
  PositionSection,
  type CommandReport,
} from '../bill-details/bill-user-sections.tsx';
import {
  BillHistorySection,
  ChangedElsewhereNotice,
} from '../bill-details/bill-history-section.tsx';
import { useBillDetailsId } from '../bill-details/bill-details-route.ts';
import { KeptBillNotes, useRemovedBillNotes } from '../bill-details/removed-bill-notes.tsx';
import { VoteMembers } from '../bill-details/vote-members.tsx';
import { BillTextVersions } from '../bill-text/bill-text-versions.tsx';
import { useBillAnnotations } from '../local-store/live-annotations.ts';
import { useStoredBill } from '../local-store/live-bills.ts';
import { useVersionTexts } from '../local-store/live-version-texts.ts';
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
  const storedBill = useStoredBill(billId);
  const fetched = useVersionTexts(billId);
  // The bill with the text versions this device fetched in place ("Get text"), so annotations
  // made on them are placed, not orphans.
  const bill = useMemo(
    () =>
      storedBill == null || fetched === undefined
        ? storedBill
        : withFetchedTexts(storedBill, fetched),
    [storedBill, fetched],
  );
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
          <h1>{TITLE}</h1>
          {billId !== null && (bill === undefined || keptNotes === undefined) ? (
            <p role="status">Loading the bill…</p>
          ) : (
            <div role="alert">
              <p>
                {billId === null
                  ? 'No bill was named: this page needs a bill id.'
                  : 'No bill with this id on this device.'}
              </p>
              <p>
                <Link to={BACK_HREF}>Back to your tracked bills</Link>
              </p>
            </div>
          )}
        </PageBody>
      </>
    );
  }

  return (
    <>
      <PageHeader title={bill.identifier} backHref={BACK_HREF} />
      <PageBody>
        <article className="bill-details" aria-labelledby="bill-details-heading">
          <h1 id="bill-details-heading">{bill.identifier}</h1>
          <p className="bill-place">{billPlace(bill)}</p>
          <p className="bill-title" dir="auto">
            {bill.title}
          </p>
          <div className="bill-actions">
            <IonButton
              fill="outline"
              onClick={() => {
                window.print();
              }}
            >
              Print
            </IonButton>
          </div>
          <ChangedElsewhereNotice billId={bill.id} />
          <BillFacts bill={bill} />
          <BillTagsSection bill={bill} tags={tags} report={report} />
          <PositionSection
            billId={bill.id}
            position={position === undefined ? undefined : (position?.position ?? 'none')}
            reason={position === undefined ? undefined : (position?.reason ?? '')}
            report={report}
          />
          <DecisionSection
            billId={bill.id}
            decision={decision === undefined ? undefined : (decision?.decision ?? null)}
            report={report}
          />
          <AnnotationsSection bill={bill} annotations={annotations} />
          <BillHistorySection billId={bill.id} />
          <SummarySection summary={bill.summary} />
          <SponsorsSection bill={bill} linkSponsors />
          <SubjectsSection subjects={bill.subjects} />
          <ActionsTimeline bill={bill} />
          <VotesSection
            bill={bill}
            members={(index) => <VoteMembers bill={bill} index={index} />}
          />
          <BillTextVersions
            bill={storedBill ?? bill}
            texts={bill.texts}
            fetched={fetched}
            annotations={annotations}
          />
        </article>
      </PageBody>
    </>
  );
}
