// The browser's Back and Forward buttons move history before any page code runs; the popstate
// event that follows is the first moment the form hears of it. The unsaved-changes guard then
// hides that event from the router, sends the browser back to the form's own entry and only
// then asks. This is that guard's bookkeeping, as plain values so it can be tested without a
// browser: which entry is the form's, whether the browser is on its way back there, which move
// the person made (Leave makes it again) and whether the question is on screen.
//
// The hook keeps one of these in a ref for as long as the form is mounted. The first version
// worked the form's entry out again whenever its effect ran, from whichever entry the browser
// was on, and its listener ran after the router's, so the router saw the move, Ionic began a
// page transition, and the renders that came with it re-ran the effect mid-traversal: the
// entry passed through was taken for the form's and the return for a new move. Here the form's
// entry is taken when the guard is switched on and never while the browser is on its way back,
// and history-traversal-listener.ts keeps the router out of it.

export interface TraversalGuard {
  /** The form has unsaved changes and is the page in front. */
  readonly armed: boolean;
  /** The history position of the form's own entry (React Router's `state.idx`). */
  readonly home: number | null;
  /** The browser has been sent back to `home` and has not arrived yet. */
  readonly returning: boolean;
  /** How far from `home` the person's last Back or Forward went, kept for Leave. */
  readonly move: number | null;
  /** "Leave without saving?" is on screen (asked by a link or by Back or Forward). */
  readonly asking: boolean;
}

export const idleTraversalGuard: TraversalGuard = {
  armed: false,
  home: null,
  returning: false,
  move: null,
  asking: false,
};

/** What to do with one popstate event. */
export type PopDecision =
  /** Let the router have it: a move the guard does not stand in the way of. */
  | { readonly kind: 'pass' }
  /** Keep it from the router; `go` (when not null) is the history move that puts the browser
   *  back on the form's entry, and `ask` says the browser is back and the question is due. */
  | { readonly kind: 'hide'; readonly go: number | null; readonly ask: boolean };

/** The position React Router's history gives each entry it made, or null for any other. */
export function historyIndex(state: unknown): number | null {
  if (typeof state !== 'object' || state === null || !('idx' in state)) return null;
  const { idx } = state;
  return typeof idx === 'number' && Number.isInteger(idx) ? idx : null;
}

/** The form became dirty while in front (or came to the front dirty); `index` is the entry
 *  showing now. While the browser is on its way back the entry showing is not the form's, so
 *  the one already held stands. */
export function armTraversalGuard(guard: TraversalGuard, index: number | null): TraversalGuard {
  if (guard.returning) return { ...guard, armed: true };
  return { ...guard, armed: true, home: index };
}

/** The form is clean again or no longer in front. A return already under way still finishes
 *  out of the router's sight, since the router never saw the browser leave. */
export function disarmTraversalGuard(guard: TraversalGuard): TraversalGuard {
  return { ...guard, armed: false };
}

/** One popstate event, whose entry has position `index`. */
export function onTraversal(
  guard: TraversalGuard,
  index: number | null,
): { guard: TraversalGuard; decision: PopDecision } {
  const { home } = guard;
  if (guard.returning && home !== null) {
    if (index === home) {
      // The caller asks through startAsking, which marks the question as on screen.
      const ask = guard.armed && !guard.asking && guard.move !== null;
      return {
        guard: { ...guard, returning: false },
        decision: { kind: 'hide', go: null, ask },
      };
    }
    // Another Back or Forward before the browser was home again (or an entry the router did
    // not make): head home from wherever it is now.
    if (index === null) return { guard, decision: { kind: 'hide', go: null, ask: false } };
    return {
      guard: { ...guard, move: index - home },
      decision: { kind: 'hide', go: home - index, ask: false },
    };
  }
  // An entry without a position cannot be measured from home, so it cannot be undone; the
  // router gets it as it would without the guard.
  if (!guard.armed || home === null || index === null || index === home) {
    return { guard, decision: { kind: 'pass' } };
  }
  return {
    guard: { ...guard, returning: true, move: index - home },
    decision: { kind: 'hide', go: home - index, ask: false },
  };
}

/** Try to put the question on screen; false when it is there already. */
export function startAsking(guard: TraversalGuard): { guard: TraversalGuard; ask: boolean } {
  if (guard.asking) return { guard, ask: false };
  return { guard: { ...guard, asking: true }, ask: true };
}

/** Stay: the form keeps its changes and the guard stays on. */
export function stay(guard: TraversalGuard): TraversalGuard {
  return { ...guard, move: null };
}

/** Leave: the guard lets go at once (before the form re-renders clean), so the move Leave
 *  makes reaches the router. `move` is the Back or Forward to make again, if that was asked. */
export function leave(guard: TraversalGuard): { guard: TraversalGuard; move: number | null } {
  return { guard: { ...guard, armed: false, move: null }, move: guard.move };
}

/** The question has left the screen (answered, or it could not be shown); until then a second
 *  one could not be shown either. */
export function stopAsking(guard: TraversalGuard): TraversalGuard {
  return { ...guard, asking: false };
}
