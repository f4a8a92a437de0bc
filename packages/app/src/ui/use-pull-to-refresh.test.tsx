import { act, cleanup, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PULL_TO_REFRESH_PX, pulledDistance, usePullToRefresh } from './use-pull-to-refresh.ts';

// A finger pulling the top of a list down past the mark and letting go refreshes it once; a
// shorter pull, a cancelled one, a pull up or a second finger do not.

function List({ refresh }: { refresh: () => Promise<void> }) {
  const ref = useRef<HTMLDivElement>(null);
  const state = usePullToRefresh(ref, refresh);
  return (
    <div ref={ref} data-testid="list">
      <p role="status">
        {state.kind === 'pulling'
          ? `${state.ready ? 'ready' : 'pulling'} ${state.distance}`
          : state.kind}
      </p>
    </div>
  );
}

function touch(target: Element, type: string, ys: readonly number[]): void {
  const event = new Event(type, { bubbles: true });
  Object.defineProperty(event, 'touches', {
    value: ys.map((clientY) => ({ clientX: 10, clientY })),
  });
  act(() => {
    target.dispatchEvent(event);
  });
}

afterEach(cleanup);

describe('pull to refresh', () => {
  it('follows half the finger, and refreshes once when let go past the mark', async () => {
    let settle = (): void => undefined;
    const refresh = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          settle = resolve;
        }),
    );
    render(<List refresh={refresh} />);
    const list = screen.getByTestId('list');
    touch(list, 'touchstart', [100]);
    touch(list, 'touchmove', [160]);
    expect(screen.getByRole('status').textContent).toBe('pulling 30');
    touch(list, 'touchmove', [100 + 2 * PULL_TO_REFRESH_PX]);
    expect(screen.getByRole('status').textContent).toBe(`ready ${PULL_TO_REFRESH_PX}`);
    touch(list, 'touchend', []);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('refreshing');
    // A second pull while it refreshes starts nothing.
    touch(list, 'touchstart', [100]);
    touch(list, 'touchmove', [400]);
    touch(list, 'touchend', []);
    expect(refresh).toHaveBeenCalledTimes(1);
    await act(async () => {
      settle();
      await Promise.resolve();
    });
    expect(screen.getByRole('status').textContent).toBe('idle');
  });

  it('does nothing for a short pull, a cancelled one, a pull up or two fingers', () => {
    const refresh = vi.fn(() => Promise.resolve());
    render(<List refresh={refresh} />);
    const list = screen.getByTestId('list');
    touch(list, 'touchstart', [100]);
    touch(list, 'touchmove', [100 + PULL_TO_REFRESH_PX]);
    touch(list, 'touchend', []);
    touch(list, 'touchstart', [100]);
    touch(list, 'touchmove', [400]);
    touch(list, 'touchcancel', []);
    touch(list, 'touchstart', [400]);
    touch(list, 'touchmove', [100]);
    touch(list, 'touchend', []);
    touch(list, 'touchstart', [100, 120]);
    touch(list, 'touchmove', [400, 420]);
    touch(list, 'touchend', []);
    expect(refresh).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('idle');
    expect(pulledDistance(-50)).toBe(0);
  });
});
