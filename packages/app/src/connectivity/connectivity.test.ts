import { describe, expect, it } from 'vitest';
import { watchConnectivity } from './connectivity.ts';

function setup(startsOffline = false) {
  const events = new EventTarget();
  const calls: string[] = [];
  const stop = watchConnectivity(
    events,
    {
      setOnline: (online) => calls.push(`setOnline(${online})`),
      navigateHome: () => calls.push('navigateHome'),
      reloadPage: () => calls.push('reloadPage'),
    },
    startsOffline,
  );
  const fire = (type: 'online' | 'offline') => events.dispatchEvent(new Event(type));
  return { calls, fire, stop };
}

describe('watchConnectivity', () => {
  it('sets online to false when the browser goes offline', () => {
    const { calls, fire } = setup();
    fire('offline');
    expect(calls).toEqual(['setOnline(false)']);
  });

  it('on return after being offline: navigates home, reloads, then sets online, in that order', () => {
    const { calls, fire } = setup();
    fire('offline');
    fire('online');
    expect(calls).toEqual(['setOnline(false)', 'navigateHome', 'reloadPage', 'setOnline(true)']);
  });

  it('does nothing when online fires without a prior offline', () => {
    const { calls, fire } = setup();
    fire('online');
    expect(calls).toEqual([]);
  });

  it('reacts to one return per time offline', () => {
    const { calls, fire } = setup();
    fire('offline');
    fire('online');
    fire('online');
    expect(calls.filter((call) => call === 'reloadPage')).toHaveLength(1);
  });

  it('treats an app that starts without a connection as offline', () => {
    const { calls, fire } = setup(true);
    expect(calls).toEqual(['setOnline(false)']);
    fire('online');
    expect(calls.slice(1)).toEqual(['navigateHome', 'reloadPage', 'setOnline(true)']);
  });

  it('stops listening', () => {
    const { calls, fire, stop } = setup();
    stop();
    fire('offline');
    expect(calls).toEqual([]);
  });
});
