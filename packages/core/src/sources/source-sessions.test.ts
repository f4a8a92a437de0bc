import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { LegiscanApiError } from './legiscan-api.ts';
import { OpenStatesApiError } from './openstates-api.ts';
import {
  legiscanSessionListUrl,
  openStatesJurisdictionUrl,
  openStatesSessionsRefusal,
  parseLegiscanSessionList,
  parseOpenStatesSessions,
  SESSION_LIST_MAX_BYTES,
  SESSION_LIST_MAX_SESSIONS,
} from './source-sessions.ts';

const bytes = (value: unknown) => encodeUtf8(JSON.stringify(value));

/** A getSessionList entry in LegiScan's shape, as its manual gives one. */
const legiscanSession = (
  id: number,
  start: number,
  end: number,
  title: string,
  special = 0,
): Record<string, unknown> => ({
  session_id: id,
  state_id: 10,
  year_start: start,
  year_end: end,
  prefile: 0,
  sine_die: 0,
  prior: 0,
  special,
  session_tag: special === 1 ? 'Special Session' : 'Regular Session',
  session_title: title,
  session_name: title,
  dataset_hash: 'abc123',
});

/** A legislative session in Open States API v3's shape. */
const openStatesSession = (
  identifier: string,
  name: string,
  start: string,
  end: string,
  classification = 'primary',
) => ({ identifier, name, classification, start_date: start, end_date: end });

describe("LegiScan's getSessionList", () => {
  it('asks for the state’s sessions with the key', () => {
    expect(legiscanSessionListUrl('my key', 'GA')).toBe(
      'https://api.legiscan.com/?key=my%20key&op=getSessionList&state=GA',
    );
  });

  it('reads the sessions newest first, in words, special sessions named so', () => {
    const sessions = parseLegiscanSessionList(
      bytes({
        status: 'OK',
        sessions: [
          legiscanSession(1659, 2019, 2020, '2019-2020 Regular Session'),
          legiscanSession(2008, 2023, 2024, '2023-2024 Regular Session'),
          legiscanSession(2100, 2024, 2024, '2024 1st Special Session', 1),
          legiscanSession(1805, 2021, 2021, '2021 Session', 1),
          legiscanSession(1800, 2021, 2022, '2021-2022 Regular Session'),
        ],
      }),
    );
    expect(sessions).toEqual([
      { id: '2100', label: '2024 1st Special Session', special: true },
      { id: '2008', label: '2023–2024 Regular Session', special: false },
      { id: '1800', label: '2021–2022 Regular Session', special: false },
      { id: '1805', label: '2021 Session (special session)', special: true },
      { id: '1659', label: '2019–2020 Regular Session', special: false },
    ]);
  });

  it('names a session without a title by its years, and tells alike names apart', () => {
    const sessions = parseLegiscanSessionList(
      bytes({
        status: 'OK',
        sessions: [
          { session_id: 7, year_start: 2025, year_end: 2026, special: 0 },
          { session_id: 8, year_start: 2025, year_end: 2025, special: 1, session_title: ' ' },
          { session_id: 5, special: 0 },
          legiscanSession(3, 2011, 2012, 'Regular'),
          legiscanSession(4, 2011, 2012, 'Regular'),
          legiscanSession(4, 2011, 2012, 'Listed twice'),
        ],
      }),
    );
    expect(sessions.map((session) => session.label)).toEqual([
      '2025–2026 Regular Session',
      '2025 Special Session',
      'Regular (4)',
      'Regular (3)',
      'Session 5',
    ]);
  });

  it('says a refusal in LegiScan’s words, pointing to the key when it is the key', () => {
    const wrongKey = () =>
      parseLegiscanSessionList(bytes({ status: 'ERROR', alert: { message: 'Invalid API key' } }));
    expect(wrongKey).toThrow(LegiscanApiError);
    expect(wrongKey).toThrow(
      'LegiScan refused to list the sessions: Invalid API key. Check your LegiScan API key under Settings on the More tab.',
    );
    expect(() =>
      parseLegiscanSessionList(bytes({ status: 'ERROR', alert: { message: 'Unknown state.' } })),
    ).toThrow(/^LegiScan refused to list the sessions: Unknown state\.$/);
    expect(() => parseLegiscanSessionList(bytes({ status: 'ERROR' }))).toThrow(
      'LegiScan refused to list the sessions: no reason given.',
    );
  });

  it('refuses, in words, what is not a list of sessions', () => {
    const unreadable = 'LegiScan answered the list of sessions with something Docket cannot read.';
    for (const answer of [
      encodeUtf8('<html>Service unavailable</html>'),
      bytes(null),
      bytes({ status: 'OK' }),
      bytes({ status: 'OK', sessions: {} }),
      bytes({ status: 'OK', sessions: [{ session_id: '2008' }] }),
      bytes({ status: 'OK', sessions: [{ session_id: -1 }] }),
      bytes({ status: 'OK', sessions: [{ session_id: 1, year_start: 1e12 }] }),
      bytes({ status: 'OK', sessions: [legiscanSession(1, 2023, 2024, 'x'.repeat(301))] }),
      bytes({
        status: 'OK',
        sessions: Array.from({ length: SESSION_LIST_MAX_SESSIONS + 1 }, (_, index) =>
          legiscanSession(index + 1, 2023, 2024, 'Regular'),
        ),
      }),
    ]) {
      expect(() => parseLegiscanSessionList(answer)).toThrow(unreadable);
    }
    const huge = encodeUtf8(
      JSON.stringify({ status: 'OK', sessions: [] }).padEnd(SESSION_LIST_MAX_BYTES + 1, ' '),
    );
    expect(() => parseLegiscanSessionList(huge)).toThrow(
      "LegiScan's list of sessions is larger than any such list; Docket did not read it.",
    );
  });

  it('draws hostile names as plain text: control and direction characters go', () => {
    const [session] = parseLegiscanSessionList(
      bytes({
        status: 'OK',
        sessions: [
          legiscanSession(9, 2023, 2024, '2023-2024\u202e Regular\u0000 <b>Session</b>\n'),
        ],
      }),
    );
    expect(session?.label).toBe('2023–2024 Regular <b>Session</b>');
  });

  it('reads an empty list as no sessions', () => {
    expect(parseLegiscanSessionList(bytes({ status: 'OK', sessions: [] }))).toEqual([]);
  });
});

