import { describe, expect, it } from 'vitest';
import type { BillVote } from '../bills/bill.ts';
import { billSchema } from '../bills/bill.ts';
import { memberSchema, memberVoteCounts } from '../bills/member-votes.ts';
import { importBills } from './bill-import.ts';
import { readLegiScanRecords } from './bill-importer-legiscan.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import { fixturesRoot, readFixtures, warnIfFixturesAbsent } from '../test-support/test-files.ts';

// Tests of bill-importer-legiscan.ts: who voted how (issue 41), each roll call's members.

// Who voted how (issue 41). The real dataset's three vote/ files (getRollCall answers of AR's 2012
// fiscal session) belong to bills its bill/ folder does not hold (bill_id 395975, 395978, 395980),
// and its two people/ files are joint committees, not voters. So each roll call is read here with
// a getBill answer made in the test for its bill_id (AR HB 1044's answer with that bill_id and a
// number of its own, listing the roll call as getBill does, totals only), and the voters' people
// files are the real files' shape with a voter's values.
// Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
// is absent (a checkout without shared/ beside it); CI always has it.
describe.skipIf(fixturesRoot === null)('LegiScan members of real roll calls', () => {
  type Json = Record<string, unknown>;
  const asJson = (bytes: Uint8Array) => JSON.parse(decodeUtf8(bytes)) as Json;
  const file = (name: string, value: unknown) => ({
    name,
    bytes: encodeUtf8(JSON.stringify(value)),
  });
  const rollCalls =
    fixturesRoot === null
      ? []
      : readFixtures('legiscan/vote').map((vote) => asJson(vote.bytes).roll_call as Json);
  const rollVotes = (rollCall: Json) =>
    rollCall.votes as { people_id: number; vote_id: number; vote_text: string }[];
  const billFor = (rollCall: Json, index: number) => {
    const answer = asJson(readFixtures('legiscan/bill/HB1044.json')[0]?.bytes ?? new Uint8Array());
    const bill = answer.bill as Json;
    // As getBill lists a vote: its totals, without the members' votes.
    const totals: Json = { ...rollCall };
    delete totals.votes;
    return file(`bill/SB${index + 1}.json`, {
      ...answer,
      bill: { ...bill, bill_id: rollCall.bill_id, bill_number: `SB${index + 1}`, votes: [totals] },
    });
  };
  const voteFiles = fixturesRoot === null ? [] : readFixtures('legiscan/vote');
  const imported = () =>
    importBills([...rollCalls.map(billFor), ...voteFiles, ...readFixtures('legiscan/people')]);

  it("keeps every member of each roll call with their option, in the roll call's order", () => {
    expect(rollCalls).toHaveLength(3);
    const result = imported();
    expect(result.errors).toEqual([]);
    for (const [index, rollCall] of rollCalls.entries()) {
      const bill = result.bills.find((one) => one.identifier === `SB ${index + 1}`);
      // The vote/ file replaced the bill's own entry of the roll call: one vote, with members.
      expect(bill?.votes).toHaveLength(1);
      const vote = bill?.votes[0];
      expect(vote?.members).toEqual(
        rollVotes(rollCall).map((entry) => [
          `legiscan:${entry.people_id}`,
          { Yea: 'yes', Nay: 'no', NV: 'not-voting', Absent: 'absent' }[entry.vote_text],
        ]),
      );
      expect(billSchema.safeParse(bill).success).toBe(true);
    }
  });

  it("agrees with each roll call's yea, nay, nv and absent", () => {
    const result = imported();
    for (const [index, rollCall] of rollCalls.entries()) {
      const vote = result.bills.find((one) => one.identifier === `SB ${index + 1}`)?.votes[0];
      const counts = memberVoteCounts(vote?.members ?? []);
      expect([counts.yes, counts.no, counts['not-voting'], counts.absent]).toEqual([
        rollCall.yea,
        rollCall.nay,
        rollCall.nv,
        rollCall.absent,
      ]);
      expect(vote?.members).toHaveLength(rollCall.total as number);
    }
  });

  it('leaves a voter whose people file is absent out of the directory, keeping the vote', () => {
    // No voter of the real roll calls has a people/ file.
    const result = imported();
    expect(result.members).toEqual([]);
    expect(result.bills.every((bill) => bill.votes[0]?.members?.length === 30)).toBe(true);
  });

  it('says who the voters are from their people files', () => {
    const [rollCall] = rollCalls;
    if (rollCall === undefined) throw new Error('no roll call');
    const [first, second, third] = rollVotes(rollCall);
    // A real people/ file's shape, with a voter's values (and the empty strings LegiScan writes).
    const committee = asJson(
      readFixtures('legiscan/people/8630.json')[0]?.bytes ?? new Uint8Array(),
    );
    const person = (values: Json) =>
      file(`people/${String(values.people_id)}.json`, {
        person: { ...(committee.person as Json), ...values },
      });
    const result = importBills([
      billFor(rollCall, 0),
      ...readFixtures('legiscan/vote'),
      person({
        people_id: first?.people_id,
        party: 'R',
        role: 'Sen',
        name: 'Bill Sample',
        district: 'SD-010',
      }),
      // No name: the first and last names.
      person({
        people_id: second?.people_id,
        party: 'D',
        role: 'Sen',
        name: '',
        first_name: 'Ada',
        last_name: 'Example',
        district: 'SD-022',
      }),
      // Empty party and district: none.
      person({ people_id: third?.people_id, name: 'Cy Blank', role: 'Sen' }),
    ]);
    expect(result.members).toEqual([
      {
        id: `legiscan:${first?.people_id}`,
        name: 'Bill Sample',
        party: 'R',
        district: 'SD-010',
        role: 'Sen',
      },
      {
        id: `legiscan:${second?.people_id}`,
        name: 'Ada Example',
        party: 'D',
        district: 'SD-022',
        role: 'Sen',
      },
      {
        id: `legiscan:${third?.people_id}`,
        name: 'Cy Blank',
        party: null,
        district: null,
        role: 'Sen',
      },
    ]);
    // The other 27 voters keep their votes.
    expect(result.bills[0]?.votes[0]?.members).toHaveLength(30);
  });

  it('reads a real people file as it is (a joint committee: no party, no seat)', () => {
    const rollCall = {
      roll_call_id: 1,
      bill_id: 900001,
      date: '2012-02-14',
      desc: 'A committee roll call',
      yea: 1,
      nay: 0,
      nv: 0,
      absent: 0,
      total: 1,
      passed: 1,
      chamber: 'J',
      votes: [{ people_id: 8630, vote_id: 1, vote_text: 'Yea' }],
    };
    const result = importBills([
      billFor(rollCall, 0),
      file('vote/1.json', { roll_call: rollCall }),
      ...readFixtures('legiscan/people'),
    ]);
    expect(result.members).toEqual([
      {
        id: 'legiscan:8630',
        name: 'Agriculture, State and Public Lands and Water Resources',
        party: null,
        district: null,
        role: 'Jnt',
      },
    ]);
  });

  it("keeps the real bills' own votes as totals only", () => {
    const result = importBills(readFixtures('legiscan'));
    const votes = result.bills.flatMap((bill) => bill.votes);
    expect(votes.length).toBeGreaterThan(0);
    expect(votes.every((vote) => vote.members === undefined)).toBe(true);
    expect(result.members).toEqual([]);
  });
});

