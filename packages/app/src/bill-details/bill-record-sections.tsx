import {
  billDateLabels,
  billDates,
  type BillText,
  jurisdictionName,
  latestActionLine,
  sessionLabel,
  type Sponsor,
  statusWithDate,
} from '@docket/core/bills';
import type { StoredBill } from '@docket/core/store';
import { billListSearch, defaultBillListQuery, sponsorKey } from '@docket/core/lists';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { plural } from '../ui/formatting.ts';
import { formatBillDate } from '../bills/bill-words.ts';
import {
  chamberWord,
  distinctActions,
  sponsorName,
  sponsorRoleWord,
  sponsorSeat,
  documentKindWord,
  textSizeWord,
  timelineWindow,
  voteCountWord,
  voteResultWord,
} from './bill-details-words.ts';

// What the bill record holds, as imported: facts, summary, sponsors, subjects, the actions as a
// timeline, text versions and votes. Everything from a file is rendered as text by React, never
// as HTML, and long words wrap (bill-details.css), so a hostile file can neither run code here
// nor push the layout off the screen.

export function BillFacts({ bill }: { bill: StoredBill }) {
  // Each date under its own label (core's bill-dates.ts), as on the card, the Tracked row and
  // the printed report: the status's date is "since", the newest action's "Latest action".
  const dates = billDates(bill);
  return (
    <>
      <dl className="bill-facts">
        <dt>Status</dt>
        <dd>{statusWithDate(bill, formatBillDate)}</dd>
        <dt>{billDateLabels.latestAction}</dt>
        <dd dir="auto">
          {dates.latestAction === null
            ? 'None listed'
            : latestActionLine(dates.latestAction, formatBillDate)}
        </dd>
        <dt>{billDateLabels.introduced}</dt>
        <dd>{dates.introduced === null ? 'Not recorded' : formatBillDate(dates.introduced)}</dd>
        <dt>Jurisdiction</dt>
        <dd>{jurisdictionName(bill.jurisdiction)}</dd>
        <dt>Session</dt>
        <dd dir="auto">{sessionLabel(bill.jurisdiction, bill.session)}</dd>
        {bill.url !== null && (
          <>
            <dt>Source</dt>
            <dd>
              <a href={bill.url} target="_blank" rel="noopener noreferrer">
                {bill.url}
              </a>
            </dd>
          </>
        )}
      </dl>
      {/* The source's own code ("PASSED:CONCURRENTRES", "REFERRED") is for checking against the
          source, not for reading: folded away. */}
      {bill.rawStatus !== null && (
        <details className="bill-source-code">
          <summary>Status as the source gives it</summary>
          <p>
            <code dir="auto">{bill.rawStatus}</code>
          </p>
        </details>
      )}
    </>
  );
}

export function SummarySection({ summary }: { summary: string | null }) {
  return (
    <section aria-labelledby="bill-summary-heading">
      <h2 id="bill-summary-heading">Summary</h2>
      {summary === null ? (
        <p className="bill-muted">The dataset has no summary of this bill.</p>
      ) : (
        <p className="bill-prose" dir="auto">
          {summary}
        </p>
      )}
    </section>
  );
}

/** The Tracked tab's list of every bill a person sponsors or cosponsors. */
export function sponsorBillsPath(sponsor: Sponsor): string {
  const query = { ...defaultBillListQuery, all: true, sponsor: sponsorKey(sponsor) };
  return `/tabs/tracked?${billListSearch(query)}`;
}

