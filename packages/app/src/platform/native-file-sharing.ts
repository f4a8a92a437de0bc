import { Directory, Filesystem } from '@capacitor/filesystem';
import { Share } from '@capacitor/share';
import type { FileSharing } from './platform.ts';

/** Files handed to the share sheet live here, in the cache; each save clears the last one. */
export const SHARED_FILES_FOLDER = 'shared-files';

/**
 * Bytes per write. Filesystem takes base64 text over the bridge, so a file of hundreds of MB is
 * written a piece at a time and never becomes one huge string. A multiple of 3, so each piece
 * encodes without padding.
 */
export const WRITE_CHUNK_BYTES = 3 * 1024 * 1024;

function base64Of(part: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const dataUrl = reader.result;
      if (typeof dataUrl === 'string') resolve(dataUrl.slice(dataUrl.indexOf(',') + 1));
      else reject(new Error('The file could not be read.'));
    };
    reader.onerror = () => {
      reject(reader.error ?? new Error('The file could not be read.'));
    };
    reader.readAsDataURL(part);
  });
}

/** The piece of `data` from `start`, as a Blob: a slice of a Blob, a copy of only those bytes. */
function pieceOf(data: Uint8Array | Blob, start: number): Blob {
  const end = start + WRITE_CHUNK_BYTES;
  return data instanceof Blob ? data.slice(start, end) : new Blob([data.slice(start, end)]);
}

/** Writes `data` to `path` in the cache, piece by piece; answers the file's URI. */
async function writeInPieces(path: string, data: Uint8Array | Blob): Promise<string> {
  const size = data instanceof Blob ? data.size : data.byteLength;
  const { uri } = await Filesystem.writeFile({
    path,
    data: await base64Of(pieceOf(data, 0)),
    directory: Directory.Cache,
    recursive: true,
  });
  for (let start = WRITE_CHUNK_BYTES; start < size; start += WRITE_CHUNK_BYTES) {
    await Filesystem.appendFile({
      path,
      data: await base64Of(pieceOf(data, start)),
      directory: Directory.Cache,
    });
  }
  return uri;
}

/** Both shells reject a closed share sheet with "Share canceled". */
function isCancelledShare(failure: unknown): boolean {
  return failure instanceof Error && /cancel/i.test(failure.message);
}

async function share(options: Parameters<typeof Share.share>[0]): Promise<void> {
  try {
    await Share.share(options);
  } catch (failure) {
    if (isCancelledShare(failure)) return;
    throw failure;
  }
}

/**
 * The iOS and Android shells: their web views ignore `<a download>`, so a file is written to
 * the cache with Capacitor Filesystem and handed to the system share sheet (Save to Files,
 * Drive, mail…); links go to the same sheet.
 */
export const nativeFileSharing: FileSharing = {
  async saveFile(name, data) {
    // Only the file being shared is kept: a full backup can be hundreds of MB.
    await Filesystem.rmdir({
      path: SHARED_FILES_FOLDER,
      directory: Directory.Cache,
      recursive: true,
    }).catch(() => {
      // Nothing was shared before.
    });
    const path = `${SHARED_FILES_FOLDER}/${name.replace(/[\\/]/g, '-')}`;
    let uri: string;
    try {
      uri = await writeInPieces(path, data);
    } catch (failure) {
      await Filesystem.deleteFile({ path, directory: Directory.Cache }).catch(() => {
        // The write failed before the file existed.
      });
      throw failure;
    }
    await share({ title: name, files: [uri], dialogTitle: 'Save or send the file' });
  },
  canShareLinks: () => true,
  shareLink: (url, title) => share({ title, url, dialogTitle: 'Share the link' }),
};
