import { createHash } from 'node:crypto';
import type {
  BetterAuthOptions,
  DBAdapterInstance,
  DBTransactionAdapter,
  Where,
} from 'better-auth';

/** What the session table holds in place of a token: its SHA-256, in hex. */
const STORED_TOKEN = /^[0-9a-f]{64}$/;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Wraps better-auth's adapter so the session table keeps only SHA-256 hashes of session tokens:
 * a copy of the database holds nothing a browser could present. A token is random (32
 * characters from better-auth's generator), so an unsalted hash is enough. better-auth still
 * sees plain tokens: a new session's row comes back with the token it was made with, and a row
 * found by its token with the token it was asked for.
 *
 * Rows listed by user (list-sessions) carry the hash; a delete accepts a hash as well as a
 * token, so revoking a listed session works. A lookup (sign-in check, refresh) accepts only a
 * token: the hash is not a credential.
 */
export function withHashedSessionTokens(factory: DBAdapterInstance): DBAdapterInstance {
  return (options: BetterAuthOptions) => {
    const inner = factory(options);
    return {
      ...wrap(inner),
      transaction: (callback) => inner.transaction((trx) => callback(wrap(trx))),
    };
  };
}

function wrap<A extends DBTransactionAdapter>(inner: A): A {
  return {
    ...inner,
    create: async (data) => {
      if (data.model !== 'session') return inner.create(data);
      const token = data.data.token;
      if (typeof token !== 'string') return inner.create(data);
      const created = await inner.create({
        ...data,
        data: { ...data.data, token: hashSessionToken(token) },
      });
      return withToken(created, token);
    },
    findOne: async (data) => {
      if (data.model !== 'session') return inner.findOne(data);
      const row = await inner.findOne({ ...data, where: hashWhere(data.where, 'lookup') });
      return withToken(row, plainTokenOf(data.where));
    },
    findMany: (data) =>
      data.model === 'session' && data.where !== undefined
        ? inner.findMany({ ...data, where: hashWhere(data.where, 'lookup') })
        : inner.findMany(data),
    count: (data) =>
      data.model === 'session' && data.where !== undefined
        ? inner.count({ ...data, where: hashWhere(data.where, 'lookup') })
        : inner.count(data),
    update: async (data) => {
      if (data.model !== 'session') return inner.update(data);
      const row = await inner.update({ ...data, where: hashWhere(data.where, 'lookup') });
      return withToken(row, plainTokenOf(data.where));
    },
    updateMany: (data) =>
      data.model === 'session'
        ? inner.updateMany({ ...data, where: hashWhere(data.where, 'lookup') })
        : inner.updateMany(data),
    delete: (data) =>
      data.model === 'session'
        ? inner.delete({ ...data, where: hashWhere(data.where, 'delete') })
        : inner.delete(data),
    deleteMany: (data) =>
      data.model === 'session'
        ? inner.deleteMany({ ...data, where: hashWhere(data.where, 'delete') })
        : inner.deleteMany(data),
    consumeOne: async (data) => {
      if (data.model !== 'session') return inner.consumeOne(data);
      const row = await inner.consumeOne({ ...data, where: hashWhere(data.where, 'delete') });
      return withToken(row, plainTokenOf(data.where));
    },
  } satisfies DBTransactionAdapter;
}

function hashWhere(where: Where[], purpose: 'lookup' | 'delete'): Where[] {
  const stored = (value: unknown) =>
    typeof value === 'string' && !(purpose === 'delete' && STORED_TOKEN.test(value))
      ? hashSessionToken(value)
      : value;
  return where.map((clause) => {
    if (clause.field !== 'token') return clause;
    const value = Array.isArray(clause.value)
      ? (clause.value as unknown[]).map(stored)
      : stored(clause.value);
    return { ...clause, value } as Where;
  });
}

/** The plain token a single-row operation was keyed on, to hand back in place of its hash. */
function plainTokenOf(where: Where[]): string | null {
  const clause = where.find((item) => item.field === 'token' && (item.operator ?? 'eq') === 'eq');
  return typeof clause?.value === 'string' && !STORED_TOKEN.test(clause.value)
    ? clause.value
    : null;
}

function withToken<T>(row: T, token: string | null): T {
  if (token === null || row === null || typeof row !== 'object') return row;
  return { ...row, token };
}