describe('LegiScan members, hostile roll calls', () => {
  const bill = {
    bill: {
      bill_id: 1,
      state: 'WA',
      bill_number: 'HB1',
      title: 'A bill',
      session: { session_name: '2023-2024 Regular Session' },
      status: 1,
    },
  };
  const read = (votes: unknown, people: unknown[] = []) => {
    const rollCall = {
      roll_call_id: 9,
      bill_id: 1,
      date: '2023-03-01',
      desc: 'Final passage',
      yea: 2,
      nay: 1,
      nv: 0,
      absent: 0,
      passed: 1,
      chamber: 'H',
      votes,
    };
    const files = [
      { name: 'bill/HB1.json', bytes: encodeUtf8(JSON.stringify(bill)) },
      { name: 'vote/9.json', bytes: encodeUtf8(JSON.stringify({ roll_call: rollCall })) },
      ...people.map((person, index) => ({
        name: `people/${index}.json`,
        bytes: encodeUtf8(JSON.stringify({ person })),
      })),
    ];
    // The record stream itself, unguarded by importBills: every outcome a bill.
    expect([...readLegiScanRecords(files)].map((outcome) => outcome.ok)).toEqual([true]);
    return importBills(files);
  };
  const onlyVote = (result: ReturnType<typeof read>): BillVote | undefined =>
    result.bills[0]?.votes[0];

  it('imports the bill with the good members of a roll call full of garbage, never throwing', () => {
    const result = read(
      [
        { vote_id: 1, vote_text: 'Yea' },
        { people_id: 501, vote_id: 2, vote_text: `Nay${'x'.repeat(10_240)}` },
        { people_id: 0, vote_id: 1, vote_text: 'Yea' },
        { people_id: -5, vote_id: 1, vote_text: 'Yea' },
        { people_id: 1.5, vote_id: 1, vote_text: 'Yea' },
        { people_id: 'abc', vote_id: 1, vote_text: 'Yea' },
        { people_id: {}, vote_id: 1, vote_text: 'Yea' },
        { people_id: '1'.repeat(400), vote_id: 1, vote_text: 'Yea' },
        null,
        'Yea',
        42,
        [501, 1],
        { people_id: 502, vote_id: 1, vote_text: ' yea ' },
        { people_id: '503', vote_text: { text: 'Yea' }, vote_id: 'one' },
        { people_id: 504, vote_id: 1, vote_text: 'Yea' },
      ],
      [
        {
          people_id: 502,
          name: 'Ann\u0007 Smith\u0000',
          party: 'D\u001b',
          district: '',
          role: 'Rep',
        },
        { people_id: 503, name: 'N'.repeat(300), party: 'R', district: 'HD-1', role: 'Rep' },
        { people_id: 504, name: 'Bo Lee', party: 'P'.repeat(150), district: 'HD-2', role: 'Rep' },
        { people_id: 505, name: 'Not voting here', party: 'I', district: 'HD-3', role: 'Rep' },
        { people_id: 'x', name: 'No id' },
      ],
    );
    expect(result.errors).toEqual([]);
    expect(result.bills).toHaveLength(1);
    expect(onlyVote(result)?.members).toEqual([
      // A 10 KB vote_text is no word LegiScan uses: the vote_id (2, Nay) says.
      ['legiscan:501', 'no'],
      ['legiscan:502', 'yes'],
      ['legiscan:503', 'other'],
      ['legiscan:504', 'yes'],
    ]);
    // Control characters dropped, a name past the limit gives no entry, a party past it none.
    expect(result.members).toEqual([
      { id: 'legiscan:502', name: 'Ann Smith', party: 'D', district: null, role: 'Rep' },
      { id: 'legiscan:504', name: 'Bo Lee', party: null, district: 'HD-2', role: 'Rep' },
    ]);
    for (const member of result.members) expect(memberSchema.safeParse(member).success).toBe(true);
    expect(billSchema.safeParse(result.bills[0]).success).toBe(true);
  });

  it('leaves members out where the roll call lists none or no good one', () => {
    expect(onlyVote(read([{ people_id: 7, vote_id: 1 }]))?.members).toEqual([
      ['legiscan:7', 'yes'],
    ]);
    for (const votes of [[], undefined, {}, 'Yea', [{ vote_id: 1 }, null]]) {
      const result = read(votes);
      expect(result.errors).toEqual([]);
      const vote = onlyVote(result);
      expect(vote?.yes).toBe(2);
      expect(vote !== undefined && 'members' in vote).toBe(false);
      expect(result.members).toEqual([]);
    }
  });

  it('keeps at most 5,000 members of a roll call', () => {
    const votes = Array.from({ length: 6_000 }, (_, index) => ({
      people_id: index + 1,
      vote_id: 1,
      vote_text: 'Yea',
    }));
    const result = read(votes);
    expect(result.errors).toEqual([]);
    expect(onlyVote(result)?.members).toHaveLength(5_000);
  });
});

warnIfFixturesAbsent();
