import { jurisdictionName, sessionLabel, sessionOfKey } from '@docket/core/bills';

// The jurisdiction and session filters' shared rules, so the Tracked tab's filters and the deck's
// offer the same sessions in the same words: the sessions offered under a chosen jurisdiction,
// and a new jurisdiction dropping a session of another one.

/** A session as a filter offers it: its `sessionKey` and "Alaska · 34th Legislature". */
export interface SessionChoice {
  readonly value: string;
  readonly label: string;
}

/**
 * The sessions held (`sessionKey`s, "us-ak:34") a filter offers, in their order: all of them
 * while no jurisdiction is chosen, else that jurisdiction's.
 */
export function sessionChoices(
  sessions: readonly string[],
  jurisdiction: string | null,
): SessionChoice[] {
  return sessions
    .map((key) => ({ key, ...sessionOfKey(key) }))
    .filter((held) => jurisdiction === null || held.jurisdiction === jurisdiction)
    .map((held) => ({
      value: held.key,
      label: `${jurisdictionName(held.jurisdiction)} · ${sessionLabel(held.jurisdiction, held.session)}`,
    }));
}

/**
 * The change a new jurisdiction makes to a filter: the jurisdiction, and the session cleared
 * unless it is one of that jurisdiction's (a session of another would leave nothing to list).
 */
export function jurisdictionChange(
  session: string | null,
  jurisdiction: string | null,
): { readonly jurisdiction: string | null; readonly session?: null } {
  const keep =
    session !== null &&
    (jurisdiction === null || sessionOfKey(session).jurisdiction === jurisdiction);
  return { jurisdiction, ...(keep ? {} : { session: null }) };
}
