import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
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
import { type Bill, billSchema } from '@docket/core/bills';
import { zerosDeflate, zipOfEntry } from '@docket/core/test-support/hostile-zips';

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

  it('imports a LegiScan dataset ZIP and applies a session override, naming files not used', async () => {
    const folder = join(scratch, 'wa');
    cpSync(join(repoRoot, samples, 'legiscan/dataset'), folder, { recursive: true });
    writeFileSync(join(folder, 'README.txt'), 'LegiScan dataset\n');
    const zip = join(scratch, 'wa.zip');
    zipFolder(folder, zip);
    const out = join(scratch, 'wa.jsonl');
    const run = await docket('import', zip, '--out', out, '--session', '2023 Regular');
    expect(run.status).toBe(0);
    expect(readBills(out).map((bill) => bill.id)).toEqual([
      'us-wa/2023-regular/hb-1002',
      'us-wa/2023-regular/sb-5003',
    ]);
    expect(run.stdout).toContain('Format: legiscan');
    expect(run.stderr).toContain(
      'wa.zip/README.txt: not bill data: a README, licence or other note that travels with datasets',
    );
    expect(run.stderr).toMatch(
      /not used: .*wa\.zip\/WA\/2023-2024_Regular_Session\/vote\/7099\.json: a LegiScan roll call of bill_id 1999999, which is not among the bills imported/,
    );
    expect(run.stdout).toContain('Files not used: 2');
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

  it('reports each bad XML file with its name, its line and a message a person can act on', async () => {
    const source = fixturesPresent
      ? join(fixtures, 'billstatus-xml-116/116/bills/sjres/sjres68/fdsys_billstatus.xml')
      : join(repoRoot, samples, 'billstatus/BILLSTATUS-118hr9901.xml');
    const text = readFileSync(source, 'utf8');
    const folder = join(scratch, 'bad-xml');
    mkdirSync(folder);
    const cut = text.slice(0, Math.floor(text.length / 2));
    const cutAtTag = cut.slice(0, cut.lastIndexOf('>') + 1);
    const bad: [string, string | Uint8Array, string][] = [
      [
        'cut.xml',
        cutAtTag,
        `XML cut short: the file ends at line ${cutAtTag.split('\n').length} with <billStatus>`,
      ],
      [
        'doctype.xml',
        text.replace(/<billStatus>/, '<!DOCTYPE billStatus [<!ENTITY x "x">]>\n<billStatus>'),
        'XML with a DOCTYPE is not read (entities are refused for safety)',
      ],
      [
        'ebcdic.xml',
        text.replace(/encoding="[^"]*"/, 'encoding="IBM037"'),
        'XML in the IBM037 encoding is not supported',
      ],
      ['utf32.xml', Uint8Array.from([0xff, 0xfe, 0, 0, 0x3c, 0, 0, 0]), 'Not a known bill format'],
      ['control.xml', text.replace('<title>', '<ti\u0007\u001b[2Jtle>'), 'is an invalid name'],
      ['binary.xml', Uint8Array.from([0x3c, 0x62, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0x07, 0xff]), ''],
    ];
    for (const [name, content] of bad) writeFileSync(join(folder, name), content);
    const run = await docket(
      'import',
      relative(repoRoot, folder),
      '--out',
      join(scratch, 'bad.jsonl'),
    );
    expect(run.status).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    for (const [name, , message] of bad) {
      const line = lines.find((candidate) => candidate.includes(`/${name}: `));
      expect(line, name).toContain(message);
    }
    // eslint-disable-next-line no-control-regex -- the check is that none reach the terminal
    expect(run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('reports each bad archive and file of the bad-input table with its message, importing the rest', async () => {
    const source = join(repoRoot, samples, 'billstatus/BILLSTATUS-118hr9901.xml');
    const xml = readFileSync(source, 'utf8');
    const legiscanBill = readFileSync(
      join(repoRoot, samples, 'legiscan/dataset/WA/2023-2024_Regular_Session/bill/HB1002.json'),
    );
    const folder = join(scratch, 'bad-input');
    mkdirSync(folder);
    const wellFormed = zipSync({ 'bill.json': new Uint8Array(legiscanBill) });
    // 16 MB of JSON whitespace in about 16 KB: honest sizes, a ratio no real data has.
    const whitespace = new Uint8Array(16 * 1024 * 1024).fill(0x20);
    whitespace[0] = 0x7b;
    whitespace[whitespace.length - 1] = 0x7d;
    const utf16 = new Uint8Array(2 + xml.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let index = 0; index < xml.length; index++) {
      const unit = xml.charCodeAt(index);
      utf16[2 + 2 * index] = unit & 0xff;
      utf16[3 + 2 * index] = unit >>> 8;
    }
    const bad: [string, string | Uint8Array, string][] = [
      ['cut.zip', wellFormed.slice(0, wellFormed.length - 10), 'not a readable ZIP archive: '],
      [
        'liar.zip',
        zipOfEntry('bills.json', zerosDeflate(4_200_000), { size: 1000, crc: 0 }),
        'ZIP entry could not be read: it inflates past the 1000 bytes it declares; inflating was stopped and the entry refused as a possible ZIP bomb',
      ],
      [
        'whitespace.zip',
        zipSync({ 'big.json': whitespace }),
        'over the limit of 100 times for entries over 4 MB; refused as a possible ZIP bomb',
      ],
      [
        'nested.zip',
        zipSync({ 'inner.zip': wellFormed }),
        'a ZIP inside a ZIP is not read; unzip the outer archive first',
      ],
      [
        'cut.json',
        legiscanBill.subarray(0, Math.floor(legiscanBill.length / 2)),
        'Malformed JSON: ',
      ],
      ['empty.json', '', 'file is empty'],
      [
        'binary.dat',
        Uint8Array.from([0x00, 0x1b, 0x5b, 0x32, 0x4a, 0x07, 0xff, 0xfe, 0x80]),
        'Not a known bill format',
      ],
    ];
    for (const [name, content] of bad) writeFileSync(join(folder, name), content);
    // Encodings the XML reader decodes: UTF-16 with a byte-order mark, declared ISO-8859-1.
    writeFileSync(join(folder, 'utf16.xml'), utf16);
    writeFileSync(
      join(folder, 'latin1.xml'),
      Buffer.from(
        xml
          .replace(/encoding="[^"]*"/, 'encoding="ISO-8859-1"')
          .replace(/<billNumber>9901<\/billNumber>/, '<billNumber>9902</billNumber>')
          .replace(/<title>/, '<title>Caf\u00e9 '),
        'latin1',
      ),
    );
    const out = join(scratch, 'bad-input.jsonl');
    const run = await docket('import', relative(repoRoot, folder), '--out', out);
    const lines = run.stderr.trimEnd().split('\n');
    for (const [name, , message] of bad) {
      const line = lines.find((candidate) => candidate.includes(`/${name}`));
      expect(line, name).toContain(message);
    }
    expect(lines.some((line) => line.includes('utf16.xml') || line.includes('latin1.xml'))).toBe(
      false,
    );
    expect(run.status).toBe(0);
    const bills = readBills(out);
    expect(bills.map((bill) => bill.id)).toEqual(['us/118/hr-9901', 'us/118/hr-9902']);
    expect(bills[1]?.title).toMatch(/^Café /);
    // eslint-disable-next-line no-control-regex -- the check is that none reach the terminal
    expect(run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
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

  // Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
  // is absent (a checkout without shared/ beside it); CI always has it.
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
