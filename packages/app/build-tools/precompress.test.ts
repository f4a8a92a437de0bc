// @vitest-environment node
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { precompressFolder } from './precompress.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docket-precompress-'));
  await mkdir(join(dir, 'assets'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('writes brotli and gzip copies of text files that decompress to the same bytes', async () => {
  const script = `export const words = ${JSON.stringify('bill '.repeat(2_000))};`;
  await writeFile(join(dir, 'assets', 'index-abc.js'), script);
  await writeFile(join(dir, 'index.html'), `<!doctype html>${'<p>Docket</p>'.repeat(200)}`);

  const files = await precompressFolder(dir);

  expect(files.map((file) => file.path).sort()).toEqual([
    join(dir, 'assets', 'index-abc.js'),
    join(dir, 'index.html'),
  ]);
  const br = await readFile(join(dir, 'assets', 'index-abc.js.br'));
  const gz = await readFile(join(dir, 'assets', 'index-abc.js.gz'));
  expect(brotliDecompressSync(br).toString()).toBe(script);
  expect(gunzipSync(gz).toString()).toBe(script);
  expect(br.length).toBeLessThan(script.length / 10);
});

it('leaves small files, images and its own copies alone', async () => {
  await writeFile(join(dir, 'tiny.js'), 'console.log(1);');
  await writeFile(join(dir, 'photo.png'), Buffer.alloc(4_096, 7));
  await writeFile(join(dir, 'app.css'), 'body { color: black; }\n'.repeat(100));

  await precompressFolder(dir);
  // A second build step over the same folder must not compress the compressed copies.
  await precompressFolder(dir);

  expect((await readdir(dir)).sort()).toEqual([
    'app.css',
    'app.css.br',
    'app.css.gz',
    'assets',
    'photo.png',
    'tiny.js',
  ]);
});
