import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nativeAlerts, notificationId } from './native-alerts.ts';

// Local Notifications replaced where it enters: permissions the test sets, and the
// notifications scheduled.
const plugin = vi.hoisted(() => {
  const state = { display: 'prompt' as string, answer: 'granted' as string };
  return {
    state,
    LocalNotifications: {
      checkPermissions: vi.fn(() => Promise.resolve({ display: state.display })),
      requestPermissions: vi.fn(() => {
        state.display = state.answer;
        return Promise.resolve({ display: state.display });
      }),
      schedule: vi.fn((_: { notifications: { id: number; title: string; body: string }[] }) =>
        Promise.resolve({ notifications: [] }),
      ),
    },
  };
});

vi.mock('@capacitor/local-notifications', () => ({
  LocalNotifications: plugin.LocalNotifications,
}));

beforeEach(() => {
  plugin.state.display = 'prompt';
  plugin.state.answer = 'granted';
  vi.clearAllMocks();
});

describe('alerts in the native shells', () => {
  it('asks the system once, and only when it has not been answered', async () => {
    expect(await nativeAlerts.allowed()).toBe(false);
    expect(await nativeAlerts.askToAllow()).toBe(true);
    expect(await nativeAlerts.askToAllow()).toBe(true);
    expect(plugin.LocalNotifications.requestPermissions).toHaveBeenCalledTimes(1);
    expect(await nativeAlerts.allowed()).toBe(true);
  });

  it('does not ask again once the user said no, and says where to allow them', async () => {
    plugin.state.display = 'denied';
    expect(await nativeAlerts.askToAllow()).toBe(false);
    expect(plugin.LocalNotifications.requestPermissions).not.toHaveBeenCalled();
    expect(nativeAlerts.refusedMessage).toMatch(/system settings/);
  });

  it('shows an alert at once, one notification per tag', async () => {
    await nativeAlerts.show({ title: 'HB 1 changed', body: 'New action: Read', tag: 'job-1' });
    await nativeAlerts.show({ title: 'HB 1 changed', body: 'Status: Passed', tag: 'job-1' });
    await nativeAlerts.show({ title: 'SB 2 changed', body: 'New vote', tag: 'job-2' });
    const ids = plugin.LocalNotifications.schedule.mock.calls.map(
      ([options]) => options.notifications[0]?.id,
    );
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(plugin.LocalNotifications.schedule.mock.calls[0]?.[0].notifications[0]).toEqual({
      id: notificationId('job-1'),
      title: 'HB 1 changed',
      body: 'New action: Read',
    });
  });

  it('numbers tags as Android wants: positive 31-bit integers', () => {
    for (const tag of ['', 'a', 'job-0192f0c2-7a7e-7c3e-8f00-000000000000', '€'.repeat(500)]) {
      const id = notificationId(tag);
      expect(Number.isInteger(id)).toBe(true);
      expect(id).toBeGreaterThan(0);
      expect(id).toBeLessThan(2 ** 31);
    }
  });
});
