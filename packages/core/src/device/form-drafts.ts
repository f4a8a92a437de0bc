import { z } from 'zod';
import type { LocalStore } from '../store/local-store.ts';

// Drafts of forms a person is typing into, kept on this device as they type, so that a reload
// (the one the app makes when the connection returns, spec §4), a closed tab or a crash does not
// lose them; the form offers the draft back when it opens again. A draft is a `device:` settings
// row, which never syncs: it is this device's unfinished work, not the user's data. It names the
// account that typed it, so another person signing in on a shared device is not offered it.

export const FORM_DRAFT_PREFIX = 'device:draft:';

/** Longest field kept: a note may be 100,000 characters; anything longer is not a person's draft. */
export const FORM_DRAFT_FIELD_LIMIT = 110_000;
/** Most fields kept per draft: forms have a handful. */
const FORM_DRAFT_FIELD_COUNT = 20;

export const formDraftFieldsSchema = z
  .record(z.string().min(1).max(100), z.string().max(FORM_DRAFT_FIELD_LIMIT))
  .refine((fields) => Object.keys(fields).length <= FORM_DRAFT_FIELD_COUNT, {
    message: `A draft has at most ${FORM_DRAFT_FIELD_COUNT} fields.`,
  });
export type FormDraftFields = Readonly<Record<string, string>>;

export const formDraftSchema = z.object({
  fields: formDraftFieldsSchema,
  /** The signed-in account's e-mail when it was typed, or null when nobody was signed in. */
  owner: z.string().max(320).nullable(),
  /** When it was last kept (ISO 8601). */
  savedAt: z.string().max(40),
});
export type FormDraft = z.infer<typeof formDraftSchema>;

/**
 * The settings key of one form's draft: `form` names the form ("annotation-note", "dataset"),
 * `scope` what it is about (a bill id, a dataset id, "new").
 */
export function formDraftKey(form: string, scope: string): string {
  if (!/^[a-z][a-z0-9-]{0,30}$/.test(form)) throw new Error(`Not a form name: ${form}`);
  // A settings key is at most 200 characters and a bill id may be 200 alone: a long scope keeps
  // its start, readable when debugging, and a hash of the whole that tells two apart.
  const kept = scope.length <= SCOPE_LIMIT ? scope : `${scope.slice(0, 100)}#${fnv1a(scope)}`;
  return `${FORM_DRAFT_PREFIX}${form}:${kept}`;
}

const SCOPE_LIMIT = 120;

/** FNV-1a over the UTF-16 code units, as 8 hex digits: a name, not a secret. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The draft kept under `key` for `owner`, or null when there is none, it was typed by another
 * account, or it cannot be read (a damaged row is no reason to block the form).
 */
export async function readFormDraft(
  store: LocalStore,
  key: string,
  owner: string | null,
): Promise<FormDraft | null> {
  const row = await store.read(['settings'], (tx) => tx.get('settings', key));
  const parsed = formDraftSchema.safeParse(row?.value);
  if (!parsed.success || parsed.data.owner !== owner) return null;
  return parsed.data;
}

/** Keeps a draft on this device. No outbox entry: `device:` settings never sync. */
export async function saveFormDraft(
  store: LocalStore,
  key: string,
  draft: { fields: FormDraftFields; owner: string | null; now: Date },
): Promise<FormDraft> {
  if (!key.startsWith(FORM_DRAFT_PREFIX)) throw new Error(`Not a draft key: ${key}`);
  const checked = formDraftSchema.parse({
    fields: draft.fields,
    owner: draft.owner,
    savedAt: draft.now.toISOString(),
  });
  await store.write(['settings'], (tx) => tx.put('settings', { key, value: checked }));
  return checked;
}

/** Forgets a draft: it was saved, discarded, or the form is back as it started. */
export async function deleteFormDraft(store: LocalStore, key: string): Promise<void> {
  if (!key.startsWith(FORM_DRAFT_PREFIX)) throw new Error(`Not a draft key: ${key}`);
  await store.write(['settings'], (tx) => tx.delete('settings', key));
}
