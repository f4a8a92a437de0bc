import { z } from 'zod';
import type { SessionUser } from '../state/app-store.ts';

/** What the auth client's session store says, reduced to what the app acts on. */
export type SessionSnapshot =
  | { readonly kind: 'pending' }
  | { readonly kind: 'signed-in'; readonly user: SessionUser }
  /** The server answered: there is no session. */
  | { readonly kind: 'signed-out' }
  /** The session check failed without an answer (network down, server error). */
  | { readonly kind: 'unreachable' };

/** A source of session snapshots; subscribing delivers the current one at once. */
export interface SessionSource {
  subscribe(listener: (snapshot: SessionSnapshot) => void): () => void;
}

const sessionStoreValueSchema = z.object({
  data: z
    .object({
      user: z.object({ id: z.string(), email: z.string(), name: z.string() }).nullable(),
    })
    .nullable(),
  error: z.unknown(),
  isPending: z.boolean(),
});

const httpErrorSchema = z.object({ status: z.number() });

/** Reads one value of better-auth's session store (a nanostores atom) at the edge. */
export function readSessionSnapshot(value: unknown): SessionSnapshot {
  const parsed = sessionStoreValueSchema.safeParse(value);
  if (!parsed.success) return { kind: 'unreachable' };
  const { data, error, isPending } = parsed.data;
  if (data?.user) {
    const { id, email, name } = data.user;
    return { kind: 'signed-in', user: { id, email, name } };
  }
  if (isPending) return { kind: 'pending' };
  if (error === null || error === undefined) return { kind: 'signed-out' };
  const status = httpErrorSchema.safeParse(error);
  return status.success && status.data.status === 401
    ? { kind: 'signed-out' }
    : { kind: 'unreachable' };
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
