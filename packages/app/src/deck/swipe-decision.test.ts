import { describe, expect, it } from 'vitest';
import { arrowKeyDecision, isUndoKey, swipeDecision, swipeDistance } from './swipe-decision.ts';

const drag = (deltaX: number, deltaY: number, velocityX = 0, velocityY = 0) => ({
  deltaX,
  deltaY,
  velocityX,
  velocityY,
});

describe('swipeDecision', () => {
  it('decides on a long enough drag: right tracks, left dismisses, up is for later', () => {
    expect(swipeDistance(360)).toBe(108);
    expect(swipeDistance(120)).toBe(80);
    expect(swipeDistance(1000)).toBe(150);
    expect(swipeDecision(drag(110, 20), 360)).toBe('track');
    expect(swipeDecision(drag(-110, -20), 360)).toBe('dismiss');
    expect(swipeDecision(drag(30, -110), 360)).toBe('later');
  });

  it('snaps back on a short or downward drag', () => {
    expect(swipeDecision(drag(60, 0), 360)).toBeNull();
    expect(swipeDecision(drag(0, -60), 360)).toBeNull();
    expect(swipeDecision(drag(10, 200), 360)).toBeNull();
    expect(swipeDecision(drag(0, 0), 360)).toBeNull();
  });

  it('takes a quick flick for a decision, but not a shaky tap or a flick back', () => {
    expect(swipeDecision(drag(50, 0, 1.2), 360)).toBe('track');
    expect(swipeDecision(drag(0, -50, 0, -1.2), 360)).toBe('later');
    expect(swipeDecision(drag(20, 0, 2), 360)).toBeNull();
    expect(swipeDecision(drag(60, 0, -1), 360)).toBeNull();
  });
});

describe('arrowKeyDecision', () => {
  it('maps the arrows like the swipes and ignores other keys', () => {
    expect(arrowKeyDecision('ArrowRight')).toBe('track');
    expect(arrowKeyDecision('ArrowLeft')).toBe('dismiss');
    expect(arrowKeyDecision('ArrowUp')).toBe('later');
    expect(arrowKeyDecision('ArrowDown')).toBeNull();
    expect(arrowKeyDecision('a')).toBeNull();
  });
});

describe('isUndoKey', () => {
  const key = (
    value: string,
    modifiers: Partial<Record<'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey', boolean>> = {},
  ) => ({
    key: value,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    ...modifiers,
  });
  it('takes Z, Ctrl+Z and Cmd+Z, and nothing else', () => {
    expect(isUndoKey(key('z'))).toBe(true);
    expect(isUndoKey(key('z', { ctrlKey: true }))).toBe(true);
    expect(isUndoKey(key('z', { metaKey: true }))).toBe(true);
    // Shift+Ctrl+Z is redo in editors; Alt+Z is a character on some layouts.
    expect(isUndoKey(key('Z', { shiftKey: true, ctrlKey: true }))).toBe(false);
    expect(isUndoKey(key('z', { altKey: true }))).toBe(false);
    expect(isUndoKey(key('y', { ctrlKey: true }))).toBe(false);
  });
});
