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

/** Rows of a table, each its cells by column. */
type Rows = Map<string, string>[];

/** The rows of every table of one kind, grouped by a column's value (the id they join on). */
function rowsByKey(
  tables: Map<OpenStatesCsvRole, Table[]>,
  role: OpenStatesCsvRole,
  key: string,
): Map<string, Rows> {
  const rows = (tables.get(role) ?? []).flatMap((table) => table.rows.map((row) => row.values));
  const map = new Map<string, Rows>();
  for (const row of rows) {
    const value = row.get(key) ?? '';
    const list = map.get(value);
    if (list) list.push(row);
    else map.set(value, [row]);
  }
  return map;
}

/** The tables joined into a bill, each grouped by the id it joins on. */
interface JoinedTables {
  actions: Map<string, Rows>;
  sponsorships: Map<string, Rows>;
  abstracts: Map<string, Rows>;
  versions: Map<string, Rows>;
  versionLinks: Map<string, Rows>;
  sources: Map<string, Rows>;
  votes: Map<string, Rows>;
  voteCounts: Map<string, Rows>;
  votePeople: Map<string, Rows>;
}

function joinedTables(tables: Map<OpenStatesCsvRole, Table[]>): JoinedTables {
  return {
    actions: rowsByKey(tables, 'actions', 'bill_id'),
    sponsorships: rowsByKey(tables, 'sponsorships', 'bill_id'),
    abstracts: rowsByKey(tables, 'abstracts', 'bill_id'),
    versions: rowsByKey(tables, 'versions', 'bill_id'),
    versionLinks: rowsByKey(tables, 'version-links', 'version_id'),
    sources: rowsByKey(tables, 'sources', 'bill_id'),
    votes: rowsByKey(tables, 'votes', 'bill_id'),
    voteCounts: rowsByKey(tables, 'vote-counts', 'vote_event_id'),
    votePeople: rowsByKey(tables, 'vote-people', 'vote_event_id'),
  };
}

/** A row of the votes table in the JSON shape, with its counts and its members' votes. */
function voteOfRow(vote: Map<string, string>, joined: JoinedTables): JsonObject {
  return {
    motion_text: vote.get('motion_text') ?? '',
    start_date: vote.get('start_date') ?? '',
    result: vote.get('result') ?? '',
    organization_id: vote.get('organization_id') ?? '',
    counts: (joined.voteCounts.get(vote.get('id') ?? '') ?? []).map((entry) => ({
      option: entry.get('option') ?? '',
      value: entry.get('value') ?? '',
    })),
    // Each member's vote (vote_people.csv); a vote without an id is joined to none.
    votes: (vote.get('id') ? (joined.votePeople.get(vote.get('id') ?? '') ?? []) : []).map(
      (person) => ({
        option: person.get('option') ?? '',
        voter_name: person.get('voter_name') ?? '',
        voter_id: person.get('voter_id') ?? '',
        note: person.get('note') ?? '',
      }),
    ),
  };
}

/** A row of the bills table in the JSON shape, with what the other tables hold of it. */
function billOfRow(row: Map<string, string>, joined: JoinedTables): JsonObject {
  const id = row.get('id') ?? '';
  const get = (name: string) => row.get(name) ?? '';
  return {
    id,
    identifier: get('identifier'),
    title: get('title'),
    legislative_session: get('session_identifier'),
    jurisdiction: get('jurisdiction'),
    classification: parseListCell(get('classification')),
    subject: parseListCell(get('subject')),
    from_organization: { classification: get('organization_classification') },
    actions: (joined.actions.get(id) ?? []).map((action) => ({
      description: action.get('description') ?? '',
      date: action.get('date') ?? '',
      classification: parseListCell(action.get('classification') ?? ''),
      order: action.get('order') ?? '',
      organization_id: action.get('organization_id') ?? '',
    })),
    sponsorships: (joined.sponsorships.get(id) ?? []).map((sponsor) => ({
      name: sponsor.get('name') ?? '',
      primary: sponsor.get('primary') ?? '',
      classification: sponsor.get('classification') ?? '',
      person_id: sponsor.get('person_id') ?? '',
    })),
    abstracts: (joined.abstracts.get(id) ?? []).map((abstract) => ({
      abstract: abstract.get('abstract') ?? '',
    })),
    versions: (joined.versions.get(id) ?? []).map((version) => ({
      note: version.get('note') ?? '',
      date: version.get('date') ?? '',
      links: (joined.versionLinks.get(version.get('id') ?? '') ?? []).map((link) => ({
        url: link.get('url') ?? '',
        media_type: link.get('media_type') ?? '',
      })),
    })),
    sources: (joined.sources.get(id) ?? []).map((source) => ({ url: source.get('url') ?? '' })),
    votes: (joined.votes.get(id) ?? []).map((vote) => voteOfRow(vote, joined)),
  };
}

/** Rebuilds bills in the JSON shape from the bulk CSV tables. */
export function billsFromCsv(
  tables: Map<OpenStatesCsvRole, Table[]>,
): { file: string; line: number; bill: JsonObject }[] {
  const joined = joinedTables(tables);
  const bills: { file: string; line: number; bill: JsonObject }[] = [];
  for (const table of tables.get('bills') ?? []) {
    for (const { line, values: row } of table.rows) {
      bills.push({ file: table.file, line, bill: billOfRow(row, joined) });
    }
  }
  return bills;
}
