// The interface every game board implements, and the registry that finds
// the board for a game family. A page never knows which game it shows:
// it asks `createBoard(variant, …)` for a board and talks to it through
// the methods below. Xiangqi (./xiangqi.js), chess (./chess.js), shogi
// (./shogi.js), gomoku and renju (./renju.js) and the variants defined as
// data (./variants.js, one per variant id) are the boards so far.
//
// Squares are named as the game's coordinate notation names them (ICCS
// `h2` for Xiangqi, `e4` for chess, `7g` for shogi, `h8` for renju): moves
// cross the board's edge as (from, to) square names, exactly as they
// travel to the server. A drop (shogi) comes from its piece in hand as USI
// writes it, `P*`, so that from + to is the move (`P*5e`); a stone placed
// (gomoku, renju) comes from nowhere, `''`, and a point with a word
// (`offer:h10`) from its word, `offer:`. A move with no square at all
// (`choose:black`, `more`: a step of an opening rule) is a choice, which
// the board asks in its own way (`setChoices`) or the page as buttons.

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
   * read-only. `onMove(from, to, promotion)` is called once per move the
   * user makes by click-click, drag or keyboard; `promotion` is what the
   * move's text ends with when the board asked (chess: `q`, `r`, `b`,
   * `n`, the piece a pawn becomes; shogi: `+` for 成), else undefined.
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

  /**
   * Optional: draws arrows (`[{ from, to, kind }]`, kind `best` or
   * `user`). A board made with `opts.onArrows` also lets the user draw
   * their own by right-dragging, and reports them to that callback.
   */
  // eslint-disable-next-line no-unused-vars
  setArrows(list) {}

  /**
   * Optional: offers the legal moves that have no square (`choose:black`,
   * `more`, `declare:3`: the steps of renju's and gomoku's opening rules),
   * `onChoose(move)` when one is picked; an empty list withdraws them.
   * Returns true when the board asks them itself (a dialog), false for
   * the page to show them as buttons.
   */
  // eslint-disable-next-line no-unused-vars
  setChoices(choices, onChoose) {
    return false;
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
 * Registers a game family (or one variant, by its id). The spec has:
 * - `sides`: its words for the two sides, first mover first (`['white', 'black']`);
 * - `rules`: `parseFen(fen)` → a position `{ board, turn }` (turn is one of
 *   `sides`), `play(position, move)` → the position after a recorded move;
 * - `notation`: `STYLES`, `getStyle()`, `setStyle(style)`,
 *   `moveText(move, positionBefore, style)`, `findMove(text, position, legal)`
 *   and `EXAMPLES` (typed moves to show as a hint);
 * - `checkSquare(position, lastMove)`: the square of a king in check, or
 *   null (`lastMove` is `{ move, display, check }` as the server sent it);
 * - `premoves(position, side)`: `{ from: [to, …] }` by movement alone;
 * - `isCapture(position, move)`;
 * - `board(container, opts)`: a new Board;
 * - optionally `turnWord(turn, sides)`: the variant's word for a
 *   position's side to move (`turn` as `parseFen` gives it), where the
 *   two differ (a shogi handicap game's giver plays gote's pieces);
 * - optionally `annotate(position, moves, initialFen)`: the position with
 *   what its text does not say but the moves do (renju: the order of the
 *   stones, for move numbers);
 * - optionally `turnOfSide(side)`: the position's `turn` when `side`
 *   (`first`/`second`) is to move, where a rule may give one side several
 *   moves in a row and the turn is always its side's (杀惊遁马's turn of two
 *   moves); `gamePositions` then takes who is to move from the server.
 */
export function registerGame(family, spec) {
  registry.set(family, spec);
}

/**
 * The registered spec of a variant such as `xiangqi/cxa`, or null: the
 * variant's own (a variant defined as data registers its id), else its
 * family's.
 */
