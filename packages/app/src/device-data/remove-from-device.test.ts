import type { DeviceDataSummary } from '@docket/core/device';
import { describe, expect, it, vi } from 'vitest';
import { removeAlert, removeMessage, revokeEach } from './remove-from-device.ts';

// "Remove from this device?" at sign-out: the public links made here are named, and offered
// for revoking before the account's work is removed.

const summary: DeviceDataSummary = {
  bills: 3,
  datasets: 0,
  tags: 1,
  positions: 0,
  decisions: 0,
  annotations: 0,
  fullBackups: 0,
  unsynced: 0,
};

const actions = () => ({
  backUpFirst: vi.fn(),
  remove: vi.fn(),
  revokeThenRemove: vi.fn(),
});

describe('removing the account’s work from the device', () => {
  it('names the links that stay live', () => {
    const links = [
      { id: 'l-1', name: 'Committee list' },
      { id: 'l-2', name: 'Tracked' },
    ];
    expect(removeMessage(summary, links)).toContain(
      '2 public links made here stay live (“Committee list” and “Tracked”): anyone holding them can still open them until revoked.',
    );
    expect(removeMessage(summary, [{ id: 'l-1', name: 'Committee list' }])).toContain(
      '1 public link made here stays live (“Committee list”): anyone holding it',
    );
    // A link the server could not name is counted all the same.
    expect(removeMessage(summary, [...links, { id: 'l-3', name: null }])).toContain(
      '3 public links made here stay live (“Committee list”, “Tracked” and 1 more)',
    );
    expect(removeMessage(summary, [{ id: 'l-3', name: null }])).toContain(
      '1 public link made here stays live: anyone',
    );
    expect(removeMessage(summary, [])).not.toContain('public link');
  });

  it('offers "Revoke the N links and remove", which revokes each by its id', async () => {
    const links = [
      { id: 'l-1', name: 'Committee list' },
      { id: 'l-2', name: null },
    ];
    const revoke = vi.fn((_id: string) => Promise.resolve());
    const remove = vi.fn();
    const given = actions();
    const alert = removeAlert(summary, links, {
      ...given,
      remove,
      revokeThenRemove: (ids) => {
        void revokeEach(ids, revoke).then(remove);
      },
    });
    expect(alert.buttons.map((button) => button.text)).toEqual([
      'Make a full backup first',
      'Revoke the 2 links and remove',
      'Remove',
      'Cancel',
    ]);
    alert.buttons[1]?.handler?.();
    await vi.waitFor(() => {
      expect(remove).toHaveBeenCalledOnce();
    });
    expect(revoke.mock.calls.map(([id]) => id)).toEqual(['l-1', 'l-2']);
  });

  it('removes nothing when a link could not be revoked', async () => {
    await expect(
      revokeEach(['l-1', 'l-2'], (id) =>
        id === 'l-2' ? Promise.reject(new Error('refused')) : Promise.resolve(),
      ),
    ).rejects.toThrow('refused');
  });

  it('offers no revoking when no link is live', () => {
    const alert = removeAlert(summary, [], actions());
    expect(alert.buttons.map((button) => button.text)).toEqual([
      'Make a full backup first',
      'Remove',
      'Cancel',
    ]);
  });
});
