import type { SessionUser } from '../state/app-store.ts';

/** What the auth client's session store says, reduced to what the app acts on. */
export type SessionSnapshot =
  | { readonly kind: 'pending' }
  | { readonly kind: 'signed-in'; readonly user: SessionUser }
  /** The server answered: there is no session. */
  | { readonly kind: 'signed-out' }
  /** The session check failed without an answer (network down, server error). */
  | { readonly kind: 'unreachable' };

/**
 * A source of session snapshots; subscribing delivers the current one at once, or as soon as
 * there is one (the lazy client's, once its code has loaded: until then it is pending).
 */
export interface SessionSource {
  subscribe(listener: (snapshot: SessionSnapshot) => void): () => void;
}

// Checked by hand, not with zod: this runs before the first paint, and zod's schemas cost the
// sign-in screen about a twentieth of its start on a phone (bench/README.md, first paint).

/** The object's own fields, or null when `value` is not an object. */
function fieldsOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The session's user when the value is `{ user: { id, email, name } }` (all text), else null. */
function sessionUser(data: Record<string, unknown>): SessionUser | null | undefined {
  if (data.user === null) return null;
  const user = fieldsOf(data.user);
  if (user === null) return undefined;
  const { id, email, name } = user;
  return typeof id === 'string' && typeof email === 'string' && typeof name === 'string'
    ? { id, email, name }
    : undefined;
}

/** Reads one value of better-auth's session store (a nanostores atom) at the edge. */
export function readSessionSnapshot(value: unknown): SessionSnapshot {
  const fields = fieldsOf(value);
  if (fields === null || typeof fields.isPending !== 'boolean') return { kind: 'unreachable' };
  const data = fields.data === null ? null : fieldsOf(fields.data);
  // Anything but null or an object holding a valid user (or null) is not a session store value.
  const user = data === null ? null : sessionUser(data);
  if ((fields.data !== null && data === null) || user === undefined) return { kind: 'unreachable' };
  if (user !== null) return { kind: 'signed-in', user };
  if (fields.isPending) return { kind: 'pending' };
  const { error } = fields;
  if (error === null || error === undefined) return { kind: 'signed-out' };
  return fieldsOf(error)?.status === 401 ? { kind: 'signed-out' } : { kind: 'unreachable' };
}

interface SubscribableStore {
  subscribe(listener: (value: unknown) => void): () => void;
}

export function sessionSourceFromStore(store: SubscribableStore): SessionSource {
  return {
    subscribe: (listener) =>
      store.subscribe((value) => {
        listener(readSessionSnapshot(value));
      }),
  };
}