describe("Open States' legislative sessions", () => {
  it('asks the jurisdiction’s detail with its sessions, an ocd id’s slashes kept', () => {
    expect(openStatesJurisdictionUrl('North Carolina')).toBe(
      'https://v3.openstates.org/jurisdictions/North%20Carolina?include=legislative_sessions',
    );
    expect(openStatesJurisdictionUrl('ocd-jurisdiction/country:us/state:nc/government')).toBe(
      'https://v3.openstates.org/jurisdictions/ocd-jurisdiction/country%3Aus/state%3Anc/government?include=legislative_sessions',
    );
  });

  it('reads the sessions newest first, special sessions named so, undated ones last', () => {
    const sessions = parseOpenStatesSessions(
      bytes({
        id: 'ocd-jurisdiction/country:us/state:ga/government',
        name: 'Georgia',
        classification: 'state',
        legislative_sessions: [
          openStatesSession('2019_20', '2019-2020 Regular Session', '2019-01-14', '2020-06-26'),
          openStatesSession('2021_22', '2021-2022 Regular Session', '2021-01-11', '2022-04-04'),
          openStatesSession(
            '2021_ss',
            '2021 Special Session',
            '2021-11-03',
            '2021-11-22',
            'special',
          ),
          openStatesSession('2023_24', '2023-2024 Regular Session', '2023-01-09', '2024-04-01'),
          openStatesSession('2023_ss', '2023 Session', '2023-11-29', '', 'special'),
          openStatesSession('old1', 'Old one', '', ''),
          openStatesSession('old2', 'Old two', '', ''),
        ],
      }),
    );
    expect(sessions).toEqual([
      { id: '2023_ss', label: '2023 Session (special session)', special: true },
      { id: '2023_24', label: '2023–2024 Regular Session', special: false },
      { id: '2021_ss', label: '2021 Special Session', special: true },
      { id: '2021_22', label: '2021–2022 Regular Session', special: false },
      { id: '2019_20', label: '2019–2020 Regular Session', special: false },
      { id: 'old2', label: 'Old two', special: false },
      { id: 'old1', label: 'Old one', special: false },
    ]);
  });

  it('refuses, in words, what is not a jurisdiction with sessions', () => {
    const unreadable =
      'Open States answered the list of sessions with something Docket cannot read.';
    for (const answer of [
      encodeUtf8('not json'),
      bytes({ name: 'Georgia' }),
      bytes({ legislative_sessions: [{ name: 'No identifier' }] }),
      bytes({ legislative_sessions: [openStatesSession('', 'Blank', '', '')] }),
      bytes({ legislative_sessions: [openStatesSession('a\u202eb', 'Hostile', '', '')] }),
      bytes({ legislative_sessions: [openStatesSession('x'.repeat(101), 'Long', '', '')] }),
    ]) {
      expect(() => parseOpenStatesSessions(answer)).toThrow(unreadable);
    }
    const huge = new Uint8Array(SESSION_LIST_MAX_BYTES + 1).fill(0x20);
    expect(() => parseOpenStatesSessions(huge)).toThrow(OpenStatesApiError);
    expect(() => parseOpenStatesSessions(huge)).toThrow(
      "Open States' list of sessions is larger than any such list; Docket did not read it.",
    );
  });

  it('says a refused key, an unknown jurisdiction and another status in words', () => {
    expect(
      openStatesSessionsRefusal(401, bytes({ detail: 'Invalid API Key.' }), 'Ohio').message,
    ).toBe(
      'Open States refused the API key: Invalid API Key. Check your Open States API key under Settings on the More tab.',
    );
    expect(openStatesSessionsRefusal(404, bytes({ detail: 'Not Found' }), 'Ohioo').message).toBe(
      'Open States knows no jurisdiction "Ohioo". Enter it as Open States names it: "Alaska", "ak" or its ocd-jurisdiction id.',
    );
    expect(openStatesSessionsRefusal(500, encodeUtf8('oops'), 'Ohio').message).toBe(
      'Open States answered 500 for the list of sessions.',
    );
  });
});
