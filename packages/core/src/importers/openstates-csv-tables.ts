import type { CsvRow } from '../encoding/csv-table.ts';
import type { JsonObject } from '../encoding/loose-json.ts';
import type { OpenStatesCsvRole } from './bill-importer-openstates.ts';

// Open States' bulk CSV export (bill-importer-openstates.ts reads it): its tables keyed by bill_id
// (a vote's counts and its members' votes by vote_event_id) joined into the JSON bill shape the
// scraper and the API use, so one function normalizes all three. Array columns are Python lists
// ("['passage']").

/** A Python list ("['a', 'b']"), a Postgres array ("{a,"b c"}") or a bare value, as strings. */
export function parseListCell(cell: string): string[] {
  const text = cell.trim();
  if (text === '' || text === '[]' || text === '{}') return [];
  const python = text.startsWith('[') && text.endsWith(']');
  const postgres = text.startsWith('{') && text.endsWith('}');
  if (!python && !postgres) return [text];
  const body = text.slice(1, -1);
  const items: string[] = [];
  let index = 0;
  while (index < body.length) {
    const char = body[index] ?? '';
    if (char === ',' || char === ' ') {
      index++;
      continue;
    }
    if (char === "'" || char === '"') {
      let value = '';
      index++;
      while (index < body.length && body[index] !== char) {
        if (body[index] === '\\' && index + 1 < body.length) index++;
        value += body[index] ?? '';
        index++;
      }
      items.push(value);
      index++;
      continue;
    }
    const end = body.indexOf(',', index);
    items.push(body.slice(index, end < 0 ? body.length : end).trim());
    index = end < 0 ? body.length : end + 1;
  }
  return items.filter((item) => item !== '');
}

export type Table = { file: string; rows: CsvRow[] };

/** Rebuilds bills in the JSON shape from the bulk CSV tables. */
export function billsFromCsv(
  tables: Map<OpenStatesCsvRole, Table[]>,
): { file: string; line: number; bill: JsonObject }[] {
  const rowsOf = (role: OpenStatesCsvRole) =>
    (tables.get(role) ?? []).flatMap((table) => table.rows.map((row) => row.values));
  const byKey = (role: OpenStatesCsvRole, key: string) => {
    const map = new Map<string, Map<string, string>[]>();
    for (const row of rowsOf(role)) {
      const value = row.get(key) ?? '';
      const list = map.get(value);
      if (list) list.push(row);
      else map.set(value, [row]);
    }
    return map;
  };
  const actions = byKey('actions', 'bill_id');
  const sponsorships = byKey('sponsorships', 'bill_id');
  const abstracts = byKey('abstracts', 'bill_id');
  const versions = byKey('versions', 'bill_id');
  const versionLinks = byKey('version-links', 'version_id');
  const sources = byKey('sources', 'bill_id');
  const votes = byKey('votes', 'bill_id');
  const voteCounts = byKey('vote-counts', 'vote_event_id');
  const votePeople = byKey('vote-people', 'vote_event_id');
  const bills: { file: string; line: number; bill: JsonObject }[] = [];
  for (const table of tables.get('bills') ?? []) {
    for (const { line, values: row } of table.rows) {
      const id = row.get('id') ?? '';
      const get = (name: string) => row.get(name) ?? '';
      bills.push({
        file: table.file,
        line,
        bill: {
          id,
          identifier: get('identifier'),
          title: get('title'),
          legislative_session: get('session_identifier'),
          jurisdiction: get('jurisdiction'),
          classification: parseListCell(get('classification')),
          subject: parseListCell(get('subject')),
          from_organization: { classification: get('organization_classification') },
          actions: (actions.get(id) ?? []).map((action) => ({
            description: action.get('description') ?? '',
            date: action.get('date') ?? '',
            classification: parseListCell(action.get('classification') ?? ''),
            order: action.get('order') ?? '',
            organization_id: action.get('organization_id') ?? '',
          })),
          sponsorships: (sponsorships.get(id) ?? []).map((sponsor) => ({
            name: sponsor.get('name') ?? '',
            primary: sponsor.get('primary') ?? '',
            classification: sponsor.get('classification') ?? '',
            person_id: sponsor.get('person_id') ?? '',
          })),
          abstracts: (abstracts.get(id) ?? []).map((abstract) => ({
            abstract: abstract.get('abstract') ?? '',
          })),
          versions: (versions.get(id) ?? []).map((version) => ({
            note: version.get('note') ?? '',
            date: version.get('date') ?? '',
            links: (versionLinks.get(version.get('id') ?? '') ?? []).map((link) => ({
              url: link.get('url') ?? '',
              media_type: link.get('media_type') ?? '',
            })),
          })),
          sources: (sources.get(id) ?? []).map((source) => ({ url: source.get('url') ?? '' })),
          votes: (votes.get(id) ?? []).map((vote) => ({
            motion_text: vote.get('motion_text') ?? '',
            start_date: vote.get('start_date') ?? '',
            result: vote.get('result') ?? '',
            organization_id: vote.get('organization_id') ?? '',
            counts: (voteCounts.get(vote.get('id') ?? '') ?? []).map((entry) => ({
              option: entry.get('option') ?? '',
              value: entry.get('value') ?? '',
            })),
            // Each member's vote (vote_people.csv); a vote without an id is joined to none.
            votes: (vote.get('id') ? (votePeople.get(vote.get('id') ?? '') ?? []) : []).map(
              (person) => ({
                option: person.get('option') ?? '',
                voter_name: person.get('voter_name') ?? '',
                voter_id: person.get('voter_id') ?? '',
                note: person.get('note') ?? '',
              }),
            ),
          })),
        },
      });
    }
  }
  return bills;
}
