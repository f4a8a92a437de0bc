import { describe, expect, it } from 'vitest';
import type { BillStatus } from './bill-vocabulary.ts';
import type { StatusEvent } from './bill-status-mapping.ts';
import {
  billStatusActionEvent,
  openStatesActionEvents,
  statusFromCongressJson,
  statusFromEvents,
  statusFromLegiScan,
} from './bill-status-mapping.ts';

describe('LegiScan status numbers', () => {
  it.each<[number, number | null, BillStatus, string]>([
    [1, 0, 'introduced', 'Introduced'],
    [1, 2133, 'in-committee', 'Introduced'],
    [2, 2144, 'passed-one-chamber', 'Engrossed'],
    [3, 0, 'passed-both', 'Enrolled'],
    [4, 0, 'enacted', 'Passed'],
    [5, 0, 'vetoed', 'Vetoed'],
    [6, 0, 'failed', 'Failed'],
    [8, 0, 'enacted', 'Chaptered'],
    [9, 0, 'in-committee', 'Refer'],
    [42, 0, 'other', '42'],
  ])('status %i with pending committee %s is %s', (code, committee, status, raw) => {
    expect(statusFromLegiScan(code, '2012-02-21', committee)).toEqual({
      status,
      statusDate: '2012-02-21',
      rawStatus: raw,
    });
  });
});

describe('unitedstates/congress status words', () => {
  it.each<[string, BillStatus]>([
    ['INTRODUCED', 'introduced'],
    ['REFERRED', 'in-committee'],
    ['REPORTED', 'in-committee'],
    ['PASS_OVER:HOUSE', 'passed-one-chamber'],
    ['PASS_OVER:SENATE', 'passed-one-chamber'],
    ['PASSED:SIMPLERES', 'passed-one-chamber'],
    ['PASSED:CONCURRENTRES', 'passed-both'],
    ['PASSED:BILL', 'passed-both'],
    ['PASSED:CONSTAMEND', 'passed-both'],
    ['PASS_BACK:SENATE', 'passed-both'],
    ['CONFERENCE:PASSED:HOUSE', 'passed-both'],
    ['PROV_KILL:SUSPENSIONFAILED', 'failed'],
    ['FAIL:ORIGINATING:SENATE', 'failed'],
    ['FAIL:SECOND:HOUSE', 'failed'],
    ['PROV_KILL:VETO', 'vetoed'],
    ['VETOED:POCKET', 'vetoed'],
    ['VETOED:OVERRIDE_FAIL_ORIGINATING:SENATE', 'vetoed'],
    ['OVERRIDE_PASS_OVER:HOUSE', 'vetoed'],
    ['ENACTED:SIGNED', 'enacted'],
    ['ENACTED:VETO_OVERRIDE', 'enacted'],
    ['ENACTED:TENDAYRULE', 'enacted'],
    ['SOMETHING_NEW', 'other'],
  ])('%s is %s', (code, status) => {
    expect(statusFromCongressJson(code, '2019-01-03', false)).toEqual({
      status,
      statusDate: '2019-01-03',
      rawStatus: code,
    });
  });

  it('keeps the stage a failed cloture vote left standing: it disposes of nothing', () => {
    const earlier = [
      { code: 'REFERRED', date: '2021-03-01' },
      { code: 'PASS_OVER:HOUSE', date: '2021-05-20' },
      { code: 'PROV_KILL:CLOTUREFAILED', date: '2021-06-08' },
    ];
    expect(statusFromCongressJson('PROV_KILL:CLOTUREFAILED', '2021-06-08', false, earlier)).toEqual(
      {
        status: 'passed-one-chamber',
        statusDate: '2021-05-20',
        rawStatus: 'PROV_KILL:CLOTUREFAILED',
      },
    );
    expect(statusFromCongressJson('PROV_KILL:CLOTUREFAILED', '2021-06-08', false).status).toBe(
      'introduced',
    );
  });

  it('is enacted whenever the bill became law, whatever the word says', () => {
    expect(statusFromCongressJson('PASSED:BILL', '2019-02-15', true).status).toBe('enacted');
  });
});

function fold(...events: [StatusEvent['kind'], string, StatusEvent['chamber']?][]) {
  return statusFromEvents(
    events.map(([kind, date, chamber]) => ({ kind, date, chamber: chamber ?? null })),
  );
}

