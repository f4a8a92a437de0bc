import type { KeyboardEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { deckKeyHandler, type DeckKeys, isTypingTarget } from './deck-keys.ts';

/** A key pressed on `target`, with the modifiers given. */
function press(
  key: string,
  target: EventTarget = document.createElement('section'),
  modifiers: Partial<Record<'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey', boolean>> = {},
) {
  const preventDefault = vi.fn();
  const event = {
    key,
    target,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    ...modifiers,
    preventDefault,
  } as unknown as KeyboardEvent<HTMLElement>;
  return { event, preventDefault };
}

function deck(change: Partial<DeckKeys> = {}) {
  return {
    readOnly: false,
    canUndo: true,
    hasCard: true,
    run: vi.fn(),
    undo: vi.fn(() => Promise.resolve()),
    ...change,
  };
}

describe('isTypingTarget', () => {
  it('takes fields and what is inside Ionic’s fields as typing', () => {
    expect(isTypingTarget(document.createElement('input'))).toBe(true);
    expect(isTypingTarget(document.createElement('textarea'))).toBe(true);
    expect(isTypingTarget(document.createElement('select'))).toBe(true);
    const searchbar = document.createElement('ion-searchbar');
    const inner = document.createElement('div');
    searchbar.append(inner);
    expect(isTypingTarget(inner)).toBe(true);
  });

  it('leaves the deck and its buttons to the deck', () => {
    expect(isTypingTarget(document.createElement('section'))).toBe(false);
    expect(isTypingTarget(document.createElement('button'))).toBe(false);
    expect(isTypingTarget(new EventTarget())).toBe(false);
  });
});

describe('deckKeyHandler', () => {
  it('decides the card on top with an arrow key', () => {
    const keys = deck();
    const { event, preventDefault } = press('ArrowRight');
    deckKeyHandler(keys)(event);
    expect(keys.run).toHaveBeenCalledWith('track');
    expect(preventDefault).toHaveBeenCalled();
  });

  it('undoes with Z when there is something to undo, and keeps Z from the page either way', () => {
    const keys = deck();
    deckKeyHandler(keys)(press('z').event);
    expect(keys.undo).toHaveBeenCalledOnce();

    const nothing = deck({ canUndo: false });
    const { event, preventDefault } = press('z');
    deckKeyHandler(nothing)(event);
    expect(nothing.undo).not.toHaveBeenCalled();
    expect(preventDefault).toHaveBeenCalled();
  });

  it('does nothing for a viewer, in a field, with a modifier or without a card', () => {
    const cases = [
      { keys: deck({ readOnly: true }), key: press('ArrowLeft') },
      { keys: deck(), key: press('ArrowLeft', document.createElement('input')) },
      { keys: deck(), key: press('ArrowLeft', undefined, { shiftKey: true }) },
      { keys: deck({ hasCard: false }), key: press('ArrowUp') },
    ];
    for (const { keys, key } of cases) {
      deckKeyHandler(keys)(key.event);
      expect(keys.run).not.toHaveBeenCalled();
      expect(key.preventDefault).not.toHaveBeenCalled();
    }
  });
});
