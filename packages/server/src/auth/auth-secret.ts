import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { DocketDb } from '../db/database.ts';
import { serverSecret } from '../db/schema.ts';

/** The file beside the data that holds the signing secret when BETTER_AUTH_SECRET is not set. */
export const AUTH_SECRET_FILE = 'auth-secret';

/** Its name in `server_secret`, where servers before this one kept it. */
const LEGACY_SECRET_NAME = 'better-auth';

/**
 * The secret better-auth signs cookies and tokens with, kept out of the database so that a copy
 * of the database cannot forge a session: BETTER_AUTH_SECRET, required when NODE_ENV is
 * production; otherwise `DOCKET_DATA_DIR/auth-secret` (0600), made once. A secret an older
 * server kept in the database moves into that file (sessions signed with it stay valid) and
 * leaves the database.
 */
export async function loadAuthSecret(
  config: ServerConfig,
  db: DocketDb,
  log: FastifyBaseLogger,
): Promise<string> {
  if (config.betterAuthSecret !== null) {
    await forgetLegacySecret(db);
    return config.betterAuthSecret;
  }
  if (config.production) {
    throw new Error(
      'BETTER_AUTH_SECRET must be set when NODE_ENV is production (at least 32 random characters, e.g. `openssl rand -base64 32`); it signs sessions and must not sit beside the data.',
    );
  }
  const path = join(config.dataDir, AUTH_SECRET_FILE);
  const existing = await readSecretFile(path);
  if (existing !== null) return existing;
  const legacy = await readLegacySecret(db);
  const secret = legacy ?? randomBytes(32).toString('base64url');
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // Written whole under another name, then linked into place: a process starting at the same
  // moment either links first or finds the file complete, and both use the one that won.
  const partial = `${path}.${randomUUID()}`;
  await writeFile(partial, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(partial, path);
    log.info(
      legacy === null
        ? `Made the signing secret in ${path}`
        : `Moved the signing secret from the database to ${path}`,
    );
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  } finally {
    await unlink(partial);
  }
  const written = await readSecretFile(path);
  if (written === null) throw new Error(`The signing secret in ${path} is empty`);
  if (legacy !== null) await forgetLegacySecret(db);
  return written;
}

async function readSecretFile(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return null;
    throw error;
  }
  // A copy restored with looser rights is made private again.
  if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  const secret = text.trim();
  if (secret.length < 32) {
    throw new Error(`The signing secret in ${path} is shorter than 32 characters`);
  }
  return secret;
}

async function readLegacySecret(db: DocketDb): Promise<string | null> {
  const [row] = await db
    .select({ value: serverSecret.value })
    .from(serverSecret)
    .where(eq(serverSecret.name, LEGACY_SECRET_NAME));
  return row?.value ?? null;
}

async function forgetLegacySecret(db: DocketDb): Promise<void> {
  await db.delete(serverSecret).where(eq(serverSecret.name, LEGACY_SECRET_NAME));
}
