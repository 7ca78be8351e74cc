// Move notation of the variants defined as data: the ICCS-style
// coordinates they travel in (`h2e2`, `a10a11`; a pass is the royal
// square twice, `e1e1`; a drop from the reserve, 还魂卒's revival, the
// piece's letter and its point, `P@e3`). No rule book names their moves
// otherwise.

export const STYLES = ['iccs'];
/** Typed moves to show as a hint. */
export const EXAMPLES = ['h2e2'];

export function getStyle() {
  return 'iccs';
}

export function setStyle() {}

/** A move with no square, as a button says it: a flag's step (解将旗). */
export function choiceText(m) {
  if (m === '~') return '解将旗 +1 (~)';
  if (m === '~~') return '解将旗 +2 (~~)';
  return m;
}

/** The text of a recorded move: its coordinates. */
export function moveText(m) {
  return m.move;
}

/** The move of `legal` that a typed text names (`h2e2`, `H2E2`, `p@e3`), or null. */
export function findMove(text, _pos, legal) {
  const typed = String(text).trim().toLowerCase().replace(/[\s-]+/g, '');
  return legal.find((m) => m.toLowerCase() === typed) || null;
}

export function openingName() {
  return null;
}
