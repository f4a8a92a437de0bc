import { randomIdSource } from '@docket/core/commands';
import { ensureDeviceId } from '@docket/core/device';
import type { LocalStore } from '@docket/core/store';
import type { ControlChannel, ImportRunnerApi } from './import-runner.ts';
import { createImportRunner, WORKER_IMPORT_CHUNKS } from './import-runner.ts';
import { type JobLocks, localJobLocks, webJobLocks } from './job-locks.ts';
import type { SourceFetch } from './source-download.ts';
import { relaySourceRequest } from './source-relay.ts';
import { stallGuardedFetch } from './stall-guard.ts';

// The import runner as the browser runs it, in the import worker and in the service worker's
// background refresh alike: the device's database, Web Locks shared by every tab and the service
// worker, the Docket server's relay, the channel that carries Cancel between them.

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The channel on which a tab's Cancel reaches the context running the job. */
export function importControlChannel(): ControlChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel('docket-import-control');
  return {
    post: (message) => {
      channel.postMessage(message);
    },
    listen: (onMessage) => {
      channel.onmessage = (event: MessageEvent<{ type: 'cancel'; jobId: string }>) => {
        onMessage(event.data);
      };
    },
  };
}

/** Web Locks where the context has them (every tab and worker, the service worker too). */
export function browserJobLocks(): JobLocks {
  return 'locks' in navigator ? webJobLocks(navigator.locks) : localJobLocks();
}

export function createWebImportRunner(
  store: LocalStore,
  options: { locks: JobLocks; fetch: SourceFetch },
): ImportRunnerApi {
  const channel = importControlChannel();
  return createImportRunner({
    store,
    locks: options.locks,
    // Every source request, direct or relayed, gives up once the source sends nothing for 90 s.
    fetch: stallGuardedFetch(options.fetch),
    relay: relaySourceRequest,
    sha256Hex,
    newId: () => crypto.randomUUID(),
    deviceId: () =>
      ensureDeviceId(
        store,
        randomIdSource((bytes) => crypto.getRandomValues(bytes)),
      ),
    now: () => new Date().toISOString(),
    ...WORKER_IMPORT_CHUNKS,
    ...(channel === undefined ? {} : { channel }),
  });
}
