import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryKeyValueStore } from './memory-key-value-store.ts';
import { SHARED_FILES_FOLDER, WRITE_CHUNK_BYTES } from './native-file-sharing.ts';
import { createNativePlatform } from './native-platform.ts';

// The Capacitor plugins are replaced where they enter: a file system that keeps what it was
// given (base64 text, as the bridge carries it) and a share sheet that records its calls.
const plugins = vi.hoisted(() => {
  const files = new Map<string, string[]>();
  return {
    files,
    Filesystem: {
      rmdir: vi.fn((_: { path: string; directory: string; recursive: boolean }) => {
        return Promise.reject(new Error('Folder does not exist.'));
      }),
      writeFile: vi.fn((options: { path: string; data: string; directory: string }) => {
        files.set(options.path, [options.data]);
        return Promise.resolve({ uri: `file:///cache/${options.path}` });
      }),
      appendFile: vi.fn((options: { path: string; data: string; directory: string }) => {
        files.get(options.path)?.push(options.data);
        return Promise.resolve();
      }),
      deleteFile: vi.fn((options: { path: string; directory: string }) => {
        files.delete(options.path);
        return Promise.resolve();
      }),
    },
    Share: {
      share: vi.fn((_: Record<string, unknown>) => Promise.resolve({ activityType: 'files' })),
    },
  };
});

vi.mock('@capacitor/filesystem', () => ({
  Directory: { Cache: 'CACHE', Documents: 'DOCUMENTS' },
  Filesystem: plugins.Filesystem,
}));
vi.mock('@capacitor/share', () => ({ Share: plugins.Share }));

function platform() {
  return createNativePlatform(
    'android',
    'https://docket.example.org',
    createMemoryKeyValueStore().store,
  );
}

/** Whether the file at `path` holds exactly `bytes` (compared as buffers: toEqual on MBs crawls). */
function holds(path: string, bytes: Uint8Array): boolean {
  const pieces = plugins.files.get(path) ?? [];
  return Buffer.concat(pieces.map((piece) => Buffer.from(piece, 'base64'))).equals(bytes);
}

function pattern(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let index = 0; index < size; index += 1) bytes[index] = (index * 7 + 3) % 256;
  return bytes;
}

beforeEach(() => {
  plugins.files.clear();
});

afterEach(() => {
  vi.clearAllMocks();
});

describe('the native saveFile', () => {
  it('writes the file to the cache and opens the share sheet on it', async () => {
    const bytes = new TextEncoder().encode('{"format":"docket-export"}');
    await platform().saveFile('docket-export.json', bytes, 'application/json');

    const path = `${SHARED_FILES_FOLDER}/docket-export.json`;
    expect(plugins.Filesystem.rmdir).toHaveBeenCalledWith({
      path: SHARED_FILES_FOLDER,
      directory: 'CACHE',
      recursive: true,
    });
    expect(plugins.Filesystem.writeFile).toHaveBeenCalledWith(
      expect.objectContaining({ path, directory: 'CACHE', recursive: true }),
    );
    expect(plugins.Filesystem.appendFile).not.toHaveBeenCalled();
    expect(holds(path, bytes)).toBe(true);
    expect(plugins.Share.share).toHaveBeenCalledWith(
      expect.objectContaining({ files: [`file:///cache/${path}`] }),
    );
  });

  it('writes a large file in appended pieces of a few MB, never as one string', async () => {
    const bytes = pattern(2 * WRITE_CHUNK_BYTES + 5);
    await platform().saveFile('docket-full-backup-2025-01-02.docket-backup', bytes, 'x');

    const path = `${SHARED_FILES_FOLDER}/docket-full-backup-2025-01-02.docket-backup`;
    expect(plugins.Filesystem.writeFile).toHaveBeenCalledTimes(1);
    expect(plugins.Filesystem.appendFile).toHaveBeenCalledTimes(2);
    const pieces = plugins.files.get(path) ?? [];
    expect(pieces.map((piece) => piece.length)).toEqual([
      (WRITE_CHUNK_BYTES / 3) * 4,
      (WRITE_CHUNK_BYTES / 3) * 4,
      8,
    ]);
    expect(holds(path, bytes)).toBe(true);
  });

  it('reads a Blob a piece at a time too', async () => {
    const bytes = pattern(WRITE_CHUNK_BYTES + 1);
    await platform().saveFile('trace.json', new Blob([bytes]), 'application/json');
    expect(plugins.Filesystem.appendFile).toHaveBeenCalledTimes(1);
    expect(holds(`${SHARED_FILES_FOLDER}/trace.json`, bytes)).toBe(true);
  });

  it('writes an empty file', async () => {
    await platform().saveFile('empty.csv', new Uint8Array(0), 'text/csv');
    expect(plugins.files.get(`${SHARED_FILES_FOLDER}/empty.csv`)).toEqual(['']);
  });

  it('keeps a name from reaching outside its folder', async () => {
    await platform().saveFile('../a/b.json', new Uint8Array([1]), 'application/json');
    expect(plugins.files.has(`${SHARED_FILES_FOLDER}/..-a-b.json`)).toBe(true);
  });

  it('takes a closed share sheet as no error', async () => {
    plugins.Share.share.mockRejectedValueOnce(new Error('Share canceled'));
    await expect(
      platform().saveFile('a.json', new Uint8Array([1]), 'application/json'),
    ).resolves.toBeUndefined();
  });

  it('reports a share that failed', async () => {
    plugins.Share.share.mockRejectedValueOnce(new Error('No app can open this file'));
    await expect(
      platform().saveFile('a.json', new Uint8Array([1]), 'application/json'),
    ).rejects.toThrow('No app can open this file');
  });

  it('removes a half-written file and shares nothing when writing fails', async () => {
    plugins.Filesystem.appendFile.mockRejectedValueOnce(new Error('No space left on device'));
    await expect(
      platform().saveFile('big.docket-backup', pattern(WRITE_CHUNK_BYTES + 1), 'x'),
    ).rejects.toThrow('No space left on device');
    expect(plugins.Filesystem.deleteFile).toHaveBeenCalledWith({
      path: `${SHARED_FILES_FOLDER}/big.docket-backup`,
      directory: 'CACHE',
    });
    expect(plugins.files.size).toBe(0);
    expect(plugins.Share.share).not.toHaveBeenCalled();
  });
});

describe('the native shareLink', () => {
  it('always can share, through the share sheet', async () => {
    const native = platform();
    expect(native.canShareLinks()).toBe(true);
    await native.shareLink('https://docket.example.org/public-link/1#k=abc', 'Shared bills');
    expect(plugins.Share.share).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Shared bills',
        url: 'https://docket.example.org/public-link/1#k=abc',
      }),
    );
  });

  it('takes a closed share sheet as no error and reports other failures', async () => {
    plugins.Share.share.mockRejectedValueOnce(new Error('Share canceled'));
    await expect(platform().shareLink('https://x.example/', 'Shared bills')).resolves.toBe(
      undefined,
    );
    plugins.Share.share.mockRejectedValueOnce(new Error('Activity not found'));
    await expect(platform().shareLink('https://x.example/', 'Shared bills')).rejects.toThrow(
      'Activity not found',
    );
  });
});
