// The browser's side of a variant defined as data (crates/variants): how
// its FEN reads, how a move changes the board, and nothing more. The
// server is the referee — it sends the legal moves and whether a move
// gave check — so the page needs no move generation here; what differs
// between variants (the size, the pieces, which of them are promoted by a
// capture) comes from the variant's descriptor (`/api/info`'s
// `board.pieces`), never from code.
//
// Squares are rank * files + file, file a.. from the first side's left,
// rank 0 at its edge (ICCS-style, `a10` past rank 9). A piece is its FEN
// token: `P` (first side, upper case), `p`, and a promoted form `+P`.
// A variant with revivals (还魂卒) writes each side's reserve after the
// placement as Fairy-Stockfish writes holdings (`[PPp]`), and a drop from
// it as `P@e3`. A variant with flags on a ring (解将旗) writes their
// points after that (`{0,21}`, `-` for a taken flag); a flag's step is
// `~` (the side in check goes on to answer it: the turn stays) or `~~`.
// Who moves next is the FEN's (a turn of two moves, 杀惊遁马, keeps the
// side to move); a replayed move hands the turn over, but for `~`.

/** A FEN that cannot be read. */
export class FenError extends Error {}

const SQUARE = /^([a-p])(\d{1,2})$/;
const MOVE = /^([a-p]\d{1,2})([a-p]\d{1,2})$/;
const DROP = /^([A-Za-z])@([a-p]\d{1,2})$/;

/**
 * The rules module of one variant: `squareName`, `parseSquare`,
 * `colorOf`, `roleOf`, `parseFen`, `play` (as ./xiangqi.js has them),
 * `kingSquare`, and `piece(token)`: the descriptor's piece of a token.
 */
export function rulesFor(descriptor) {
  const board = descriptor.board || {};
  const files = board.files;
  const ranks = board.ranks;
  const pieces = new Map((board.pieces || []).map((p) => [p.code, p]));
  const royal = (board.pieces || []).find((p) => p.royal)?.code || null;

  const colorOf = (p) => (p.slice(-1) === p.slice(-1).toUpperCase() ? 'red' : 'black');
  const roleOf = (p) => p.toLowerCase();

  function squareName(sq) {
    return String.fromCharCode(97 + (sq % files)) + Math.floor(sq / files);
  }

  function parseSquare(name) {
    const m = SQUARE.exec(String(name));
    if (!m) return null;
    const file = m[1].charCodeAt(0) - 97;
    const rank = Number(m[2]);
    return file < files && rank < ranks ? rank * files + file : null;
  }

  /** `h2e2` → [from, to] (equal for a pass, `e1e1`), or null. */
  function parseMove(move) {
    const m = MOVE.exec(String(move));
    if (!m) return null;
    const from = parseSquare(m[1]);
    const to = parseSquare(m[2]);
    return from === null || to === null ? null : [from, to];
  }

  /** `P@e3` → { letter: 'p', to }, or null. */
  function parseDrop(move) {
    const m = DROP.exec(String(move));
    if (!m) return null;
    const to = parseSquare(m[2]);
    return to === null ? null : { letter: m[1].toLowerCase(), to };
  }

  /**
   * Reads the board, each side's reserve (`hands.red.p`: how many) and the
   * side to move (runs of empty points may have two digits).
   */
  function parseFen(fen) {
    const [whole = '', turn = 'w'] = String(fen || '').trim().split(/\s+/);
    const [field, ring = ''] = whole.replace(/\}$/, '').split('{');
    const flags = ring ? ring.split(',').map((p) => (p === '-' ? null : Number(p))) : null;
    const [placement, holdings = ''] = field.replace(/\]$/, '').split('[');
    const hands = { red: {}, black: {} };
    for (const c of holdings) {
      if (!pieces.has(c.toLowerCase())) throw new FenError(`FEN holdings: ${c} is no piece of this variant`);
      const hand = hands[colorOf(c)];
      hand[c.toLowerCase()] = (hand[c.toLowerCase()] || 0) + 1;
    }
    const rows = placement.split('/');
    if (rows.length !== ranks) throw new FenError(`FEN has ${rows.length} ranks, not ${ranks}`);
    const cells = new Array(files * ranks).fill(null);
    rows.forEach((row, i) => {
      const rank = ranks - 1 - i;
      let file = 0;
      for (const [, run, token] of row.matchAll(/(\d+)|(\+?[A-Za-z])/g)) {
        if (run) {
          file += Number(run);
          continue;
        }
        if (!pieces.has(token.toLowerCase())) throw new FenError(`FEN rank ${rank}: ${token} is no piece of this variant`);
        if (file >= files) throw new FenError(`FEN rank ${rank} has more than ${files} files`);
        cells[rank * files + file] = token;
        file += 1;
      }
      if (file !== files) throw new FenError(`FEN rank ${rank} has ${file} files, not ${files}`);
    });
    if (!['w', 'r', 'b'].includes(turn)) throw new FenError(`FEN side to move ${turn} is not w or b`);
    return { board: cells, turn: turn === 'b' ? 'black' : 'red', hands, flags };
  }

  /**
   * The position after a recorded move: the piece goes, and where it
   * captures and has a promoted form (升级象棋), it is promoted. A pass
   * (the same square twice) only hands the turn over.
   */
  function play(pos, move) {
    const mv = parseMove(move);
    const hands = { red: { ...(pos.hands?.red || {}) }, black: { ...(pos.hands?.black || {}) } };
    const next = { board: pos.board.slice(), turn: pos.turn === 'red' ? 'black' : 'red', hands, flags: pos.flags };
    if (move === '~' || move === '~~') {
      // 解将旗: the mover's flag goes round; on the other's, it takes it.
      const me = pos.turn === 'red' ? 0 : 1;
      const flags = (pos.flags || [null, null]).slice();
      if (flags[me] !== null && board.flag_ring) {
        flags[me] = (flags[me] + move.length) % board.flag_ring;
        if (flags[1 - me] === flags[me]) flags[1 - me] = null;
      }
      return { ...next, flags, turn: move === '~' ? pos.turn : next.turn };
    }
    const drop = parseDrop(move);
    if (drop) {
      // 还魂: the mover's piece leaves its reserve for the point.
      next.board[drop.to] = pos.turn === 'red' ? drop.letter.toUpperCase() : drop.letter;
      if (hands[pos.turn][drop.letter]) hands[pos.turn][drop.letter] -= 1;
      return next;
    }
    if (!mv || mv[0] === mv[1]) return next;
    const [from, to] = mv;
    let p = next.board[from];
    const taken = next.board[to];
    // A captured piece a revival takes back goes to its owner's reserve
    // (the descriptor's `revived` codes), as its base.
    if (taken && (board.revived || []).includes(roleOf(taken).replace('+', ''))) {
      const hand = hands[colorOf(taken)];
      const base = roleOf(taken).replace('+', '');
      hand[base] = (hand[base] || 0) + 1;
    }
    if (p && next.board[to] && !p.startsWith('+') && pieces.has(`+${roleOf(p)}`)) p = `+${p}`;
    next.board[to] = p;
    next.board[from] = null;
    return next;
  }

  /** The square of `color`'s royal piece, or -1. */
  function kingSquare(cells, color) {
    if (!royal) return -1;
    return cells.findIndex((p) => p && roleOf(p) === royal && colorOf(p) === color);
  }

  return {
    files, ranks, squareName, parseSquare, parseMove, parseDrop, parseFen, play, colorOf, roleOf, kingSquare,
    piece: (token) => pieces.get(roleOf(token)) || null,
  };
}
