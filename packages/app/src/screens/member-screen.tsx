import { memberDisplayName, memberVoteWords } from '@docket/core/bills';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { billDetailsPath, formatBillDate } from '../bills/bill-words.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useMemberRecord } from '../local-store/live-members.ts';
import { plural } from '../ui/formatting.ts';
import '../bill-details/bill-details.css';

export const MEMBER_PATH = '/member';

/**
 * `?id=` of /member. Ionic keeps a page mounted under the next one (a bill opened from here), and
 * the location then names that page; this one keeps its own member.
 */
function useMemberId(): string | null {
  const { pathname, search } = useLocation();
  const idOf = (query: string) => {
    const id = new URLSearchParams(query).get('id');
    return id === null || id.trim() === '' ? null : id;
  };
  const [seen, setSeen] = useState(() => ({ search, id: idOf(search) }));
  if (pathname === MEMBER_PATH && search !== seen.search) {
    setSeen({ search, id: idOf(search) });
  }
  return seen.id;
}

/**
 * /member?id=<key>: a member's votes on the bills this device tracks ("Votes of Rep. Ilhan Omar on
 * 12 tracked bills"), each bill with the votes the member is on, in the bill's order.
 */
export function MemberScreen() {
  const id = useMemberId();
  const record = useMemberRecord(id);
  const name = id === null ? 'a member' : memberDisplayName(id, record?.member ?? undefined);
  const byBill = new Map<string, NonNullable<typeof record>['votes']>();
  for (const vote of record?.votes ?? []) {
    const list = byBill.get(vote.bill.id);
    if (list) list.push(vote);
    else byBill.set(vote.bill.id, [vote]);
  }
  const member = record?.member ?? null;
  const seat = [member?.party, member?.district].filter((part) => part != null).join(' · ');
  return (
    <>
      <PageHeader title={`Votes of ${name}`} backHref="/tabs/tracked" />
      <PageBody>
        <h1 dir="auto">
          Votes of {name} on {plural(byBill.size, 'tracked bill')}
        </h1>
        {record === undefined ? (
          <p role="status">Reading the tracked bills…</p>
        ) : (
          <>
            {seat !== '' && <p dir="auto">{seat}</p>}
            {record?.member === null && (
              <p className="bill-muted">
                No dataset on this device says more about this member than the name on the roll.
              </p>
            )}
            {record?.tracked === 0 ? (
              <p>
                No bills are tracked on this device. <Link to="/tabs/bills">Track bills</Link> to
                see this member&apos;s votes on them.
              </p>
            ) : byBill.size === 0 ? (
              <p>
                {name} is on none of the votes of the {plural(record?.tracked ?? 0, 'tracked bill')}
                .
              </p>
            ) : (
              <ul className="member-votes" aria-label={`Votes of ${name}`}>
                {[...byBill.values()].map((votes) => {
                  const bill = votes[0]?.bill;
                  if (bill === undefined) return null;
                  return (
                    <li key={bill.id} className="bill-vote-card">
                      <p>
                        <Link to={billDetailsPath(bill.id)} dir="auto">
                          {bill.identifier}: {bill.title}
                        </Link>
                      </p>
                      <ul className="member-vote-list">
                        {votes.map((vote) => {
                          const rollCall = bill.votes[vote.voteIndex];
                          return (
                            <li key={vote.voteIndex} dir="auto">
                              <strong>{memberVoteWords[vote.option]}</strong>
                              {` · ${rollCall?.motion ?? 'Vote'}`}
                              {rollCall?.date == null ? '' : ` · ${formatBillDate(rollCall.date)}`}
                            </li>
                          );
                        })}
                      </ul>
                    </li>
                  );
                })}
              </ul>
            )}
          </>
        )}
      </PageBody>
    </>
  );
}
