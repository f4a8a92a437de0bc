import { describe, expect, it } from 'vitest';
import {
  armTraversalGuard,
  disarmTraversalGuard,
  historyIndex,
  idleTraversalGuard,
  leave,
  onTraversal,
  startAsking,
  stay,
  stopAsking,
  type TraversalGuard,
} from './history-traversal-guard.ts';

/** Feeds popstate positions to the guard the way the browser would, collecting decisions and
 *  asking whenever a decision says to, as the hook does. */
function traverse(guard: TraversalGuard, ...indexes: (number | null)[]) {
  const decisions = [];
  let current = guard;
  for (const index of indexes) {
    const step = onTraversal(current, index);
    current = step.guard;
    decisions.push(step.decision);
    if (step.decision.kind === 'hide' && step.decision.ask) {
      const asked = startAsking(current);
      expect(asked.ask).toBe(true);
      current = asked.guard;
    }
  }
  return { guard: current, decisions };
}

const armedAt3 = armTraversalGuard(idleTraversalGuard, 3);

describe('historyIndex', () => {
  it("reads React Router's position from an entry's state", () => {
    expect(historyIndex({ usr: null, key: 'abc', idx: 4 })).toBe(4);
    expect(historyIndex({ idx: 0 })).toBe(0);
  });

  it('is null for entries React Router did not make', () => {
    expect(historyIndex(null)).toBeNull();
    expect(historyIndex(undefined)).toBeNull();
    expect(historyIndex('idx')).toBeNull();
    expect(historyIndex({ key: 'abc' })).toBeNull();
    expect(historyIndex({ idx: '4' })).toBeNull();
    expect(historyIndex({ idx: 1.5 })).toBeNull();
    expect(historyIndex({ idx: Number.NaN })).toBeNull();
  });
});

describe('onTraversal', () => {
  it('lets every move through while the guard is off', () => {
    expect(traverse(idleTraversalGuard, 2, 5, null).decisions).toEqual([
      { kind: 'pass' },
      { kind: 'pass' },
      { kind: 'pass' },
    ]);
    const off = disarmTraversalGuard(armedAt3);
    expect(onTraversal(off, 2).decision).toEqual({ kind: 'pass' });
  });

  it('hides Back from the router, returns to the form, then asks once it is there', () => {
    const { guard, decisions } = traverse(armedAt3, 2, 3);
    expect(decisions).toEqual([
      { kind: 'hide', go: 1, ask: false },
      { kind: 'hide', go: null, ask: true },
    ]);
    expect(guard).toMatchObject({ returning: false, asking: true, move: -1, home: 3 });
  });

  it('treats Forward and moves of several entries alike', () => {
    expect(traverse(armedAt3, 4, 3).decisions).toEqual([
      { kind: 'hide', go: -1, ask: false },
      { kind: 'hide', go: null, ask: true },
    ]);
    const { guard, decisions } = traverse(armedAt3, 0, 3);
    expect(decisions[0]).toEqual({ kind: 'hide', go: 3, ask: false });
    expect(guard.move).toBe(-3);
  });

  it('heads home from wherever a second Back lands before the first return arrives', () => {
    const { guard, decisions } = traverse(armedAt3, 2, 1, 3);
    expect(decisions).toEqual([
      { kind: 'hide', go: 1, ask: false },
      { kind: 'hide', go: 2, ask: false },
      { kind: 'hide', go: null, ask: true },
    ]);
    expect(guard.move).toBe(-2);
  });

  it('does not ask a second time while the question is on screen', () => {
    const asked = traverse(armedAt3, 2, 3).guard;
    const again = traverse(asked, 2, 3);
    expect(again.decisions).toEqual([
      { kind: 'hide', go: 1, ask: false },
      { kind: 'hide', go: null, ask: false },
    ]);
    expect(again.guard.asking).toBe(true);
  });

  it('does not ask over a question a link already put on screen', () => {
    const linkAsked = startAsking(armedAt3).guard;
    expect(traverse(linkAsked, 2, 3).decisions[1]).toEqual({ kind: 'hide', go: null, ask: false });
  });

  it('keeps the form entry it was given while the form re-renders mid-return', () => {
    // The failure of the first version: the guard switched on again while the browser stood on
    // the entry it had been moved to.
    const left = onTraversal(armedAt3, 2).guard;
    const rerendered = armTraversalGuard(disarmTraversalGuard(left), 2);
    expect(rerendered.home).toBe(3);
    const back = onTraversal(rerendered, 3);
    expect(back.decision).toEqual({ kind: 'hide', go: null, ask: true });
    expect(startAsking(back.guard).ask).toBe(true);
  });

  it('still hides the return when the guard was switched off on the way', () => {
    const left = onTraversal(armedAt3, 2).guard;
    const off = disarmTraversalGuard(left);
    expect(onTraversal(off, 3).decision).toEqual({ kind: 'hide', go: null, ask: false });
    expect(onTraversal(onTraversal(off, 3).guard, 2).decision).toEqual({ kind: 'pass' });
  });

  it('lets through entries without a position and the form entry itself', () => {
    expect(onTraversal(armedAt3, null).decision).toEqual({ kind: 'pass' });
    expect(onTraversal(armedAt3, 3).decision).toEqual({ kind: 'pass' });
    expect(onTraversal(armTraversalGuard(idleTraversalGuard, null), 2).decision).toEqual({
      kind: 'pass',
    });
  });

  it('waits, without a move, when an entry without a position shows up mid-return', () => {
    const left = onTraversal(armedAt3, 2).guard;
    const step = onTraversal(left, null);
    expect(step.decision).toEqual({ kind: 'hide', go: null, ask: false });
    expect(step.guard.returning).toBe(true);
  });
});

describe('answers', () => {
  it('Stay keeps the guard on and forgets the move', () => {
    const asked = traverse(armedAt3, 2, 3).guard;
    const stayed = stopAsking(stay(asked));
    expect(stayed).toMatchObject({ armed: true, home: 3, asking: false, move: null });
    expect(traverse(stayed, 2, 3).decisions[1]).toEqual({ kind: 'hide', go: null, ask: true });
  });

  it('Leave switches the guard off at once and hands back the move to make again', () => {
    const asked = traverse(armedAt3, 4, 3).guard;
    const left = leave(asked);
    expect(left.move).toBe(1);
    expect(left.guard).toMatchObject({ armed: false, move: null });
    expect(onTraversal(left.guard, 4).decision).toEqual({ kind: 'pass' });
  });

  it('Leave after a link has no move to make', () => {
    expect(leave(startAsking(armedAt3).guard).move).toBeNull();
  });

  it('asks once at a time, and again after the question went away unanswered', () => {
    const first = startAsking(armedAt3);
    expect(first.ask).toBe(true);
    expect(startAsking(first.guard).ask).toBe(false);
    expect(startAsking(stopAsking(first.guard)).ask).toBe(true);
  });
});