describe('folding action events', () => {
  it('counts passage per chamber', () => {
    expect(
      fold(
        ['introduced', '2019-01-01'],
        ['committee', '2019-01-02'],
        ['passed', '2019-02-01', 'lower'],
      ),
    ).toEqual({
      status: 'passed-one-chamber',
      statusDate: '2019-02-01',
    });
    expect(
      fold(
        ['passed', '2019-02-01', 'lower'],
        ['passed', '2019-02-02', 'lower'],
        ['passed', '2019-03-01', 'upper'],
      ),
    ).toEqual({ status: 'passed-both', statusDate: '2019-03-01' });
    expect(fold(['passed', '2019-02-01', 'legislature']).status).toBe('passed-both');
  });

  it('lets a later passage lift a failure, but nothing lift a veto except enactment', () => {
    expect(fold(['failed', '2019-01-05'], ['passed', '2019-01-09', 'upper']).status).toBe(
      'passed-one-chamber',
    );
    expect(fold(['vetoed', '2019-04-16'], ['failed', '2019-05-02', 'upper']).status).toBe('vetoed');
    expect(fold(['vetoed', '2019-04-16'], ['enacted', '2019-05-02'])).toEqual({
      status: 'enacted',
      statusDate: '2019-05-02',
    });
    expect(fold(['enacted', '2019-05-02'], ['failed', '2019-05-03']).status).toBe('enacted');
  });

  it('dates a repeated status by when it was first reached', () => {
    expect(fold(['committee', '2019-01-02'], ['committee', '2019-03-02'])).toEqual({
      status: 'in-committee',
      statusDate: '2019-01-02',
    });
  });
});

describe('BILLSTATUS actions', () => {
  const kind = (code: string | null, text: string) =>
    billStatusActionEvent(code, text, '2020-01-01', null)?.kind ?? null;

  it('reads Library of Congress action codes', () => {
    expect(kind('10000', 'Introduced in Senate')).toBe('introduced');
    expect(kind('H11100', 'Referred to the House Committee on Energy and Commerce.')).toBe(
      'committee',
    );
    expect(kind('14000', 'Committee on Foreign Relations. Reported by Senator Risch.')).toBe(
      'committee',
    );
    expect(
      billStatusActionEvent('8000', 'Passed/agreed to in House: ...', null, null)?.chamber,
    ).toBe('lower');
    expect(
      billStatusActionEvent('17000', 'Passed/agreed to in Senate: ...', null, null)?.chamber,
    ).toBe('upper');
    expect(kind('18000', 'Failed of passage/not agreed to in Senate: ...')).toBe('failed');
    expect(kind('28000', 'Presented to President.')).toBe('to-executive');
    expect(kind('31000', 'Vetoed by President.')).toBe('vetoed');
    expect(kind('36000', 'Became Public Law No: 116-138.')).toBe('enacted');
  });

  it('lets the text decide where a code means two things', () => {
    expect(kind('E30000', 'Signed by President.')).toBe('enacted');
    expect(kind('E30000', 'Vetoed by President.')).toBe('vetoed');
    expect(kind('36000', 'Signed by President.')).toBe('enacted');
  });

  it('reads chamber actions without codes from their text', () => {
    expect(kind(null, 'Read twice and referred to the Committee on the Judiciary.')).toBe(
      'committee',
    );
    expect(
      kind(
        null,
        'Read the second time. Placed on Senate Legislative Calendar under General Orders.',
      ),
    ).toBe('committee');
    expect(
      kind(null, 'Cloture on the measure not invoked in Senate by Yea-Nay Vote. 57 - 42.'),
    ).toBeNull();
    expect(kind(null, 'Motion to refer to the Committee on Rules agreed to.')).toBeNull();
    expect(kind(null, 'Considered by Senate.')).toBeNull();
  });
});

describe('Open States action classifications', () => {
  it.each<[string, StatusEvent['kind']]>([
    ['introduction', 'introduced'],
    ['filing', 'introduced'],
    ['referral-committee', 'committee'],
    ['committee-passage', 'committee'],
    ['passage', 'passed'],
    ['failure', 'failed'],
    ['committee-failure', 'failed'],
    ['withdrawal', 'failed'],
    ['executive-receipt', 'to-executive'],
    ['executive-veto', 'vetoed'],
    ['executive-signature', 'enacted'],
    ['became-law', 'enacted'],
  ])('%s is a %s event', (classification, kind) => {
    expect(openStatesActionEvents([classification], '2023-01-01', 'lower')).toEqual([
      { kind, date: '2023-01-01', chamber: 'lower' },
    ]);
  });

  it('ignores classifications that say nothing about status', () => {
    expect(openStatesActionEvents(['reading-1', 'amendment-passage'], '2023-01-01', null)).toEqual(
      [],
    );
  });
});
