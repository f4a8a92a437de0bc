import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  syncStatuses,
  syncStatusMachine,
  syncStatusOf,
  type SyncStatusEvent,
} from './sync-status-machine.ts';

function started() {
  const actor = createActor(syncStatusMachine);
  actor.start();
  return {
    actor,
    send: (event: SyncStatusEvent) => {
      actor.send(event);
    },
    status: () => syncStatusOf(actor.getSnapshot()),
    context: () => actor.getSnapshot().context,
  };
}

describe('sync status (spec §4)', () => {
  it('starts idle with retrySeqno 0 and no password', () => {
    const { status, context } = started();
    expect(status()).toBe('idle');
    expect(context()).toEqual({ retrySeqno: 0, password: null });
  });

  it('follows each event of the table', () => {
    const { send, status } = started();
    send({ type: 'need-password', direction: 'up' });
    expect(status()).toBe('waiting-for-password-sync-up');
    send({ type: 'need-password', direction: 'dn' });
    expect(status()).toBe('waiting-for-password-sync-dn');
    send({ type: 'has-password', direction: 'up' });
    expect(status()).toBe('start-sync-up');
    send({ type: 'has-password', direction: 'dn' });
    expect(status()).toBe('start-sync-dn');
    send({ type: 'sync-complete' });
    expect(status()).toBe('idle');
  });

  it('stores the password on change password, whatever the status', () => {
    const { send, status, context } = started();
    send({ type: 'has-password', direction: 'up' });
    send({ type: 'change-password', password: 'new secret' });
    expect(status()).toBe('start-sync-up');
    expect(context().password).toBe('new secret');
  });

  it('increments retrySeqno on retry with a true flag only', () => {
    const { send, context } = started();
    send({ type: 'retry', flag: true });
    send({ type: 'retry', flag: false });
    send({ type: 'retry', flag: true });
    expect(context().retrySeqno).toBe(2);
  });

  it('holds an entered password in have-password until it is verified or rejected', () => {
    const { send, status, context } = started();
    send({ type: 'need-password', direction: 'dn' });
    send({ type: 'password-entered', password: 'guess' });
    expect(status()).toBe('have-password-sync-dn');
    expect(context().password).toBe('guess');
    send({ type: 'password-rejected' });
    expect(status()).toBe('waiting-for-password-sync-dn');
    expect(context().password).toBeNull();
    send({ type: 'password-entered', password: 'right' });
    send({ type: 'has-password', direction: 'dn' });
    expect(status()).toBe('start-sync-dn');
    expect(context().password).toBe('right');
  });

  it('ignores an entered password when none was asked for', () => {
    const { send, status, context } = started();
    send({ type: 'password-entered', password: 'unasked' });
    expect(status()).toBe('idle');
    expect(context().password).toBeNull();
  });

  it('reaches only the seven statuses, and retrySeqno counts the true retries, for any events', () => {
    const event = fc.oneof(
      fc.record({
        type: fc.constant('need-password' as const),
        direction: fc.constantFrom('up' as const, 'dn' as const),
      }),
      fc.record({
        type: fc.constant('has-password' as const),
        direction: fc.constantFrom('up' as const, 'dn' as const),
      }),
      fc.constant({ type: 'sync-complete' as const }),
      fc.record({ type: fc.constant('change-password' as const), password: fc.string() }),
      fc.record({ type: fc.constant('retry' as const), flag: fc.boolean() }),
      fc.record({ type: fc.constant('password-entered' as const), password: fc.string() }),
      fc.constant({ type: 'password-rejected' as const }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        const { send, status, context } = started();
        for (const e of events) {
          send(e);
          expect(syncStatuses).toContain(status());
        }
        const retries = events.filter((e) => e.type === 'retry' && e.flag).length;
        expect(context().retrySeqno).toBe(retries);
      }),
    );
  });
});
