import { statusWithDate } from '@docket/core/bills';
import { type BackupContents, countBackup } from '@docket/core/backups';
import type { Annotation, Tag } from '@docket/core/store';
import { IonButton } from '@ionic/react';
import { useState, type CSSProperties } from 'react';
import {
  ActionsTimeline,
  BillFacts,
  SponsorsSection,
  SubjectsSection,
  SummarySection,
  TextVersionsSection,
  VotesSection,
} from '../bill-details/bill-record-sections.tsx';
import '../bill-details/bill-details.css';
import { formatBillDate } from '../bills/bill-words.ts';
import { describeCounts, kindWords } from './backup-words.ts';
import { plural } from '../ui/formatting.ts';
import './backups.css';
import '../ui/forms.css';

// What a backup or a shared link holds, read-only: the counts, then each bill with its tags,
// position and its reason ("Why"), triage decision and notes. Everything is rendered as text,
// whoever wrote it.

/** Bills drawn at once; the rest are counted (a backup rarely holds more than this). */
const SHOWN_BILLS = 300;

const positionWords = { support: 'Support', oppose: 'Oppose', watch: 'Watch', none: 'None' };
const decisionWords = { track: 'Tracked', dismiss: 'Dismissed', later: 'Later' };

/** Tags as chips in their colours: the backup's tags, and each bill's. */
function TagChips({ tags, label }: { readonly tags: readonly Tag[]; readonly label: string }) {
  return (
    <ul className="backup-tag-chips" aria-label={label}>
      {tags.map((tag) => (
        <li
          key={tag.id}
          className="backup-tag-chip"
          dir="auto"
          style={{ '--tag-colour': tag.color } as CSSProperties}
        >
          {tag.name}
        </li>
      ))}
    </ul>
  );
}

/** What a backup holds of each bill, by the bill's id. */
interface ByBill {
  readonly tagsOf: ReadonlyMap<string, Tag[]>;
  readonly notesOf: ReadonlyMap<string, Annotation[]>;
  readonly positions: ReadonlyMap<string, BackupContents['positions'][number]>;
  readonly decisions: ReadonlyMap<string, BackupContents['decisions'][number]['decision']>;
}

function indexByBill(contents: BackupContents): ByBill {
  const tags = new Map<string, Tag>(contents.tags.map((tag) => [tag.id, tag]));
  const tagsOf = new Map<string, Tag[]>();
  for (const row of contents.billTags) {
    const tag = tags.get(row.tagId);
    if (tag === undefined) continue;
    tagsOf.set(row.billId, [...(tagsOf.get(row.billId) ?? []), tag]);
  }
  const notesOf = new Map<string, Annotation[]>();
  for (const note of contents.annotations) {
    notesOf.set(note.billId, [...(notesOf.get(note.billId) ?? []), note]);
  }
  const positions = new Map(contents.positions.map((row) => [row.billId, row]));
  const decisions = new Map(contents.decisions.map((row) => [row.billId, row.decision]));
  return { tagsOf, notesOf, positions, decisions };
}

