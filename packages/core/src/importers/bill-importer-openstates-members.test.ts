import { describe, expect, it } from 'vitest';
import type { BillVote } from '../bills/bill.ts';
import { billSchema } from '../bills/bill.ts';
import {
  memberSchema,
  memberTotalsDifference,
  memberVoteCounts,
  openStatesVoteOption,
} from '../bills/member-votes.ts';
import { importBills } from './bill-import.ts';
import { importOpenStates, readOpenStatesRecords } from './bill-importer-openstates.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  fixturesRoot,
  readFixtures,
  readSamples,
  warnIfFixturesAbsent,
} from '../test-support/test-files.ts';

// Tests of bill-importer-openstates.ts (and openstates-voters.ts): who voted how (issue 41), each
// vote event's members.

// Who voted how (issue 41), in the real scraped vote events: each voter's voter_id is a pseudo-id
// ('~{"name": "Adams"}') and `note` holds the bioguide id.
// Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
// is absent (a checkout without shared/ beside it); CI always has it.
describe.skipIf(fixturesRoot === null)('Open States members of real vote events', () => {
  type Json = Record<string, unknown>;
  interface ScrapedVoter {
    option: string;
    voter_name: string;
    voter_id: string;
    note: string;
  }
  const events =
    fixturesRoot === null
      ? []
      : readFixtures('openstates-scrape')
          .filter((file) => /vote_event/.test(file.name))
          .map((file) => ({
            name: file.name,
            event: JSON.parse(decodeUtf8(file.bytes)) as Json,
          }));
  const result = fixturesRoot === null ? null : importBills(readFixtures('openstates-scrape'));
  const voteOf = (event: Json): BillVote | undefined => {
    const [type, number] = String(event.bill_identifier).toLowerCase().split(' ');
    const bill = result?.bills.find((one) => one.id === `us/119/${type}-${number}`);
    return bill?.votes.find(
      (vote) =>
        vote.motion === event.motion_text && vote.date === String(event.start_date).slice(0, 10),
    );
  };

  it('keeps every voter of each of the 15 vote events, keyed by bioguide id, with their option', () => {
    expect(events).toHaveLength(15);
    for (const { name, event } of events) {
      const voters = event.votes as ScrapedVoter[];
      const vote = voteOf(event);
      expect(vote?.members, name).toHaveLength(voters.length);
      expect(vote?.members, name).toEqual(
        voters.map((voter) => [`bioguide:${voter.note}`, openStatesVoteOption(voter.option)]),
      );
    }
  });

  it("agrees with each event's counts", () => {
    for (const { name, event } of events) {
      const vote = voteOf(event);
      const members = vote?.members ?? [];
      expect(vote === undefined ? 'no vote' : memberTotalsDifference(vote, members), name).toBe(
        null,
      );
      const counts = Object.fromEntries(
        (event.counts as { option: string; value: number }[]).map((count) => [
          count.option,
          count.value,
        ]),
      );
      const listed = memberVoteCounts(members);
      expect([listed.yes, listed.no, listed['not-voting']], name).toEqual([
        counts.yes,
        counts.no,
        counts['not voting'],
      ]);
      // The scraper counts the House's "Present" as abstain and lists those voters as "other".
      expect(listed.other + listed.abstain, name).toBe(counts.abstain);
    }
  });

  it("says who the voters are: the roll's name, nothing more", () => {
    const notes = new Set(
      events.flatMap(({ event }) => (event.votes as ScrapedVoter[]).map((voter) => voter.note)),
    );
    expect(result?.members).toHaveLength(notes.size);
    expect(result?.members.find((member) => member.id === 'bioguide:A000370')).toEqual({
      id: 'bioguide:A000370',
      name: 'Adams',
      party: null,
      district: null,
      role: null,
    });
    for (const member of result?.members ?? []) {
      expect(memberSchema.safeParse(member).success).toBe(true);
    }
    expect(result?.bills.every((bill) => billSchema.safeParse(bill).success)).toBe(true);
  });
});

