import {
  billDateLabels,
  billFullName,
  latestActionLine,
  statusWithDate,
  voteResultText,
  voteTotalsText,
} from '@docket/core/bills';
import type { BillReportEntry } from '@docket/core/export';
import { createPortal } from 'react-dom';
import { formatBillDate } from '../bills/bill-words.ts';
import { activeWorkspaceId } from '../local-store/account-databases.ts';
import { decisionWord, positionWord, sponsorName } from '../bill-details/bill-details-words.ts';

// A printed report of bills (core's readBillReport): each bill on a page of its own, with its
// name, title, status, latest action, sponsors and what the user made of it. Shown only on
// paper (print.css); everything is text, whoever wrote it. It is put at the end of the body,
// outside the app: Ionic's tabs lay their pages out in a box of fixed size inside a shadow root
// that no style of ours reaches, and a box of fixed size prints as one page.

function ReportFact({ term, children }: { readonly term: string; readonly children: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd dir="auto">{children}</dd>
    </>
  );
}

function ReportEntry({ entry }: { readonly entry: BillReportEntry }) {
  const { bill, latestAction, latestVote, position, decision, tags, notes } = entry;
  const sponsors = bill.sponsors.filter((sponsor) => sponsor.role !== 'cosponsor');
  const reason = position?.reason?.trim() ?? '';
  return (
    <article className="bill-report-entry">
      <h2>{billFullName(bill)}</h2>
      <p className="bill-report-title" dir="auto">
        {bill.title}
      </p>
      <dl className="bill-report-facts">
        <ReportFact term="Status">{statusWithDate(bill, formatBillDate)}</ReportFact>
        {latestAction !== null && (
          <ReportFact term={billDateLabels.latestAction}>
            {latestActionLine(latestAction, formatBillDate)}
          </ReportFact>
        )}
        {latestVote !== null && (
          <ReportFact term="Latest vote">
            {[
              latestVote.date === null ? null : formatBillDate(latestVote.date),
              latestVote.motion,
              voteResultText(latestVote) || null,
              voteTotalsText(latestVote),
            ]
              .filter((part) => part !== null)
              .join(' · ')}
          </ReportFact>
        )}
        {sponsors.length > 0 && (
          <ReportFact term={sponsors.length === 1 ? 'Sponsor' : 'Sponsors'}>
            {sponsors.map(sponsorName).join('; ')}
          </ReportFact>
        )}
        {position !== null && position.position !== 'none' && (
          <ReportFact term="Position">{positionWord(position.position)}</ReportFact>
        )}
        {reason !== '' && <ReportFact term="Why">{reason}</ReportFact>}
        <ReportFact term="Decision">{decisionWord(decision)}</ReportFact>
        {tags.length > 0 && (
          <ReportFact term="Tags">{tags.map((tag) => tag.name).join('; ')}</ReportFact>
        )}
      </dl>
      {bill.summary !== null && bill.summary.trim() !== '' && (
        <>
          <h3>Summary</h3>
          <p className="bill-report-prose" dir="auto">
            {bill.summary}
          </p>
        </>
      )}
      {notes.length > 0 && (
        <>
          {/* In a workspace's space the notes are the team's, read by every member. */}
          <h3>{activeWorkspaceId() === null ? 'Notes' : 'Team notes'}</h3>
          <ul className="bill-report-notes">
            {notes.map((note) => (
              <li key={note.id}>
                <blockquote dir="auto">{note.quote.exact}</blockquote>
                <p className="bill-report-prose" dir="auto">
                  {note.note}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}

/** The report, for paper only: `title` names the list, `caption` what it holds ("30 bills"). */
export function BillReportView({
  title,
  caption,
  entries,
}: {
  readonly title: string;
  readonly caption: string;
  readonly entries: readonly BillReportEntry[];
}) {
  return createPortal(
    <section className="bill-report print-only" aria-label="Printed report">
      <h1>{title}</h1>
      <p className="bill-report-caption">{caption}</p>
      {entries.map((entry) => (
        <ReportEntry key={entry.bill.id} entry={entry} />
      ))}
    </section>,
    document.body,
  );
}
