import type { FileSharing } from './platform.ts';

/** How long an offered file's object URL lives: revoking it at once can cancel the download. */
const OBJECT_URL_LIFETIME_MS = 60_000;

function blobOf(data: Uint8Array | Blob, mimeType: string): Blob {
  if (data instanceof Blob)
    return data.type === mimeType ? data : data.slice(0, data.size, mimeType);
  // A Blob cannot be made over shared memory; bytes from the store (hundreds of MB for a full
  // backup) are not shared, so they are not copied.
  const bytes =
    data.buffer instanceof ArrayBuffer ? (data as Uint8Array<ArrayBuffer>) : new Uint8Array(data);
  return new Blob([bytes], { type: mimeType });
}

/** A closed share sheet rejects with an AbortError (a DOMException, not always an Error). */
function isAbort(failure: unknown): boolean {
  return (
    typeof failure === 'object' && failure !== null && Reflect.get(failure, 'name') === 'AbortError'
  );
}

/** The browser: a file is a click on an `<a download>` link, a link goes to navigator.share. */
export const webFileSharing: FileSharing = {
  saveFile(name, data, mimeType) {
    const url = URL.createObjectURL(blobOf(data, mimeType));
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => {
      URL.revokeObjectURL(url);
    }, OBJECT_URL_LIFETIME_MS);
    return Promise.resolve();
  },
  canShareLinks: () => typeof navigator.share === 'function',
  async shareLink(url, title) {
    try {
      await navigator.share({ title, url });
    } catch (failure) {
      // Closing the share sheet is the user's choice, not a failure.
      if (isAbort(failure)) return;
      throw failure;
    }
  },
};
