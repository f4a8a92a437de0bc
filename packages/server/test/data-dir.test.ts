import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';

// Issue 17, item 4: PGlite's folder holds the signing secret and live sessions; no other local
// user may read it.

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Every path under `dir` whose mode lets group or others in, with that mode. */
async function openToOthers(dir: string): Promise<string[]> {
  const found: string[] = [];
  const mode = (await stat(dir)).mode & 0o777;
  if ((mode & 0o077) !== 0) found.push(`${dir} ${mode.toString(8)}`);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await openToOthers(path)));
    else if (entry.isFile()) {
      const fileMode = (await stat(path)).mode & 0o777;
      if ((fileMode & 0o077) !== 0) found.push(`${path} ${fileMode.toString(8)}`);
    }
  }
  return found;
}

it('makes a new data folder 0700 with nothing in it open to others', async () => {
  const parent = await mkdtemp(join(tmpdir(), 'docket-data-'));
  made.push(parent);
  const dataDir = join(parent, 'data');
  const database = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  try {
    expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe('700');
    expect(await openToOthers(dataDir)).toEqual([]);
  } finally {
    await database.close();
  }
}, 180_000);

it('closes up an existing data folder that was open to everyone', async () => {
  const parent = await mkdtemp(join(tmpdir(), 'docket-data-'));
  made.push(parent);
  const dataDir = join(parent, 'data');
  await mkdir(join(dataDir, 'pglite'), { recursive: true });
  await writeFile(join(dataDir, 'notes.txt'), 'left here');
  await chmod(join(dataDir, 'notes.txt'), 0o666);
  await chmod(join(dataDir, 'pglite'), 0o777);
  await chmod(dataDir, 0o755);
  const database = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  try {
    expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe('700');
    expect(((await stat(join(dataDir, 'notes.txt'))).mode & 0o777).toString(8)).toBe('600');
    expect(await openToOthers(dataDir)).toEqual([]);
  } finally {
    await database.close();
  }
}, 180_000);