function SponsorItems({ sponsors, linked }: { sponsors: readonly Sponsor[]; linked: boolean }) {
  return (
    <ul className="bill-people">
      {sponsors.map((sponsor, index) => {
        const seat = sponsorSeat(sponsor);
        return (
          <li key={`${index}-${sponsor.externalId ?? sponsor.name}`}>
            {linked ? (
              <>
                <Link to={sponsorBillsPath(sponsor)} dir="auto">
                  {sponsor.name}
                </Link>
                {seat === null ? '' : ` (${seat})`}
              </>
            ) : (
              <span dir="auto">{sponsorName(sponsor)}</span>
            )}{' '}
            <span className="bill-muted">· {sponsorRoleWord(sponsor.role)}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** Cosponsor lists run to hundreds: past this many they start folded. */
const COSPONSORS_OPEN = 12;

/**
 * The sponsors and cosponsors. `linkSponsors`: each name links to the Tracked list of that
 * person's bills (on bill details; not where the bill is someone else's, as in a shared link).
 */
export function SponsorsSection({
  bill,
  linkSponsors = false,
}: {
  bill: StoredBill;
  linkSponsors?: boolean;
}) {
  return (
    <section aria-labelledby="bill-sponsors-heading">
      <h2 id="bill-sponsors-heading">Sponsors</h2>
      {bill.sponsors.length === 0 ? (
        <p className="bill-muted">No sponsors recorded.</p>
      ) : (
        <SponsorItems sponsors={bill.sponsors} linked={linkSponsors} />
      )}
      <h3>Cosponsors ({bill.cosponsors.length.toLocaleString()})</h3>
      {bill.cosponsors.length === 0 ? (
        <p className="bill-muted">No cosponsors recorded.</p>
      ) : bill.cosponsors.length <= COSPONSORS_OPEN ? (
        <SponsorItems sponsors={bill.cosponsors} linked={linkSponsors} />
      ) : (
        <details>
          <summary>Show all {bill.cosponsors.length.toLocaleString()} cosponsors</summary>
          <SponsorItems sponsors={bill.cosponsors} linked={linkSponsors} />
        </details>
      )}
    </section>
  );
}

export function SubjectsSection({ subjects }: { subjects: readonly string[] }) {
  return (
    <section aria-labelledby="bill-subjects-heading">
      <h2 id="bill-subjects-heading">Subjects</h2>
      {subjects.length === 0 ? (
        <p className="bill-muted">No subjects recorded.</p>
      ) : (
        <ul className="bill-subjects" aria-label="Subjects">
          {subjects.map((subject) => (
            <li key={subject} dir="auto">
              {subject}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One action on the timeline: when, in which chamber, and what. */
function TimelineEntry({
  action,
  jurisdiction,
}: {
  readonly action: StoredBill['actions'][number];
  readonly jurisdiction: StoredBill['jurisdiction'];
}) {
  const chamber = chamberWord(action.chamber, jurisdiction);
  return (
    <li>
      <p className="bill-timeline-when">
        <time {...(action.date === null ? {} : { dateTime: action.date })}>
          {formatBillDate(action.date)}
        </time>
        {chamber !== null && <span> · {chamber}</span>}
      </p>
      <p className="bill-prose" dir="auto">
        {action.text}
      </p>
    </li>
  );
}

export function ActionsTimeline({ bill }: { bill: StoredBill }) {
  const [showAll, setShowAll] = useState(false);
  // Newest first: what happened last is what people open a bill for.
  const [oldestFirst, setOldestFirst] = useState(false);
  const listId = useId();
  const { actions, repeats } = distinctActions(bill.actions);
  const count = actions.length;
  const { first, hidden } = timelineWindow(count, showAll);
  const shown = actions
    .slice(first)
    .map((action, index) => ({ action, number: first + index + 1 }));
  if (!oldestFirst) shown.reverse();
  return (
    <section aria-labelledby="bill-actions-heading">
      <h2 id="bill-actions-heading">Actions ({count.toLocaleString()})</h2>
      {count === 0 ? (
        <p className="bill-muted">No actions recorded.</p>
      ) : (
        <>
          <div className="bill-timeline-tools">
            <button
              type="button"
              className="bill-order-toggle"
              aria-controls={listId}
              aria-pressed={oldestFirst}
              onClick={() => {
                setOldestFirst(!oldestFirst);
              }}
            >
              Oldest first
            </button>
          </div>
          {repeats > 0 && (
            <p className="bill-muted">
              Each action is shown once: {plural(repeats, 'repeated entry', 'repeated entries')} of
              the source left out.
            </p>
          )}
          {hidden > 0 && (
            <p className="bill-muted">
              Showing the latest {(count - hidden).toLocaleString()} of {count.toLocaleString()}{' '}
              actions.{' '}
              <button
                type="button"
                className="bill-link-button"
                aria-controls={listId}
                onClick={() => {
                  setShowAll(true);
                }}
              >
                Show all {count.toLocaleString()} actions
              </button>
            </p>
          )}
          <ol
            id={listId}
            className="bill-timeline"
            aria-label={oldestFirst ? 'Actions, oldest first' : 'Actions, newest first'}
            {...(oldestFirst ? { start: first + 1 } : { reversed: true, start: count })}
          >
            {shown.map(({ action, number }) => (
              <TimelineEntry key={number} action={action} jurisdiction={bill.jurisdiction} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

/** What bill details adds to the versions: tools per version, its own view of a text, more. */
export interface TextVersionExtras {
  /** Under a version's line ("Get text", where the text came from). */
  readonly tools?: (version: BillText, index: number) => ReactNode;
  /** The text when shown, in place of the plain block. */
  readonly body?: (version: BillText, index: number, labelledBy: string) => ReactNode;
  /** Under the list ("Compare versions"). */
  readonly after?: ReactNode;
}

function TextVersion({
  version,
  index,
  extras,
}: {
  version: BillText;
  index: number;
  extras: TextVersionExtras;
}) {
  const [open, setOpen] = useState(false);
  const headingId = useId();
  const bodyId = useId();
  return (
    <li className="bill-text-version" aria-labelledby={headingId}>
      <h3 id={headingId} dir="auto">
        {version.type}
        {version.date === null ? '' : ` (${formatBillDate(version.date)})`}
      </h3>
      <p className="bill-muted">
        {version.text === null
          ? 'The dataset has no text for this version.'
          : `Version ${index + 1}: ${textSizeWord(version.text)}.`}{' '}
        {version.url !== null && (
          <a href={version.url} target="_blank" rel="noopener noreferrer">
            Original document
            {documentKindWord(version.mimeType) === null
              ? ''
              : ` (${documentKindWord(version.mimeType)})`}
          </a>
        )}
      </p>
      {extras.tools?.(version, index)}
      {version.text !== null && (
        <>
          <button
            type="button"
            className="bill-link-button"
            aria-expanded={open}
            aria-controls={bodyId}
            aria-describedby={headingId}
            onClick={() => {
              setOpen((was) => !was);
            }}
          >
            {open ? 'Hide text' : 'Show text'}
          </button>
          {/* Rendered only when open: a version can be hundreds of kilobytes. */}
          <div id={bodyId}>
            {open &&
              (extras.body?.(version, index, headingId) ?? (
                <pre className="bill-text-body" dir="auto" tabIndex={0} aria-labelledby={headingId}>
                  {version.text}
                </pre>
              ))}
          </div>
        </>
      )}
    </li>
  );
}

export function TextVersionsSection({
  texts,
  extras = {},
}: {
  texts: readonly BillText[];
  extras?: TextVersionExtras;
}) {
  return (
    <section aria-labelledby="bill-texts-heading">
      <h2 id="bill-texts-heading">Text versions ({texts.length.toLocaleString()})</h2>
      {texts.length === 0 ? (
        <p className="bill-muted">The dataset has no text versions of this bill.</p>
      ) : (
        <ol className="bill-text-versions" aria-label="Text versions">
          {texts.map((version, index) => (
            <TextVersion key={index} version={version} index={index} extras={extras} />
          ))}
        </ol>
      )}
      {extras.after}
    </section>
  );
}

/** Where a vote without its members listed says why, instead of a blank. */
function membersMissingWord(source: StoredBill['source']): string {
  return source === 'congress-json' || source === 'billstatus' || source === 'docket-csv'
    ? 'Member votes are not in this source'
    : 'Member votes were not in the files imported';
}

/**
 * The bill's votes with their totals. Given `members` (bill details), a vote whose members the
 * source lists has a "Members" button that opens them below the votes (`members(index)`); one
 * whose source gives totals only says so.
 */
/** A vote as the counts the source gives, in words. */
interface VoteRow {
  readonly date: string;
  readonly chamber: string;
  readonly motion: string;
  readonly yes: string;
  readonly no: string;
  readonly other: string;
  readonly result: string;
  readonly listed: number;
}

/** One vote as a card, for a phone: when, where, the motion, the counts and its members. */
function VoteCard({ vote, control }: { readonly vote: VoteRow; readonly control: ReactNode }) {
  return (
    <li className="bill-vote-card">
      <p className="bill-timeline-when">
        {vote.date} · {vote.chamber}
      </p>
      <p dir="auto">{vote.motion}</p>
      <dl className="bill-vote-counts">
        <div>
          <dt>Yes</dt>
          <dd>{vote.yes}</dd>
        </div>
        <div>
          <dt>No</dt>
          <dd>{vote.no}</dd>
        </div>
        <div>
          <dt>Other</dt>
          <dd>{vote.other}</dd>
        </div>
        <div>
          <dt>Result</dt>
          <dd>{vote.result}</dd>
        </div>
      </dl>
      {control !== null && <p>{control}</p>}
    </li>
  );
}

/** The votes as a table, where there is room for its columns. */
function VotesTable({
  votes,
  control,
}: {
  readonly votes: readonly VoteRow[];
  /** A vote's "Members" control; null when bill details offers none. */
  readonly control: ((vote: VoteRow, index: number) => ReactNode) | null;
}) {
  return (
    <div
      className="bill-table-scroll bill-votes-wide"
      role="region"
      aria-labelledby="bill-votes-heading"
      tabIndex={0}
    >
      <table className="bill-votes">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Chamber</th>
            <th scope="col">Motion</th>
            <th scope="col">Yes</th>
            <th scope="col">No</th>
            <th scope="col">Other</th>
            <th scope="col">Result</th>
            {control !== null && <th scope="col">Members</th>}
          </tr>
        </thead>
        <tbody>
          {votes.map((vote, index) => (
            <tr key={index}>
              <td>{vote.date}</td>
              <td>{vote.chamber}</td>
              <td dir="auto">{vote.motion}</td>
              <td>{vote.yes}</td>
              <td>{vote.no}</td>
              <td>{vote.other}</td>
              <td>{vote.result}</td>
              {control !== null && <td>{control(vote, index)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function VotesSection({
  bill,
  members,
}: {
  bill: StoredBill;
  members?: (index: number) => ReactNode;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const votes = bill.votes.map((vote): VoteRow => ({
    date: formatBillDate(vote.date),
    chamber: chamberWord(vote.chamber, bill.jurisdiction) ?? 'Not recorded',
    motion: vote.motion,
    yes: voteCountWord(vote.yes),
    no: voteCountWord(vote.no),
    other: voteCountWord(vote.other),
    result: voteResultWord(vote.passed),
    listed: vote.members?.length ?? 0,
  }));
  const missing = membersMissingWord(bill.source);
  const openIndex = open !== null && open < votes.length ? open : null;
  const membersControl = (vote: VoteRow, index: number) =>
    members === undefined ? null : vote.listed === 0 ? (
      <span className="bill-muted">{missing}</span>
    ) : (
      <button
        type="button"
        className="bill-link-button"
        aria-expanded={openIndex === index}
        aria-controls={openIndex === index ? voteMembersElementId(index) : undefined}
        aria-label={`Members (${vote.listed.toLocaleString()}) of the vote ${vote.motion}, ${vote.date}`}
        onClick={() => {
          setOpen(openIndex === index ? null : index);
        }}
      >
        Members ({vote.listed.toLocaleString()})
      </button>
    );
  // A table where there is room for its columns, one card per vote on a phone (the CSS shows one
  // of the two): seven columns in 390 px broke every word letter by letter.
  return (
    <section aria-labelledby="bill-votes-heading">
      <h2 id="bill-votes-heading">Votes ({bill.votes.length.toLocaleString()})</h2>
      {votes.length === 0 ? (
        <p className="bill-muted">No votes recorded.</p>
      ) : (
        <>
          <VotesTable votes={votes} control={members === undefined ? null : membersControl} />
          <ul className="bill-vote-cards" aria-labelledby="bill-votes-heading">
            {votes.map((vote, index) => (
              <VoteCard
                key={index}
                vote={vote}
                control={members === undefined ? null : membersControl(vote, index)}
              />
            ))}
          </ul>
          {members !== undefined && openIndex !== null && (
            <div id={voteMembersElementId(openIndex)}>{members(openIndex)}</div>
          )}
        </>
      )}
    </section>
  );
}

/** The element a vote's "Members" button opens. */
export function voteMembersElementId(index: number): string {
  return `vote-members-${String(index)}`;
}
