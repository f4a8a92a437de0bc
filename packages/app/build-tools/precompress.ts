import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text the browser fetches; images other than SVG are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|wasm|txt|map)$/i;
/** Below this, the headers cost more than compression saves. */
const MIN_BYTES = 1024;

export interface PrecompressedFile {
  readonly path: string;
  readonly bytes: number;
  readonly brotliBytes: number;
  readonly gzipBytes: number;
}

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes `name.br` and `name.gz` beside every compressible file of `dir` of at least 1 KB, at
 * the strongest settings (this runs once per build, not per request), and only where the result
 * is smaller. The server sends them to browsers that accept them.
 */
export async function precompressFolder(dir: string): Promise<PrecompressedFile[]> {
  const done: PrecompressedFile[] = [];
  for await (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(path) || (await stat(path)).size < MIN_BYTES) continue;
    const bytes = await readFile(path);
    const [br, gz] = await Promise.all([
      brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
      gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    if (br.length < bytes.length) await writeFile(`${path}.br`, br);
    if (gz.length < bytes.length) await writeFile(`${path}.gz`, gz);
    done.push({ path, bytes: bytes.length, brotliBytes: br.length, gzipBytes: gz.length });
  }
  return done;
}

/**
 * A Vite plugin that precompresses the build's output once everything, the service worker
 * included, is written (the service worker's precache lists only the plain files).
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'docket-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/')
        ? config.build.outDir
        : join(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        const files = await precompressFolder(outDir);
        const plain = files.reduce((sum, file) => sum + file.bytes, 0);
        const compressed = files.reduce((sum, file) => sum + file.brotliBytes, 0);
        this.info(
          `precompressed ${files.length} files: ${plain.toLocaleString('en')} bytes, ` +
            `${compressed.toLocaleString('en')} with brotli`,
        );
      },
    },
  };
}
