import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { readLegiScanRecords } from '../importers/bill-importer-legiscan.ts';
import { readSamples } from '../test-support/test-files.ts';
import {
  legiscanBillUrl,
  legiscanMasterListRawUrl,
  legiscanPersonUrl,
  legiscanRollCallUrl,
  parseLegiscanBill,
  parseLegiscanMasterListRaw,
  parseLegiscanPerson,
  parseLegiscanRollCall,
} from './legiscan-bill-api.ts';

// The answers are the project's own hand-made samples in the manual's shapes
// (test-samples/legiscan-api/ and legiscan/getbill/).

const sample = (path: string) => {
  const file = readSamples(path)[0];
  if (file === undefined) throw new Error(`no sample ${path}`);
  return file.bytes;
};
const bytes = (value: unknown) => encodeUtf8(JSON.stringify(value));

describe("LegiScan's per-bill operations", () => {
  it('builds getMasterListRaw, getBill, getRollCall and getPerson as the manual spells them', () => {
    expect(legiscanMasterListRawUrl('k&y', 2100)).toBe(
      'https://api.legiscan.com/?key=k%26y&op=getMasterListRaw&id=2100',
    );
    expect(legiscanBillUrl('key', 1900001)).toBe(
      'https://api.legiscan.com/?key=key&op=getBill&id=1900001',
    );
    expect(legiscanRollCallUrl('key', 7001)).toBe(
      'https://api.legiscan.com/?key=key&op=getRollCall&id=7001',
    );
    expect(legiscanPersonUrl('key', 501)).toBe(
      'https://api.legiscan.com/?key=key&op=getPerson&id=501',
    );
  });

  it("reads the master list's bills and skips its session record", () => {
    expect(parseLegiscanMasterListRaw(sample('legiscan-api/getmasterlistraw.json'))).toEqual([
      { bill_id: 1900001, number: 'HB1001', change_hash: '0f0e0d0c0b0a09080706050403020100' },
      { bill_id: 1900002, number: 'HB1002', change_hash: '2f2e2d2c2b2a29282726252423222120' },
      { bill_id: 1900003, number: 'SB5003', change_hash: '3f3e3d3c3b3a39383736353433323130' },
    ]);
  });

  it('says what LegiScan refused and what it cannot read, never the address', () => {
    const refused = bytes({ status: 'ERROR', alert: { message: 'Unknown session id' } });
    expect(() => parseLegiscanMasterListRaw(refused)).toThrow(
      'LegiScan refused to send the list of bills: Unknown session id',
    );
    const broken = bytes({ status: 'OK', masterlist: { '0': { bill_id: 'x' } } });
    expect(() => parseLegiscanMasterListRaw(broken)).toThrow(
      "LegiScan's list of bills has an entry Docket cannot read (0).",
    );
    expect(() => parseLegiscanMasterListRaw(encodeUtf8('<html>'))).toThrow(
      'LegiScan answered the list of bills with something Docket cannot read.',
    );
  });

  it("reads a bill's change_hash, votes and sponsors, and refuses another bill", () => {
    expect(parseLegiscanBill(sample('legiscan/getbill/HB1001.json'), 1900001)).toEqual({
      billId: 1900001,
      changeHash: '0f0e0d0c0b0a09080706050403020100',
      rollCallIds: [7001],
      peopleIds: [502, 501],
    });
    expect(() => parseLegiscanBill(sample('legiscan/getbill/HB1001.json'), 1900002)).toThrow(
      'LegiScan answered bill 1900002 with something Docket cannot read.',
    );
  });

  it("reads a roll call's voters leniently: each once, garbage passed over, none without a list", () => {
    const answer = (votes: unknown) =>
      bytes({ status: 'OK', roll_call: { roll_call_id: 9, bill_id: 1, votes } });
    expect(
      parseLegiscanRollCall(
        answer([
          { people_id: 7, vote_id: 1 },
          { people_id: 7, vote_id: 1 },
          { people_id: 0 },
          { people_id: '8' },
          { vote_id: 1 },
          null,
          { people_id: 9, vote_text: 'x'.repeat(10_240) },
        ]),
        9,
        1,
      ),
    ).toEqual([7, 9]);
    expect(parseLegiscanRollCall(answer(undefined), 9, 1)).toEqual([]);
    expect(parseLegiscanRollCall(answer({ 0: { people_id: 7 } }), 9, 1)).toEqual([]);
  });

  it('checks a roll call and a person are the ones asked for', () => {
    // The roll call's voters, whom getPerson tells where they are not known.
    expect(
      parseLegiscanRollCall(sample('legiscan-api/getrollcall-7001.json'), 7001, 1900001),
    ).toEqual([501, 502]);
    expect(() => {
      parseLegiscanRollCall(sample('legiscan-api/getrollcall-7001.json'), 7001, 1900002);
    }).toThrow('LegiScan answered vote 7001 with something Docket cannot read.');
    expect(() => {
      parseLegiscanPerson(sample('legiscan-api/getperson-501.json'), 501);
    }).not.toThrow();
    expect(() => {
      parseLegiscanPerson(sample('legiscan-api/getperson-501.json'), 502);
    }).toThrow('LegiScan answered legislator 502 with something Docket cannot read.');
  });

  it('hands the answers to the LegiScan importer as they came, the vote and the person joined in', () => {
    const outcomes = [
      ...readLegiScanRecords([
        { name: 'bill/1900001.json', bytes: sample('legiscan/getbill/HB1001.json') },
        { name: 'vote/7001.json', bytes: sample('legiscan-api/getrollcall-7001.json') },
        { name: 'people/501.json', bytes: sample('legiscan-api/getperson-501.json') },
      ]),
    ];
    const bills = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.bill] : []));
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
    expect(bills).toHaveLength(1);
    expect(bills[0]?.votes.map((vote) => [vote.motion, vote.yes, vote.no])).toEqual([
      ['Third reading, final passage', 90, 6],
    ]);
    // Its members' votes, and who 501 is (502 has no getPerson answer here: no entry).
    expect(bills[0]?.votes[0]?.members).toEqual([
      ['legiscan:501', 'yes'],
      ['legiscan:502', 'no'],
    ]);
    const [outcome] = outcomes;
    expect(outcome?.ok === true ? outcome.members?.map((member) => member.id) : null).toEqual([
      'legiscan:501',
    ]);
  });
});
