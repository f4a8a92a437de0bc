import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type ServerConfig } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';

// Startup and shutdown in one place: config, database (migrated), app, listen; on a signal,
// stop taking requests, let the ones in flight finish, then close the database.

/** A start that cannot succeed says why in one line; a stack trace would bury the reason. */
function failToStart(error: unknown): never {
  const reason = error instanceof Error ? error.message : String(error);
  console.error(`Docket server could not start: ${reason}`);
  process.exit(1);
}

// Everything the server writes (PGlite's files above all: the signing secret, sessions) is
// for its own user only.
process.umask(0o077);

let config: ServerConfig;
let database: Database;
let app: FastifyInstance;
try {
  config = loadConfig(process.env);
  database = await openDatabase(
    config.databaseUrl === null
      ? { kind: 'pglite', dataDir: join(config.dataDir, 'pglite') }
      : { kind: 'postgres', url: config.databaseUrl },
  );
} catch (error) {
  failToStart(error);
}
try {
  app = await buildApp({ config, database, logger: { level: process.env.LOG_LEVEL ?? 'info' } });
} catch (error) {
  await database.close();
  failToStart(error);
}

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  // A second Ctrl-C while requests drain should not start a second close.
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal} received; finishing requests in flight, then stopping`);
  try {
    await app.close();
    await database.close();
    app.log.info('Docket server stopped');
  } catch (error) {
    app.log.error({ err: error }, 'Shutdown failed');
    process.exitCode = 1;
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, (received) => {
    void stop(received);
  });
}

let address: string;
try {
  address = await app.listen({ host: config.host, port: config.port });
} catch (error) {
  await app.close();
  await database.close();
  failToStart(error);
}
const where = database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
app.log.info(`Docket listening on ${address}, public URL ${config.publicUrl}, database ${where}`);
