import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { billSchema } from '@docket/core/bill';
import type { Bill } from '@docket/core/bill';

// These tests run the real command, as a user would, in child processes (several at once: each
// spends most of its second starting Node and tsx).

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const launcher = join(repoRoot, 'packages/cli/bin/docket.mjs');
const samples = 'packages/core/test-samples';
const fixtures = resolve(repoRoot, '../shared/fixtures');
const fixturesPresent = existsSync(fixtures);
if (!fixturesPresent)
  console.warn(`${fixtures} (../shared/fixtures) absent: real-file tests skipped`);

const scratch = mkdtempSync(join(tmpdir(), 'docket-cli-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function docket(
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [launcher, ...args], { cwd: repoRoot, timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (status) => {
      done({ status, stdout, stderr });
    });
  });
}

function readBills(path: string): Bill[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => billSchema.parse(JSON.parse(line)));
}

function zipFolder(folder: string, target: string): void {
  const entries: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else entries[relative(folder, path)] = new Uint8Array(readFileSync(path));
    }
  };
  walk(folder);
  writeFileSync(target, zipSync(entries));
}

describe.concurrent('docket usage', () => {
  it('prints help and exits 0', async () => {
    const run = await docket('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^Usage: docket import <files or folders\.\.\.> --out <bills\.jsonl>/,
    );
  });

  it.each([
    [[], 'no command given'],
    [['export'], 'unknown command "export"'],
    [['import', `${samples}/docket-csv`], 'import needs --out <file>'],
    [['import', '--out', join(scratch, 'x.jsonl')], 'import needs at least one file or folder'],
    [
      ['import', `${samples}/docket-csv`, '--out', join(scratch, 'x.jsonl'), '--colour'],
      'unknown option "--colour"',
    ],
    [
      ['import', 'no/such/folder', '--out', join(scratch, 'x.jsonl')],
      'no such file or folder: no/such/folder',
    ],
  ])('exits 2 with a usage message for %j', async (args, message) => {
    const run = await docket(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`docket: ${message}`);
    expect(run.stderr).toContain('Usage: docket import');
  });
});

describe.concurrent('docket import', () => {
  it('imports hand-made samples of several formats, writes JSON Lines and reports each error', async () => {
    const out = join(scratch, 'samples.jsonl');
    const run = await docket(
      'import',
      `${samples}/congress-json`,
      `${samples}/billstatus`,
      `${samples}/docket-csv/bills.csv`,
      '--out',
      out,
    );
    expect(run.status).toBe(0);
    const bills = readBills(out);
    expect(bills.map((bill) => bill.id)).toEqual([
      'us/118/hr-9901',
      'us/118/sjres-301',
      'us/118/sres-777',
      'us-ca/2023-2024/ab-12',
      'us-wa/2023-2024-regular-session/hb-1001',
    ]);
    expect(run.stdout).toBe(
      [
        'Format: mixed (billstatus, congress-json, docket-csv)',
        'Files: 7',
        'Records read: 13',
        'Bills written: 5 (to ' + out + ')',
        'Errors: 6',
        '',
      ].join('\n'),
    );
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(6);
    expect(run.stderr).toContain(
      `error: ${samples}/congress-json/118/bills/hjres/hjres9902/data.json, hjres9902-118: missing title`,
    );
  });

  it('imports a LegiScan dataset ZIP and applies a session override', async () => {
    const zip = join(scratch, 'wa.zip');
    zipFolder(join(repoRoot, samples, 'legiscan/dataset'), zip);
    const out = join(scratch, 'wa.jsonl');
    const run = await docket('import', zip, '--out', out, '--session', '2023 Regular');
    expect(run.status).toBe(0);
    expect(readBills(out).map((bill) => bill.id)).toEqual([
      'us-wa/2023-regular/hb-1002',
      'us-wa/2023-regular/sb-5003',
    ]);
    expect(run.stdout).toContain('Format: legiscan');
  });

  it('writes to standard output with --out -, the summary going to standard error', async () => {
    const run = await docket(
      'import',
      `${samples}/openstates/api-v3/single-bill.json`,
      '--out',
      '-',
      '--jurisdiction',
      'KY',
    );
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout) as unknown).toMatchObject({
      id: 'us-ky/135/sb-99',
      status: 'vetoed',
    });
    expect(run.stderr).toContain('Bills written: 1 (to standard output)');
  });

  it('exits 1 and writes nothing when nothing could be imported', async () => {
    const notes = join(scratch, 'notes.csv');
    writeFileSync(notes, 'name,phone\nA,1\n');
    const out = join(scratch, 'none.jsonl');
    const run = await docket('import', notes, '--out', out);
    expect(run.status).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(run.stderr).toContain(
      'Not a known bill format: expected LegiScan JSON or ZIP, Open States JSON or CSV, GovInfo BILLSTATUS XML, congress data.json, or Docket CSV.',
    );
    expect(run.stdout).toContain('Bills written: 0 (nothing written)');
  });

  it.skipIf(!fixturesPresent)(
    'imports the real congress-json folder: 562 bills, no errors',
    async () => {
      const out = join(scratch, 'congress.jsonl');
      const run = await docket(
        'import',
        relative(repoRoot, join(fixtures, 'congress-json')),
        '--out',
        out,
      );
      expect(run.status).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(
        'Format: congress-json\nFiles: 562\nRecords read: 562\nBills written: 562',
      );
      const bills = readBills(out);
      expect(bills).toHaveLength(562);
      expect(bills.find((bill) => bill.id === 'us/116/hr-1')?.title).toBe(
        'For the People Act of 2019',
      );
    },
  );
});
