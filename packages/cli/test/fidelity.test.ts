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
    });
    const voteEvent = { legislative_session: '119', identifier: 'HCONRES 1', motion_text: 'x' };
    expect(readSourceFields(new TextEncoder().encode(JSON.stringify(voteEvent)))).toBeNull();
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
});
