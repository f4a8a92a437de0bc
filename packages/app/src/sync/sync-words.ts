import type { SyncView } from './sync-runner-types.ts';

// What the header and the More tab say about sync, in one place.

export function syncTime(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** A short label for the header; null when there is nothing to say (signed out, offline). */
export function syncLabel(view: SyncView): string | null {
  switch (view.kind) {
    case 'signed-out':
    case 'offline':
      return null;
    case 'needs-password':
      return view.mode === 'set' ? 'Set up sync' : 'Password needed';
    case 'needs-terms':
      return 'Accept terms';
    case 'syncing':
      if (view.phase === 'upload-files' || view.phase === 'download-files') return filesLabel(view);
      return view.total !== null && view.total > 0
        ? `Syncing ${Math.min(view.done, view.total)} of ${view.total}`
        : 'Syncing…';
    case 'up-to-date':
      return `Synced ${syncTime(view.at)}`;
    case 'error':
      return 'Sync error';
  }
}

/** Megabytes with one decimal ("2.1 MB"), as progress reads them. */
function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}

/** "Uploading 120 of 732 files": how far the dataset files of a sync have come. */
function filesLine(view: Extract<SyncView, { kind: 'syncing' }>): string {
  const verb = view.phase === 'download-files' ? 'Downloading' : 'Uploading';
  if (view.total === null) return `${verb} files…`;
  const done = Math.min(view.done, view.total);
  return view.total === 1 ? `${verb} ${done} of 1 file` : `${verb} ${done} of ${view.total} files`;
}

/** "2.1 MB", or "2.1 of 11.2 MB" when the run knows the whole (downloads); null before any. */
function bytesMoved(view: Extract<SyncView, { kind: 'syncing' }>): string | null {
  const { bytes } = view;
  if (bytes === undefined || view.total === null) return null;
  if (bytes.total === null) return bytes.done === 0 ? null : `${megabytes(bytes.done)} MB`;
  return `${megabytes(Math.min(bytes.done, bytes.total))} of ${megabytes(bytes.total)} MB`;
}

/** The files line with the bytes after it: "Uploading 120 of 732 files · 2.1 MB". */
function filesLabel(view: Extract<SyncView, { kind: 'syncing' }>): string {
  const moved = bytesMoved(view);
  return moved === null ? filesLine(view) : `${filesLine(view)} · ${moved}`;
}

/** "3 changes waiting to sync": what this device holds that has not reached the server. */
export function waitingWords(count: number): string {
  return count === 1 ? '1 change waiting to sync' : `${count} changes waiting to sync`;
}

/** What the More tab says while the server has not yet confirmed a user the device knows. */
export const CHECKING_SIGN_IN =
  'Signed in on this device; waiting for the Docket server to confirm it before syncing.';

/** The whole sentence, for the More tab and screen readers. */
export function syncSentence(view: SyncView): string {
  switch (view.kind) {
    case 'signed-out':
      return 'Sign in to sync your work with your other devices.';
    case 'offline':
      return 'Offline: your changes are kept on this device and sync when the connection returns.';
    case 'needs-password':
      return view.mode === 'set'
        ? 'Set a cloud password to start syncing. Your work stays on this device until then.'
        : 'Enter your cloud password to sync this device. Your changes here are kept meanwhile.';
    case 'needs-terms':
      return 'Accept the terms of service to sync. Your work stays on this device until then.';
    case 'syncing':
      if (view.phase === 'upload-files' || view.phase === 'download-files') {
        const moved = bytesMoved(view);
        const what = `${filesLine(view)} of your datasets${moved === null ? '' : ` (${moved})`}`;
        return view.phase === 'upload-files'
          ? `${what}, encrypted, to the Docket server.`
          : `${what} from your other devices.`;
      }
      return view.phase === 'pull' ? 'Receiving changes from your other devices…' : 'Syncing…';
    case 'up-to-date':
      return `Up to date. Last synced at ${syncTime(view.at)}.`;
    case 'error':
      return view.retryAt === null
        ? view.message
        : `${view.message} Trying again at ${syncTime(new Date(view.retryAt).toISOString())}.`;
  }
}
