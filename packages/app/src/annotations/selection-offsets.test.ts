import { afterEach, describe, expect, it } from 'vitest';
import { offsetWithin, selectionOffsets } from './selection-offsets.ts';

// The text as the screen renders it: plain spans and marks, several text nodes.
function rendered(): { container: HTMLElement; nodes: Text[] } {
  const container = document.createElement('div');
  const parts: [string, string][] = [
    ['span', 'The '],
    ['mark', 'Secretary'],
    ['span', ' shall '],
    ['mark', '<img src=x>'],
    ['span', ' act.'],
  ];
  const nodes: Text[] = [];
  for (const [tag, text] of parts) {
    const element = document.createElement(tag);
    const node = document.createTextNode(text);
    element.append(node);
    container.append(element);
    nodes.push(node);
  }
  document.body.append(container);
  return { container, nodes };
}

function range(startNode: Node, startOffset: number, endNode: Node, endOffset: number): Range {
  const result = document.createRange();
  result.setStart(startNode, startOffset);
  result.setEnd(endNode, endOffset);
  return result;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('selectionOffsets', () => {
  it('counts offsets across the text nodes the marks split the text into', () => {
    const { container, nodes } = rendered();
    const [, secretary, shall, image] = nodes;
    if (!secretary || !shall || !image) throw new Error('no nodes');
    // "retary shall <img"
    const offsets = selectionOffsets(container, range(secretary, 3, image, 4));
    const text = container.textContent;
    expect(offsets).toEqual({ start: 7, end: 24 });
    expect(text.slice(7, 24)).toBe('retary shall <img');
  });

  it('understands boundaries given as an element and a child index', () => {
    const { container } = rendered();
    // From before the second element to after the third: "Secretary shall ".
    const offsets = selectionOffsets(container, range(container, 1, container, 3));
    expect(offsets).toEqual({ start: 4, end: 20 });
  });

  it('cuts a selection that reaches outside the text at its edges', () => {
    const { container, nodes } = rendered();
    const before = document.createElement('p');
    before.textContent = 'Heading';
    const after = document.createElement('p');
    after.textContent = 'Footer';
    container.before(before);
    container.after(after);
    const [first, second] = nodes;
    if (!first || !second || !before.firstChild || !after.firstChild) throw new Error('no nodes');
    const length = container.textContent.length;
    expect(selectionOffsets(container, range(before.firstChild, 2, second, 3))).toEqual({
      start: 0,
      end: 7,
    });
    expect(selectionOffsets(container, range(first, 1, after.firstChild, 2))).toEqual({
      start: 1,
      end: length,
    });
    expect(selectionOffsets(container, range(before.firstChild, 0, after.firstChild, 1))).toEqual({
      start: 0,
      end: length,
    });
  });

  it('is null for a selection outside the text or an empty one', () => {
    const { container, nodes } = rendered();
    const outside = document.createElement('p');
    outside.textContent = 'Elsewhere';
    container.after(outside);
    if (!outside.firstChild || !nodes[1]) throw new Error('no nodes');
    expect(selectionOffsets(container, range(outside.firstChild, 0, outside.firstChild, 4))).toBe(
      null,
    );
    expect(selectionOffsets(container, range(nodes[1], 2, nodes[1], 2))).toBe(null);
  });

  it('counts UTF-16 code units, as the commands do', () => {
    const container = document.createElement('div');
    container.textContent = 'a😀b';
    document.body.append(container);
    const node = container.firstChild;
    if (!node) throw new Error('no node');
    expect(offsetWithin(container, node, 3)).toBe(3);
    expect(selectionOffsets(container, range(node, 3, node, 4))).toEqual({ start: 3, end: 4 });
  });
});
