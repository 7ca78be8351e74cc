// The interface every game board implements, and the registry that finds
// the board for a game family. A page never knows which game it shows:
// it asks `createBoard(family, …)` for a board and talks to it through
// the five methods below. Xiangqi is the first board (./xiangqi.js);
// chess, shogi and gomoku boards plug in by implementing `Board` and
// calling `registerBoard` (see docs/ui.md).
//
// Squares are named as the game's coordinate notation names them (ICCS
// `h2` for Xiangqi, `e4` for chess, `7g` for shogi): moves cross the
// board's edge as (from, to) square names, exactly as they travel to the
// server. A drop (shogi) or a placement (gomoku) has from = null.

/** Base class: documents the contract and holds what every board shares. */
export class Board {
  /**
   * @param {HTMLElement} container  where the board draws itself
   * @param {object} opts  { sides: the game's two side names, first
   *                         mover first (['red', 'black']); orientation:
   *                         the side at the bottom; t: i18n function }
   */
  constructor(container, opts = {}) {
    this.container = container;
    this.opts = opts;
    this.sides = opts.sides || ['first', 'second'];
    this.orientation = opts.orientation || this.sides[0];
  }

  /** Draws a position (the game's own position object). */
  // eslint-disable-next-line no-unused-vars
  render(position) {
    throw new Error('Board.render is not implemented');
  }

  /**
   * Lets the user move. `legalMovesBySquare` maps a from-square to its
   * destinations (`{ h2: ['e2', 'h9'] }`), or is null to make the board
   * read-only. `onMove(from, to)` is called once per move the user makes
   * by click-click or drag.
   */
  // eslint-disable-next-line no-unused-vars
  setInteractive(legalMovesBySquare, onMove) {
    throw new Error('Board.setInteractive is not implemented');
  }

  /**
   * Marks the last move (`{ from, to }` square names, or null) and the
   * square of a king in check (or null).
   */
  // eslint-disable-next-line no-unused-vars
  highlight(lastMove, check) {
    throw new Error('Board.highlight is not implemented');
  }

  /** Turns the board round (no argument), or sets the side at the bottom. */
  flip(orientation) {
    this.orientation = orientation || (this.orientation === this.sides[0] ? this.sides[1] : this.sides[0]);
  }

  /** Optional: shows a queued premove (`{ from, to }` or null). */
  // eslint-disable-next-line no-unused-vars
  setPremove(move) {}

  /** Removes the board's elements and listeners. */
  destroy() {
    this.container.replaceChildren();
  }
}

const registry = new Map();

/**
 * Registers a game family: `board(container, opts)` makes its Board,
 * `rules` is its browser-side rules module (parse a position, legal
 * moves, check, play a move, notation), `sides` names its two sides.
 */
export function registerGame(family, spec) {
  registry.set(family, spec);
}

/** The registered spec of a variant such as `xiangqi/cxa`, or null. */
export function gameFor(variant) {
  const family = String(variant || 'xiangqi').split('/')[0];
  return registry.get(family) || null;
}

/** A new board for `variant`; throws for a game with no board yet. */
export function createBoard(variant, container, opts) {
  const spec = gameFor(variant);
  if (!spec) throw new Error(`no board for ${variant}`);
  return spec.board(container, opts);
}
