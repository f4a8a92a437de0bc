import type { AccountUsageResponse, SpaceUsage } from '@docket/protocol/account-usage';
import { formatSize } from '../ui/formatting.ts';

// What "Space on the server" says of each quota: how much is used, and, when it runs short,
// what happens then, before a push or an upload is refused for it.

export interface SpaceLine {
  readonly kind: keyof AccountUsageResponse;
  readonly name: string;
  /** "1.2 MB of 200.0 MB used" */
  readonly amount: string;
  /** 0…1 of the quota. */
  readonly share: number;
  /** What a person should know at this level; null while there is room. */
  readonly warning: string | null;
}

/** From this share on, a line warns that the room runs short. */
export const ALMOST_FULL = 0.9;

const kinds: readonly {
  kind: keyof AccountUsageResponse;
  name: string;
  whenFull: string;
}[] = [
  {
    kind: 'blobs',
    name: 'Dataset files',
    whenFull: 'new dataset files stay on this device and do not reach your other devices',
  },
  {
    kind: 'log',
    name: 'Synced changes',
    whenFull: 'new changes stay on this device and do not reach your other devices',
  },
  {
    kind: 'backups',
    name: 'Backups and links',
    whenFull: 'no backup or link can be made until you delete some',
  },
];

function line(usage: SpaceUsage, name: string, whenFull: string, kind: SpaceLine['kind']) {
  const share = usage.limitBytes === 0 ? 1 : Math.min(1, usage.usedBytes / usage.limitBytes);
  const warning =
    share >= 1
      ? `Full: ${whenFull}.`
      : share >= ALMOST_FULL
        ? `Almost full: once it is, ${whenFull}.`
        : null;
  return {
    kind,
    name,
    amount: `${formatSize(usage.usedBytes)} of ${formatSize(usage.limitBytes)} used`,
    share,
    warning,
  };
}

export function serverSpaceLines(usage: AccountUsageResponse): SpaceLine[] {
  return kinds.map(({ kind, name, whenFull }) => line(usage[kind], name, whenFull, kind));
}
