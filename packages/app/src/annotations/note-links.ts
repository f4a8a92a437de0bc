// A note is plain text; the only thing made of it is a link, for an http(s) address written in
// it. Everything else, markup and `javascript:` included, stays characters.

export type NotePiece =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'link'; readonly text: string; readonly href: string };

// Up to whitespace or a character that cannot be in an address written in prose.
const ADDRESS = /https?:\/\/[^\s<>"'`]+/gi;
// Prose punctuation right after an address belongs to the sentence, not to the address.
const TRAILING = /[.,;:!?'"»”’]+$/;

function trimAddress(candidate: string): string {
  let address = candidate.replace(TRAILING, '');
  // A closing bracket belongs to the address only when it opened one inside it, as in
  // Wikipedia's "Act_(1964)"; "(see https://example.org)" leaves it to the sentence.
  for (const [open, close] of [
    ['(', ')'],
    ['[', ']'],
    ['{', '}'],
  ] as const) {
    while (address.endsWith(close) && address.split(close).length > address.split(open).length) {
      address = address.slice(0, -1).replace(TRAILING, '');
    }
  }
  return address;
}

function safeHref(address: string): string | null {
  try {
    const url = new URL(address);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.href;
  } catch {
    return null;
  }
}

/** The note as text and links, in order; joined, the pieces' text is the note unchanged. */
export function notePieces(note: string): NotePiece[] {
  const pieces: NotePiece[] = [];
  let last = 0;
  const pushText = (text: string) => {
    if (text === '') return;
    const previous = pieces[pieces.length - 1];
    if (previous?.kind === 'text')
      pieces[pieces.length - 1] = { kind: 'text', text: previous.text + text };
    else pieces.push({ kind: 'text', text });
  };
  for (const match of note.matchAll(ADDRESS)) {
    const address = trimAddress(match[0]);
    const href = address.length > 'https://'.length ? safeHref(address) : null;
    if (href === null) continue;
    pushText(note.slice(last, match.index));
    pieces.push({ kind: 'link', text: address, href });
    last = match.index + address.length;
  }
  pushText(note.slice(last));
  return pieces;
}
