import { assign, setup } from 'xstate';

// The sync status of spec §4, exactly: its seven values, initial idle, and the events of its
// table, each allowed from any status (the spec gives no source states). Two events are ours,
// to give the have-password statuses the meaning the spec leaves open:
//
//   have-password-sync-up / -dn   a cloud password was entered (in the cloud password modal)
//                                 and is held in `password`, but not yet checked against the
//                                 verifier (`passwordHash`) in the user's settings. A correct
//                                 one moves on with "has password for sync up/down"; a wrong
//                                 one goes back to waiting with "password rejected".
//
// The status says where sync stands; the sync engine decides which event to send.

export const syncStatuses = [
  'idle',
  'waiting-for-password-sync-up',
  'waiting-for-password-sync-dn',
  'have-password-sync-up',
  'have-password-sync-dn',
  'start-sync-up',
  'start-sync-dn',
] as const;
export type SyncStatus = (typeof syncStatuses)[number];

export type SyncDirection = 'up' | 'dn';

export type SyncStatusEvent =
  /** Spec: need password for sync up / down. */
  | { readonly type: 'need-password'; readonly direction: SyncDirection }
  /** Spec: has password for sync up / down. */
  | { readonly type: 'has-password'; readonly direction: SyncDirection }
  /** Spec: sync complete. */
  | { readonly type: 'sync-complete' }
  /** Spec: change password — stores the password. */
  | { readonly type: 'change-password'; readonly password: string }
  /** Spec: retry; with a true flag it increments retrySeqno. */
  | { readonly type: 'retry'; readonly flag: boolean }
  /** Ours: a password was entered while waiting for one; it is held, not yet verified. */
  | { readonly type: 'password-entered'; readonly password: string }
  /** Ours: the held password did not match the verifier; wait for another. */
  | { readonly type: 'password-rejected' };

export interface SyncStatusContext {
  /** Spec §3: number, default 0. */
  readonly retrySeqno: number;
  /** Spec §3: default null. */
  readonly password: string | null;
}

export const syncStatusMachine = setup({
  types: {
    context: {} as SyncStatusContext,
    events: {} as SyncStatusEvent,
  },
  actions: {
    storePassword: assign({
      password: ({ event }) =>
        event.type === 'change-password' || event.type === 'password-entered'
          ? event.password
          : null,
    }),
    countRetry: assign({
      retrySeqno: ({ context, event }) =>
        event.type === 'retry' && event.flag ? context.retrySeqno + 1 : context.retrySeqno,
    }),
    forgetPassword: assign({ password: null }),
  },
}).createMachine({
  id: 'sync-status',
  initial: 'idle',
  context: { retrySeqno: 0, password: null },
  on: {
    'need-password': [
      {
        guard: ({ event }) => event.direction === 'up',
        target: '.waiting-for-password-sync-up',
      },
      { target: '.waiting-for-password-sync-dn' },
    ],
    'has-password': [
      { guard: ({ event }) => event.direction === 'up', target: '.start-sync-up' },
      { target: '.start-sync-dn' },
    ],
    'sync-complete': { target: '.idle' },
    'change-password': { actions: 'storePassword' },
    retry: { actions: 'countRetry' },
  },
  states: {
    idle: {},
    'waiting-for-password-sync-up': {
      on: {
        'password-entered': { target: 'have-password-sync-up', actions: 'storePassword' },
      },
    },
    'waiting-for-password-sync-dn': {
      on: {
        'password-entered': { target: 'have-password-sync-dn', actions: 'storePassword' },
      },
    },
    'have-password-sync-up': {
      on: {
        'password-rejected': { target: 'waiting-for-password-sync-up', actions: 'forgetPassword' },
      },
    },
    'have-password-sync-dn': {
      on: {
        'password-rejected': { target: 'waiting-for-password-sync-dn', actions: 'forgetPassword' },
      },
    },
    'start-sync-up': {},
    'start-sync-dn': {},
  },
});

/** The status of a snapshot of the machine, typed. */
export function syncStatusOf(snapshot: { value: unknown }): SyncStatus {
  const value = snapshot.value;
  if (typeof value === 'string' && (syncStatuses as readonly string[]).includes(value)) {
    return value as SyncStatus;
  }
  throw new Error(`Not a sync status: ${JSON.stringify(value)}`);
}
