import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyScreen } from './route-page.tsx';

afterEach(cleanup);

function Deck() {
  return <h1>Deck</h1>;
}

/** Renders `Screen` inside a Suspense boundary whose fallback says "Loading". */
function renderWithFallback(Screen: ComponentType) {
  act(() => {
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Screen />
      </Suspense>,
    );
  });
}

describe('lazyScreen', () => {
  it('renders a screen whose code was preloaded in the same pass, without its fallback', async () => {
    const DeckScreen = lazyScreen(() => Promise.resolve(Deck));
    DeckScreen.preload();
    // The preload's promise settles.
    await act(async () => {
      await Promise.resolve();
    });
    renderWithFallback(DeckScreen);
    // Synchronously there: no fallback was ever committed, so no Suspense throttle applies.
    expect(screen.getByRole('heading', { name: 'Deck' })).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();
  });

  it('shows the fallback while a screen not yet loaded loads, then the screen', async () => {
    let resolve: (screen: typeof Deck) => void = () => undefined;
    const DeckScreen = lazyScreen(
      () =>
        new Promise<typeof Deck>((settle) => {
          resolve = settle;
        }),
    );
    renderWithFallback(DeckScreen);
    expect(screen.getByText('Loading')).toBeTruthy();
    resolve(Deck);
    expect(await screen.findByRole('heading', { name: 'Deck' })).toBeTruthy();
  });

  it('tries a failed load again on the next render', async () => {
    let attempts = 0;
    const DeckScreen = lazyScreen(() => {
      attempts++;
      return attempts === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(Deck);
    });
    DeckScreen.preload();
    await act(async () => {
      await Promise.resolve();
    });
    renderWithFallback(DeckScreen);
    expect(await screen.findByRole('heading', { name: 'Deck' })).toBeTruthy();
    expect(attempts).toBe(2);
  });
});
