// Shared by check-app-folder-cycles.mjs and check-core-layers.mjs: the folders that import each
// other in a loop, found as the strongly connected components (Tarjan's) of the folder graph.

/**
 * Each group of more than one folder that import each other, directly or through others, sorted;
 * `edges` maps a folder to the folders it imports (a Map, or anything with `keys()`).
 */
export function folderCycles(edges) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const components = [];
  function visit(folder) {
    state.set(folder, { index, low: index, onStack: true });
    index++;
    stack.push(folder);
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (!state.has(next)) {
        visit(next);
        state.get(folder).low = Math.min(state.get(folder).low, state.get(next).low);
      } else if (state.get(next).onStack) {
        state.get(folder).low = Math.min(state.get(folder).low, state.get(next).index);
      }
    }
    if (state.get(folder).low === state.get(folder).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== folder);
      if (component.length > 1) components.push(component.sort());
    }
  }
  for (const folder of [...edges.keys()].sort()) if (!state.has(folder)) visit(folder);
  return components;
}
