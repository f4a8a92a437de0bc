import { billPlace } from '@docket/core/bills';
import type { Annotation, Decision, Position, StoredBill, Tag } from '@docket/core/store';
import { IonButton } from '@ionic/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  ActionsTimeline,
  BillFacts,
  SponsorsSection,
  SubjectsSection,
  SummarySection,
  VotesSection,
} from './bill-record-sections.tsx';
import {
  AnnotationsSection,
  BillTagsSection,
  DecisionSection,
  PositionSection,
  type CommandReport,
} from './bill-user-sections.tsx';
import { BillHistorySection, ChangedElsewhereNotice } from './bill-history-section.tsx';
import { VoteMembers } from './vote-members.tsx';

// The bill-details screen's two pages: the whole record with the user's rows on it, and what is
// said when there is no bill to show.

/** The bill's identifier, place and title, and Print. */
function BillHeading({ bill }: { readonly bill: StoredBill }) {
  return (
    <>
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
    </>
  );
}

/**
 * The whole record and the user's rows on it (each undefined while read). `texts` closes it: the
 * text versions come from `bill-text/`, which imports this folder, so the screen hands them in.
 */
export function BillDetailsArticle({
  bill,
  tags,
  position,
  decision,
  annotations,
  report,
  texts,
}: {
  readonly bill: StoredBill;
  readonly tags: readonly Tag[] | undefined;
  readonly position: Position | null | undefined;
  readonly decision: Decision | null | undefined;
  readonly annotations: readonly Annotation[] | undefined;
  readonly report: CommandReport;
  readonly texts: ReactNode;
}) {
  return (
    <article className="bill-details" aria-labelledby="bill-details-heading">
      <BillHeading bill={bill} />
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
      <VotesSection bill={bill} members={(index) => <VoteMembers bill={bill} index={index} />} />
      {texts}
    </article>
  );
}

/** No bill to show: still loading, no id given, or no bill with that id on this device. */
export function MissingBill({
  title,
  backHref,
  loading,
  named,
}: {
  readonly title: string;
  readonly backHref: string;
  /** Whether the bill, or the user's notes on a removed one, are still being read. */
  readonly loading: boolean;
  /** Whether the address named a bill at all. */
  readonly named: boolean;
}) {
  return (
    <>
      <h1>{title}</h1>
      {loading ? (
        <p role="status">Loading the bill…</p>
      ) : (
        <div role="alert">
          <p>
            {named
              ? 'No bill with this id on this device.'
              : 'No bill was named: this page needs a bill id.'}
          </p>
          <p>
            <Link to={backHref}>Back to your tracked bills</Link>
          </p>
        </div>
      )}
    </>
  );
}