/** One bill of the backup: its status, the owner's decision, position and why, tags and notes. */
function BackupBillItem({
  bill,
  of,
  heading: Heading,
  open,
  onToggle,
}: {
  readonly bill: BackupContents['bills'][number];
  readonly of: ByBill;
  readonly heading: 'h3' | 'h4';
  /** The bill's own view is open below it. */
  readonly open: boolean;
  readonly onToggle: () => void;
}) {
  const billTags = of.tagsOf.get(bill.id) ?? [];
  const notes = of.notesOf.get(bill.id) ?? [];
  const position = of.positions.get(bill.id)?.position;
  const reason = of.positions.get(bill.id)?.reason?.trim() ?? '';
  const decision = of.decisions.get(bill.id);
  return (
    <li className="backup-bill">
      <Heading dir="auto">
        {bill.identifier}: {bill.title}
      </Heading>
      <p>
        {statusWithDate(bill, formatBillDate)}
        {decision === undefined ? '' : ` · ${decisionWords[decision]}`}
        {position === undefined || position === 'none'
          ? ''
          : ` · Position: ${positionWords[position]}`}
      </p>
      {/* The position's reason, as its owner typed it: text, never markup. */}
      {reason !== '' && (
        <dl className="backup-reason">
          <dt>Why</dt>
          <dd className="backup-text" dir="auto">
            {reason}
          </dd>
        </dl>
      )}
      {billTags.length > 0 && <TagChips tags={billTags} label={`Tags of ${bill.identifier}`} />}
      <IonButton size="small" fill="outline" aria-expanded={open} onClick={onToggle}>
        {open ? 'Hide the bill' : `Show the bill ${bill.identifier}`}
      </IonButton>
      {open && (
        // The app's own bill view, read-only: what the record holds, as bill-details
        // shows it.
        <div className="backup-bill-details">
          <BillFacts bill={bill} />
          <SummarySection summary={bill.summary} />
          <SponsorsSection bill={bill} />
          <SubjectsSection subjects={bill.subjects} />
          <ActionsTimeline bill={bill} />
          <TextVersionsSection texts={bill.texts} />
          <VotesSection bill={bill} />
        </div>
      )}
      {notes.length > 0 && (
        <ul className="backup-notes" aria-label={`Notes on ${bill.identifier}`}>
          {notes.map((note) => (
            <li key={note.id}>
              {note.quote.exact !== '' && <blockquote dir="auto">“{note.quote.exact}”</blockquote>}
              <p className="backup-text" dir="auto">
                {note.note === '' ? 'A highlight without a note.' : note.note}
              </p>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function BackupContentsView({
  contents,
  headingLevel = 2,
  summary,
  counts: showCounts = true,
  ordered = false,
}: {
  readonly contents: BackupContents;
  readonly headingLevel?: 2 | 3;
  /** The sentence that says what it holds; by default the counts of each kind. */
  readonly summary?: string;
  /** The table of counts of each kind ("Datasets 0"): the owner's view, not a reader's. */
  readonly counts?: boolean;
  /** The bills in an ordered list: a shared list keeps its order. */
  readonly ordered?: boolean;
}) {
  const counts = countBackup(contents);
  const byBill = indexByBill(contents);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const BillList = ordered ? 'ol' : 'ul';
  const BillHeading = headingLevel === 2 ? 'h3' : 'h4';
  const shown = contents.bills.slice(0, SHOWN_BILLS);
  // One bill open at a time: the bill view's sections carry ids of their own.
  const [open, setOpen] = useState<string | null>(null);

  return (
    <>
      <p>{summary ?? `${describeCounts(counts)}.`}</p>
      {showCounts && (
        <dl className="record-facts">
          <dt>Bills</dt>
          <dd>{counts.bills}</dd>
          {(Object.keys(kindWords) as (keyof typeof kindWords)[]).map((kind) => (
            <div key={kind} style={{ display: 'contents' }}>
              <dt>{kindWords[kind]}</dt>
              <dd>{counts[kind]}</dd>
            </div>
          ))}
        </dl>
      )}
      {contents.tags.length > 0 && (
        <>
          <Heading>Tags</Heading>
          <TagChips tags={contents.tags} label="Tags" />
        </>
      )}
      <Heading>Bills</Heading>
      {contents.bills.length === 0 ? (
        <p>No bills.</p>
      ) : (
        <BillList className="record-list" aria-label="Bills">
          {shown.map((bill) => (
            <BackupBillItem
              key={bill.id}
              bill={bill}
              of={byBill}
              heading={BillHeading}
              open={open === bill.id}
              onToggle={() => {
                setOpen(open === bill.id ? null : bill.id);
              }}
            />
          ))}
        </BillList>
      )}
      {contents.bills.length > shown.length && (
        <p>
          Showing the first {plural(shown.length, 'bill')} of {contents.bills.length}.
        </p>
      )}
    </>
  );
}
