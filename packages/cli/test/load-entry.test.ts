import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// bin/load-entry.mjs runs the CLI's TypeScript entries from a bundle it keeps beside src/, made
// again when a file it was made from changes. Each case runs in a fresh Node process, as the
// command does: a process imports a bundle once, so freshness is only seen by the next one.

const run = promisify(execFile);
const loader = new URL('../bin/load-entry.mjs', import.meta.url).href;

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'docket-load-entry-'));
  mkdirSync(join(root, 'src'));
  // As the CLI's own package says: its .ts files are ES modules.
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function writeSource(name: string, text: string): void {
  writeFileSync(join(root, 'src', name), text);
}

/** What `src/hello.ts` exports as `said`, loaded in a new process. */
async function said(env: Record<string, string> = {}): Promise<string> {
  const script = `const { loadEntry } = await import(${JSON.stringify(loader)});
const entry = await loadEntry('hello', ${JSON.stringify(root)});
process.stdout.write(String(entry.said));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
  });
  return stdout;
}

const bundle = () => join(root, '.bundle', 'hello.mjs');

describe('loading an entry of the CLI', () => {
  it('runs TypeScript from a bundle of the entry and what it imports', async () => {
    writeSource('words.ts', "export const greeting: string = 'hello';\n");
    writeSource(
      'hello.ts',
      "import { greeting } from './words.ts';\nexport const said = `${greeting} once`;\n",
    );
    expect(await said()).toBe('hello once');
    expect(statSync(bundle()).isFile()).toBe(true);
  });

  it('keeps the bundle while nothing it was made from changes', async () => {
    writeSource('hello.ts', "export const said: string = 'unchanged';\n");
    await said();
    const made = statSync(bundle()).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await said()).toBe('unchanged');
    expect(statSync(bundle()).mtimeMs).toBe(made);
  });

  it('makes the bundle again when a file it imports changes', async () => {
    writeSource('words.ts', "export const greeting: string = 'before';\n");
    writeSource(
      'hello.ts',
      "import { greeting } from './words.ts';\nexport const said = greeting;\n",
    );
    expect(await said()).toBe('before');
    // Same size, a later time: the content is not compared, the stamp is.
    writeSource('words.ts', "export const greeting: string = 'after!';\n");
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'src', 'words.ts'), later, later);
    expect(await said()).toBe('after!');
  });

  it('runs through tsx, with no bundle, when bundles are turned off', async () => {
    writeSource('hello.ts', "export const said: string = 'through tsx';\n");
    expect(await said({ DOCKET_CLI_BUNDLE: 'off' })).toBe('through tsx');
    expect(statSync(bundle(), { throwIfNoEntry: false })).toBeUndefined();
  });

  it('runs through tsx when the bundle cannot be made', async () => {
    // esbuild refuses this file (it is not TypeScript); tsx reports the same fault, so the entry
    // that cannot be bundled is not silently skipped either.
    writeSource('hello.ts', 'export const said = ;\n');
    await expect(said()).rejects.toThrow(/hello\.ts/);
    expect(statSync(bundle(), { throwIfNoEntry: false })).toBeUndefined();
  });
});