describe('Open States members: ids, API v3 voters, bulk CSV, hostile lists', () => {
  const scrapedBill = {
    legislative_session: '2023',
    identifier: 'HB 12',
    title: 'A bill',
    from_organization: '~{"classification": "lower"}',
    jurisdiction: { id: 'ocd-jurisdiction/country:us/state:nc/government', name: 'North Carolina' },
    actions: [],
  };
  const event = (votes: unknown) => ({
    identifier: 'nc-2023-lower-1',
    motion_text: 'Third Reading',
    start_date: '2023-03-01',
    result: 'pass',
    organization: '~{"classification": "lower"}',
    legislative_session: '2023',
    bill_identifier: 'HB 12',
    votes,
    counts: [{ option: 'yes', value: 2 }],
  });
  const scrapeFiles = (votes: unknown) => [
    { name: 'HB12/metadata.json', bytes: encodeUtf8(JSON.stringify(scrapedBill)) },
    { name: 'HB12/logs/vote_event.json', bytes: encodeUtf8(JSON.stringify(event(votes))) },
  ];
  const readScrape = (votes: unknown) => importOpenStates(scrapeFiles(votes));
  const person = 'ocd-person/0a1b2c3d-0000-4000-8000-00000000abcd';

  it('trusts a note only as a bioguide id of exactly its shape, and an ocd-person id first', () => {
    const result = readScrape([
      { option: 'yes', voter_name: 'Adams', voter_id: '~{"name": "Adams"}', note: 'A000370' },
      { option: 'no', voter_name: 'Baker', voter_id: '~{"name": "Baker"}', note: 'a000370' },
      { option: 'no', voter_name: 'Cole', voter_id: '~{"name": "Cole"}', note: ' A000371' },
      { option: 'no', voter_name: 'Diaz', voter_id: '~{"name": "Diaz"}', note: 'A0003712' },
      { option: 'no', voter_name: 'Eng', voter_id: '~{"name": "Eng"}', note: 'Present' },
      { option: 'excused', voter_name: 'Fox', voter_id: person, note: 'F000001' },
      { option: 'not voting', voter_name: 'Gray', voter_id: 'ocd-person/not-a-uuid' },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.bills[0]?.votes[0]?.members).toEqual([
      ['bioguide:A000370', 'yes'],
      ['name:us-nc:lower:Baker', 'no'],
      ['name:us-nc:lower:Cole', 'no'],
      ['name:us-nc:lower:Diaz', 'no'],
      ['name:us-nc:lower:Eng', 'no'],
      [`openstates:${person}`, 'excused'],
      ['name:us-nc:lower:Gray', 'not-voting'],
    ]);
  });

  it("reads API v3 voters: the ocd-person id, the person's name, party, seat and title", () => {
    const bill = {
      id: 'ocd-bill/0b6c2a6e-1111-4c1a-9d7e-3f3f3f3f3f09',
      identifier: 'SB 5',
      title: 'A bill',
      session: '135',
      jurisdiction: { id: 'ocd-jurisdiction/country:us/state:oh/government', name: 'Ohio' },
      votes: [
        {
          motion_text: 'Passed',
          start_date: '2023-05-31',
          result: 'pass',
          organization: { classification: 'upper' },
          counts: [
            { option: 'yes', value: 1 },
            { option: 'no', value: 1 },
            { option: 'absent', value: 1 },
          ],
          votes: [
            {
              option: 'yes',
              voter_name: 'Whitcombe',
              voter: {
                id: person,
                name: 'Jamal Whitcombe',
                party: 'Republican',
                current_role: { title: 'Senator', district: '12', org_classification: 'upper' },
              },
            },
            { option: 'no', voter_name: 'Okafor', voter: null },
            { option: 'absent', voter_name: 'Ruiz' },
          ],
        },
      ],
    };
    const result = importBills([
      { name: 'bills.json', bytes: encodeUtf8(JSON.stringify({ results: [bill] })) },
    ]);
    expect(result.errors).toEqual([]);
    const vote = result.bills[0]?.votes[0];
    expect(vote?.members).toEqual([
      [`openstates:${person}`, 'yes'],
      ['name:us-oh:upper:Okafor', 'no'],
      ['name:us-oh:upper:Ruiz', 'absent'],
    ]);
    expect(vote === undefined ? 'no vote' : memberTotalsDifference(vote, vote.members ?? [])).toBe(
      null,
    );
    expect(result.members).toEqual([
      {
        id: `openstates:${person}`,
        name: 'Jamal Whitcombe',
        party: 'Republican',
        district: '12',
        role: 'Senator',
      },
      { id: 'name:us-oh:upper:Okafor', name: 'Okafor', party: null, district: null, role: null },
      { id: 'name:us-oh:upper:Ruiz', name: 'Ruiz', party: null, district: null, role: null },
    ]);
  });

  it('leaves members out of a vote whose voters the source does not list', () => {
    // The hand-made API v3 page's vote lists `votes: []`.
    const result = importBills(readSamples('openstates/api-v3'));
    const votes = result.bills.flatMap((bill) => bill.votes);
    expect(votes).toHaveLength(1);
    expect('members' in (votes[0] ?? {})).toBe(false);
    expect(result.members).toEqual([]);
    // Nor does a scraped vote event whose list holds no voter that can be named.
    const unnamed = readScrape([{ option: 'yes' }, { option: 'no', voter_name: ' ' }]);
    expect('members' in (unnamed.bills[0]?.votes[0] ?? {})).toBe(false);
    expect(readScrape([{ option: 'no', voter_name: 'Ruiz' }]).bills[0]?.votes[0]?.members).toEqual([
      ['name:us-nc:lower:Ruiz', 'no'],
    ]);
  });

  it('reads the bulk CSV vote_people table: ocd-person ids, bioguide notes, names', () => {
    const csv = (name: string, lines: string[]) => ({
      name: `VT/2023-2024/VT_2023-2024_${name}.csv`,
      bytes: encodeUtf8(`${lines.join('\n')}\n`),
    });
    const files = [
      csv('bills', [
        'id,identifier,title,classification,subject,session_identifier,jurisdiction,organization_classification',
        'ocd-bill/1,H 1,A bill,[],[],2023-2024,Vermont,lower',
      ]),
      csv('votes', [
        'id,identifier,motion_text,motion_classification,start_date,result,organization_id,bill_id,bill_action_id,jurisdiction,session_identifier',
        'ocd-vote/e1,R-1,Shall the bill pass?,[],2023-03-16,pass,,ocd-bill/1,,Vermont,2023-2024',
        ',R-2,A vote without an id,[],2023-03-17,pass,,ocd-bill/1,,Vermont,2023-2024',
      ]),
      csv('vote_counts', ['id,vote_event_id,option,value', 'c1,ocd-vote/e1,yes,3']),
      csv('vote_people', [
        'id,vote_event_id,option,voter_name,voter_id,note',
        `p1,ocd-vote/e1,yes,Abernathy,${person},`,
        'p2,ocd-vote/e1,yes,Brook,,B000123',
        'p3,ocd-vote/e1,yes,Cole,,',
        'p4,,no,Nobody,,',
      ]),
    ];
    const result = importBills(files);
    expect(result.errors).toEqual([]);
    const [withPeople, withoutId] = result.bills[0]?.votes ?? [];
    expect(withPeople?.members).toEqual([
      [`openstates:${person}`, 'yes'],
      ['bioguide:B000123', 'yes'],
      ['name:us-vt:?:Cole', 'yes'],
    ]);
    expect(withoutId?.members).toBeUndefined();
  });

  it('imports the bill with the good voters of a list full of garbage, never throwing', () => {
    const files = scrapeFiles([
      { option: 'yes', voter_name: 'Adams', note: 'A000370' },
      { option: 'yes' },
      { option: 'yes', voter_name: '' },
      { option: 'yes', voter_name: '\u0000\u0007' },
      { option: 'yes', voter_name: 'N'.repeat(300) },
      { option: 'y'.repeat(10_240), voter_name: 'Long Option' },
      { option: 'no', voter_name: 'Bell\u0007 Ann' },
      { option: { yes: true }, voter_name: 'Odd Option' },
      { option: 'no', voter_name: { name: 'x' }, voter: { id: 42, name: 'Cruz' } },
      null,
      'Adams',
      [1, 2],
    ]);
    // The record stream itself, unguarded by importBills: one outcome, the bill.
    expect([...readOpenStatesRecords(files)].map((outcome) => outcome.ok)).toEqual([true]);
    const result = importOpenStates(files);
    expect(result.errors).toEqual([]);
    expect(result.bills).toHaveLength(1);
    expect(result.bills[0]?.votes[0]?.members).toEqual([
      ['bioguide:A000370', 'yes'],
      ['name:us-nc:lower:Long Option', 'other'],
      ['name:us-nc:lower:Bell Ann', 'no'],
      ['name:us-nc:lower:Odd Option', 'other'],
      ['name:us-nc:lower:Cruz', 'no'],
    ]);
    expect(billSchema.safeParse(result.bills[0]).success).toBe(true);
  });
});

warnIfFixturesAbsent();
