import { describe, expect, it } from 'vitest';
import type { MemberVote } from './member-votes.ts';
import {
  isMemberVoteList,
  latestVote,
  legiscanVoteOption,
  memberDisplayName,
  memberVotesOnBills,
  voteTotalsText,
  memberTotalsDifference,
  memberVoteCounts,
  memberVoteSchema,
  openStatesVoteOption,
} from './member-votes.ts';

describe('legiscanVoteOption', () => {
  it("reads LegiScan's vote_text, whatever its case and spacing", () => {
    expect(
      ['Yea', ' yea ', 'Aye', 'Nay', 'NV', 'Absent', 'Excused', 'Present'].map((text) =>
        legiscanVoteOption(text, null),
      ),
    ).toEqual(['yes', 'yes', 'yes', 'no', 'not-voting', 'absent', 'excused', 'present']);
  });

  it('falls back on vote_id (1 Yea, 2 Nay, 3 NV, 4 Absent), then other', () => {
    expect([1, 2, 3, 4, 5, null].map((id) => legiscanVoteOption('?', id))).toEqual([
      'yes',
      'no',
      'not-voting',
      'absent',
      'other',
      'other',
    ]);
    expect(legiscanVoteOption(null, 2)).toBe('no');
    // The words win over the id.
    expect(legiscanVoteOption('Nay', 1)).toBe('no');
    expect(legiscanVoteOption('x'.repeat(10_240), null)).toBe('other');
  });
});

describe('openStatesVoteOption', () => {
  it("reads Open States' options, with spaces, hyphens or underscores", () => {
    expect(
      [
        'yes',
        'no',
        'not voting',
        'not-voting',
        'NOT_VOTING',
        'absent',
        'excused',
        'present',
        'abstain',
        'abstention',
        'other',
        'excused absence',
        '',
        null,
      ].map(openStatesVoteOption),
    ).toEqual([
      'yes',
      'no',
      'not-voting',
      'not-voting',
      'not-voting',
      'absent',
      'excused',
      'present',
      'abstain',
      'abstain',
      'other',
      'other',
      'other',
      'other',
    ]);
  });
});

describe('memberTotalsDifference', () => {
  const members: MemberVote[] = [
    ['legiscan:1', 'yes'],
    ['legiscan:2', 'yes'],
    ['legiscan:3', 'no'],
    ['legiscan:4', 'absent'],
    ['legiscan:5', 'not-voting'],
  ];

  it('is null when the totals agree with the members, everyone else counted as other', () => {
    expect(memberTotalsDifference({ yes: 2, no: 1, other: 2 }, members)).toBeNull();
    // A total the source does not give is not compared.
    expect(memberTotalsDifference({ yes: 2, no: null, other: null }, members)).toBeNull();
    expect(memberVoteCounts(members)).toMatchObject({ yes: 2, no: 1, absent: 1, 'not-voting': 1 });
  });

  it('says the difference in words', () => {
    expect(memberTotalsDifference({ yes: 3, no: 1, other: null }, members)).toBe(
      "The source's totals say 3 yes, 1 no; its members listed 2 yes, 1 no, 2 other.",
    );
  });
});

describe('isMemberVoteList', () => {
  it('agrees with memberVoteSchema', () => {
    const lists: unknown[] = [
      [['legiscan:8641', 'yes']],
      [['name:us:lower:Amodei (NV)', 'not-voting']],
      [],
      null,
      [['legiscan:8641', 'maybe']],
      [['Legiscan:8641', 'yes']],
      [['legiscan:', 'yes']],
      [['legiscan:86\u000741', 'yes']],
      [['legiscan:8641']],
      [['legiscan:8641', 'yes', 'extra']],
      [[`legiscan:${'1'.repeat(300)}`, 'yes']],
      Array.from({ length: 5_001 }, (_, index) => [`legiscan:${index + 1}`, 'yes']),
    ];
    for (const list of lists) {
      const schema = memberVoteSchema.array().min(1).max(5_000).safeParse(list).success;
      expect(isMemberVoteList(list), JSON.stringify(list).slice(0, 60)).toBe(schema);
    }
    expect(isMemberVoteList([['legiscan:8641', 'yes']])).toBe(true);
  });
});

describe('memberDisplayName', () => {
  it('gives a title the source names, else the name alone, else what the key says', () => {
    const member = { id: 'legiscan:503', name: 'Carmen Ostrowski', party: 'D', district: null };
    expect(memberDisplayName('legiscan:503', { ...member, role: 'Rep' })).toBe(
      'Rep. Carmen Ostrowski',
    );
    expect(memberDisplayName('legiscan:503', { ...member, role: 'Sen' })).toBe(
      'Sen. Carmen Ostrowski',
    );
    expect(memberDisplayName('legiscan:503', { ...member, role: 'Jnt' })).toBe('Carmen Ostrowski');
    expect(memberDisplayName('legiscan:503', undefined)).toBe('LegiScan person 503');
    expect(memberDisplayName('name:us:lower:Amodei (NV)', undefined)).toBe('Amodei (NV)');
    expect(memberDisplayName('bioguide:O000173', undefined)).toBe('Member O000173');
  });
});

describe('memberVotesOnBills', () => {
  it("lists a member's votes bill by bill, and none where the member is not on the roll", () => {
    const vote = (members?: MemberVote[]) => (members === undefined ? {} : { members });
    const bills = [
      {
        id: 'a',
        votes: [
          vote([['legiscan:1', 'yes']]),
          vote(),
          vote([
            ['legiscan:1', 'no'],
            ['legiscan:2', 'yes'],
          ]),
        ],
      },
      { id: 'b', votes: [vote([['legiscan:2', 'absent']])] },
    ];
    expect(
      memberVotesOnBills(bills, 'legiscan:1').map((v) => [v.bill.id, v.voteIndex, v.option]),
    ).toEqual([
      ['a', 0, 'yes'],
      ['a', 2, 'no'],
    ]);
    expect(memberVotesOnBills(bills, 'legiscan:2').map((v) => [v.bill.id, v.option])).toEqual([
      ['a', 'yes'],
      ['b', 'absent'],
    ]);
    expect(memberVotesOnBills(bills, 'legiscan:3')).toEqual([]);
  });
});

describe('latestVote and voteTotalsText', () => {
  const vote = (date: string | null, motion: string) => ({
    date,
    motion,
    yes: 10,
    no: null,
    other: 0,
    passed: true,
  });
  it('picks the newest dated vote, the later of equals, an undated one only when alone', () => {
    expect(latestVote([])).toBeNull();
    expect(latestVote([vote(null, 'voice')])?.motion).toBe('voice');
    expect(
      latestVote([vote('2025-02-01', 'b'), vote(null, 'voice'), vote('2025-01-01', 'a')])?.motion,
    ).toBe('b');
    expect(latestVote([vote('2025-02-01', 'b'), vote('2025-02-01', 'c')])?.motion).toBe('c');
  });
  it('says each total, and a count the source lacks as not recorded', () => {
    expect(voteTotalsText({ ...vote(null, 'x'), yes: 1234 })).toBe(
      '1,234 yes, no not recorded, 0 other',
    );
  });
});
