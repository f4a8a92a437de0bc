import { afterEach, describe, expect, it } from 'vitest';
import { listenForTraversals } from './history-traversal-listener.ts';

// Imported before the "router" below adds its listener, as the app imports it before rendering.
const routerSaw: unknown[] = [];
window.addEventListener('popstate', (event) => {
  routerSaw.push(event.state);
});

function popTo(state: unknown) {
  window.dispatchEvent(new PopStateEvent('popstate', { state }));
}

describe('listenForTraversals', () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    routerSaw.length = 0;
  });

  it('hides an event from listeners added after the module when a form says so', () => {
    stops.push(listenForTraversals((event) => (event.state as { idx: number }).idx === 1));
    popTo({ idx: 1 });
    popTo({ idx: 2 });
    expect(routerSaw).toEqual([{ idx: 2 }]);
  });

  it('passes everything on when no form holds it, or once a form stops listening', () => {
    popTo({ idx: 1 });
    const stop = listenForTraversals(() => true);
    stop();
    popTo({ idx: 2 });
    expect(routerSaw).toEqual([{ idx: 1 }, { idx: 2 }]);
  });

  it('stops at the first form that hides the event', () => {
    const heard: string[] = [];
    stops.push(
      listenForTraversals(() => {
        heard.push('first');
        return true;
      }),
      listenForTraversals(() => {
        heard.push('second');
        return false;
      }),
    );
    popTo({ idx: 3 });
    expect(heard).toEqual(['first']);
    expect(routerSaw).toEqual([]);
  });
});
