import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIELDS, formatReport, measureFidelity } from '../src/fidelity.ts';
import { readSourceFields } from '../src/fidelity-source-fields.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = resolve(repoRoot, '../shared/fixtures');
const fixturesPresent = existsSync(fixtures);

describe('npm run fidelity', () => {
  it('reads the sources’ own fields without the importers', () => {
    const xml = `<?xml version="1.0"?><billStatus><bill><title>Safer &#8212; Act</title>
      <introducedDate>2024-03-05</introducedDate>
      <sponsors><item><bioguideId>A000001</bioguideId></item></sponsors>
      <cosponsors><item><bioguideId>B1</bioguideId></item>
        <item><bioguideId>B2</bioguideId><sponsorshipWithdrawnDate>2024-04-01</sponsorshipWithdrawnDate></item></cosponsors>
      <latestAction><actionDate>2024-04-10</actionDate><text>Became  Public Law.</text></latestAction>
      </bill></billStatus>`;
    expect(readSourceFields(new TextEncoder().encode(xml))).toEqual({
      format: 'billstatus',
      latestActionText: 'Became Public Law.',
      latestActionDate: '2024-04-10',
      title: 'Safer — Act',
      introducedDate: '2024-03-05',
      sponsor: 'A000001',
      cosponsorCount: 1,
      status: 'not enacted',
    });
    const voteEvent = { legislative_session: '119', identifier: 'HCONRES 1', motion_text: 'x' };
    expect(readSourceFields(new TextEncoder().encode(JSON.stringify(voteEvent)))).toBeNull();
  });

  it('reads the status where the source gives one, in Docket’s words', () => {
    const read = (value: unknown) =>
      readSourceFields(new TextEncoder().encode(JSON.stringify(value)))?.status;
    const dataJson = (status: string, actions: string[] = []) => ({
      bill_id: 'hr1-116',
      bill_type: 'hr',
      status,
      actions: actions.map((code) => ({ status: code })),
    });
    expect(read(dataJson('REFERRED'))).toBe('in-committee');
    expect(read(dataJson('PASS_OVER:HOUSE'))).toBe('passed-one-chamber');
    expect(read(dataJson('PASSED:SIMPLERES'))).toBe('passed-one-chamber');
    expect(read(dataJson('PASS_BACK:SENATE'))).toBe('passed-both');
    expect(read(dataJson('ENACTED:SIGNED'))).toBe('enacted');
    expect(read(dataJson('PROV_KILL:SUSPENSIONFAILED'))).toBe('failed');
    // A failed cloture vote leaves the bill where it stood (issue 15, defect 3).
    expect(
      read(
        dataJson('PROV_KILL:CLOTUREFAILED', [
          'REFERRED',
          'PASS_OVER:HOUSE',
          'PROV_KILL:CLOTUREFAILED',
        ]),
      ),
    ).toBe('passed-one-chamber');
    const legiScan = (status: number) => ({ bill: { bill_id: 1, status } });
    expect([1, 2, 3, 4, 5, 6].map((code) => read(legiScan(code)))).toEqual([
      'introduced',
      'passed-one-chamber',
      'passed-both',
      'enacted',
      'vetoed',
      'failed',
    ]);
    const openStates = (classification: string[]) => ({
      legislative_session: '119',
      title: 'x',
      actions: [{ description: 'x', date: '2025-01-01', classification }],
    });
    expect(read(openStates(['became-law']))).toBe('enacted');
    expect(read(openStates(['introduction']))).toBe('not enacted');
  });

  it('measures the hand-made samples and prints a table per format and field', () => {
    const { report } = measureFidelity(join(repoRoot, 'packages/core/test-samples'));
    expect([...report.keys()].sort()).toEqual(
      expect.arrayContaining(['billstatus', 'congress-json', 'legiscan', 'openstates']),
    );
    const table = formatReport(report, 0);
    expect(table.split('\n')[0]).toMatch(/^format\s+field\s+agree\s+of\s+agreement$/);
  });

  // Real files: skipped only where ../shared/fixtures is absent (a checkout without shared/).
  it.skipIf(!fixturesPresent)(
    'on ../shared/fixtures: every field of every format at 99.5 % or more',
    () => {
      const { report } = measureFidelity(fixtures);
      expect([...report.keys()].sort()).toEqual([
        'billstatus',
        'congress-json',
        'legiscan',
        'openstates',
      ]);
      for (const [format, byField] of report) {
        for (const field of FIELDS) {
          const tally = byField.get(field);
          if (tally === undefined) continue;
          expect(tally.agreed / tally.compared, `${format} ${field}`).toBeGreaterThanOrEqual(0.995);
        }
      }
    },
  );

  // The larger corpus scripts/make-corpus.mjs makes (51,000 files, minutes to read): run only when
  // asked, DOCKET_CORPUS=../corpus npx vitest run packages/cli/test/fidelity.test.ts
  const corpus =
    process.env.DOCKET_CORPUS === undefined ? null : resolve(process.env.DOCKET_CORPUS);
  it.skipIf(corpus === null)(
    'on the corpus of scripts/make-corpus.mjs: every field of every format at 99.5 % or more',
    () => {
      for (const folder of ['billstatus-116', 'congress-json-116', 'openstates-us-119']) {
        const { report } = measureFidelity(join(corpus ?? '', folder));
        expect(report.size, folder).toBe(1);
        for (const [format, byField] of report) {
          for (const field of FIELDS) {
            const tally = byField.get(field);
            if (tally === undefined) continue;
            expect(tally.compared, `${format} ${field}`).toBeGreaterThan(16_000);
            expect(tally.agreed / tally.compared, `${format} ${field}`).toBeGreaterThanOrEqual(
              0.995,
            );
          }
        }
      }
    },
    30 * 60_000,
  );
});