export function gameFor(variant) {
  const id = String(variant || 'xiangqi');
  return registry.get(id) || registry.get(id.split('/')[0]) || null;
}

/** Whether a variant's family has a board here. */
export function hasBoard(variant) {
  return !!gameFor(variant);
}

/**
 * `h2e2` → ['h2', 'e2', ''], `e7e8q` → ['e7', 'e8', 'q'], `8h2b+` →
 * ['8h', '2b', '+'], a drop `P*5e` → ['P*', '5e', ''], a stone `h8` →
 * ['', 'h8', ''], `offer:h10` → ['offer:', 'h10', '']; a choice
 * (`choose:black`) → [null, null, ''].
 */
export function splitMove(move) {
  const m = /^([a-z]\d+|\d[a-z]|[A-Z]\*|[a-z]+:)?([a-z]\d+|\d[a-z])(.*)$/.exec(String(move));
  return m ? [m[1] || '', m[2], m[3]] : [null, null, ''];
}

/** The legal moves with no square: the choices of an opening rule. */
export function choicesOf(legal) {
  return (legal || []).filter((m) => splitMove(m)[1] === null);
}

/**
 * The move list's rows: `[first side's move, second side's move]`, a new
 * row where the first side moves or where the second moves again. Moves
 * carry the side that made them (`side`; some rules give one side several
 * moves in a row); without it sides alternate, from the second when
 * `startSecond`.
 */
export function moveRows(moves, startSecond) {
  const rows = [];
  moves.forEach((m, i) => {
    const side = m.side || ((i % 2 === 0) !== !!startSecond ? 'first' : 'second');
    const row = rows[rows.length - 1];
    if (side === 'first' || !row || row[1]) rows.push(side === 'first' ? [m, null] : [null, m]);
    else row[1] = m;
  });
  return rows;
}

/**
 * The positions of a recorded game: the start's, then the one after each
 * move (`moves` as the server sends them, `{ move, side }`). `play` hands
 * the turn over with every move, which is wrong where a rule gives one
 * side a turn of several moves (杀惊遁马: Black's horse, then another
 * piece); where the spec has `turnOfSide`, who is to move comes from the
 * server instead of from counting plies — the side of the next recorded
 * move, and after the last one the side of the game's current FEN
 * (`fen`, when given).
 */
export function gamePositions(spec, initialFen, moves, fen) {
  const { rules } = spec;
  const start = rules.parseFen(initialFen);
  const list = [spec.annotate ? spec.annotate(start, [], initialFen) : start];
  for (const m of moves) list.push(rules.play(list[list.length - 1], m.move));
  if (!spec.turnOfSide) return list;
  moves.forEach((m, i) => {
    const next = moves[i + 1];
    if (next && next.side) list[i + 1] = { ...list[i + 1], turn: spec.turnOfSide(next.side) };
  });
  if (fen && moves.length) list[moves.length] = { ...list[moves.length], turn: rules.parseFen(fen).turn };
  return list;
}

/**
 * Whether `pos`'s side to move is the second side of a game whose side
 * words are `sides` (the view's, first mover first).
 */
export function secondToMove(spec, pos, sides) {
  const words = sides && sides.length === 2 ? sides : spec.sides;
  const word = spec.turnWord ? spec.turnWord(pos.turn, words) : pos.turn;
  return word === words[1];
}

/** `{ from: [to, …] }` of a list of coordinate moves (the server's `legal`). */
export function destsOf(legal) {
  const dests = {};
  for (const move of legal || []) {
    const [from, to] = splitMove(move);
    if (from === null) continue;
    const list = dests[from] || (dests[from] = []);
    if (!list.includes(to)) list.push(to);
  }
  return dests;
}

/** A new board for `variant`; throws for a game with no board yet. */
export function createBoard(variant, container, opts) {
  const spec = gameFor(variant);
  if (!spec) throw new Error(`no board for ${variant}`);
  return spec.board(container, opts);
}
