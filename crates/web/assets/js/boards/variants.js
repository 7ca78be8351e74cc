// The board of every variant defined as data (crates/variants, renderer
// `variants`): the Xiangqi board (./xiangqi.js) drawn from the variant's
// descriptor instead of Xiangqi's layout — any size up to 16 × 16, the
// palaces where the file has a `palace` region, the river above its
// `own_half`, and each piece with the glyph its file gives (its FEN
// letter otherwise). A promoted piece (升级象棋's 上等兵, 骑象, 悍马, 铁炮,
// 飞车) shows its own glyph inside a gold ring. Files are lettered and
// ranks numbered as the moves name them (`h2e2`).
//
// Where the file has revivals (还魂卒), each side's reserve is written
// under the board (`Red: 兵 ×1`), and a drop (`P@e3`, a legal move with
// no origin) is played by a click on the empty point, marked by a dot
// while no piece is picked up. Where it has flags on a ring (解将旗),
// their points are written there too and drawn on a small map of the
// ring beside it (the ring has no geometry of the board's: “它与棋盘无
// 地域关系”), and their steps (`~`, `~~`) are buttons under the board.
//
// One game is registered per variant id when the server's descriptors
// arrive (`registerVariants`, called by ../variants.js), since no two
// data variants share a board.

import { registerGame } from './board.js';
import { el } from './grid.js';
import { XiangqiBoard } from './xiangqi.js';
import { rulesFor } from '../rules/variants.js';
import * as notation from '../notation/variants.js';

const RADIUS = 44;
const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Where ring point `i` of `n` is drawn on the map, `[x, y]` in cells:
 * the border of the (files + 2) × (ranks + 2) points round the board
 * where it has that many points (42 round Xiangqi's), counted
 * counter-clockwise from the middle of the first side's edge; a circle
 * otherwise. `w`, `h`: the map's size in cells.
 */
function ringPoint(i, n, files, ranks) {
  const [w, h] = [files + 2, ranks + 2];
  if (n !== 2 * (w + h) - 4) {
    const a = Math.PI / 2 + (2 * Math.PI * i) / n;
    return [(w - 1) / 2 + ((w - 1) / 2) * Math.cos(a), (h - 1) / 2 + ((h - 1) / 2) * Math.sin(a)];
  }
  const start = Math.floor(w / 2);
  const k = (i + start) % n; // from the bottom left corner, counter-clockwise
  if (k < w) return [k, h - 1];
  if (k < w + h - 1) return [w - 1, h - 1 - (k - w + 1)];
  if (k < 2 * w + h - 2) return [w - 1 - (k - w - h + 2), 0];
  return [0, k - 2 * w - h + 3];
}

/** The board's layout (see `XIANGQI_LAYOUT`) from a descriptor. */
function layoutOf(descriptor, rules) {
  const { files, ranks } = rules;
  const palace = (descriptor.board.palace || []).map((s) => rules.parseSquare(s)).filter((s) => s !== null);
  const palaces = [];
  if (palace.length) {
    const fs = palace.map((s) => s % files);
    const rs = palace.map((s) => Math.floor(s / files));
    const [f0, f1, r0, r1] = [Math.min(...fs), Math.max(...fs), Math.min(...rs), Math.max(...rs)];
    if (f1 > f0 && r1 > r0) palaces.push([f0, r0, f1, r1], [f0, ranks - 1 - r1, f1, ranks - 1 - r0]);
  }
  const river = descriptor.board.river ?? null;
  return {
    files,
    ranks,
    river,
    palaces,
    marks: [],
    riverWords: ['楚 河', '汉 界'],
    coords: (c) => [String.fromCharCode(97 + c), null],
    rankLabels: true,
    rules,
    board: 'board.variants',
  };
}

export class VariantsBoard extends XiangqiBoard {
  constructor(container, opts, descriptor, rules) {
    super(container, opts, layoutOf(descriptor, rules));
    this.descriptor = descriptor;
    this.drops = null;
    this.reserve = document.createElement('p');
    this.reserve.className = 'variants-reserve';
    this.reserve.hidden = true;
    this.flagSteps = document.createElement('div');
    this.flagSteps.className = 'variants-flag-steps';
    this.flagSteps.hidden = true;
    this.ring = null;
    if (descriptor.board.flag_ring) {
      this.ring = document.createElementNS(SVG_NS, 'svg');
      this.ring.setAttribute('class', 'variants-ring');
      this.ring.setAttribute('role', 'img');
    }
    this.container.append(this.reserve, ...(this.ring ? [this.ring] : []), this.flagSteps);
  }

  render(position) {
    super.render(position);
    const hands = position?.hands || {};
    const words = ['red', 'black'].flatMap((color, i) => {
      const pieces = Object.entries(hands[color] || {}).filter(([, n]) => n > 0)
        .map(([letter, n]) => `${this.rules.piece(letter)?.glyphs[i] || letter} ×${n}`);
      return pieces.length ? [`${this.t(`side.${color}`)}: ${pieces.join(' ')}`] : [];
    });
    const ring = this.descriptor.board.flag_ring;
    if (ring && position?.flags) {
      // 解将旗: each flag's point on the ring (from behind Red's king).
      const at = (p) => (p === null ? '×' : `${p}/${ring}`);
      words.push(`解将旗 ${this.t('side.red')} ${at(position.flags[0])} · ${this.t('side.black')} ${at(position.flags[1])}`);
      this.drawRing(ring, position.flags, words[words.length - 1]);
    }
    this.reserve.textContent = words.join(' · ');
    this.reserve.hidden = !words.length;
  }

  /** The ring's map: its points, and each flag on its point (解将旗). */
  drawRing(n, flags, label) {
    const { files, ranks } = this.rules;
    const cell = 12;
    const [w, h] = [files + 2, ranks + 2];
    const svg = this.ring;
    svg.setAttribute('viewBox', `0 0 ${w * cell} ${h * cell}`);
    svg.setAttribute('aria-label', label);
    svg.replaceChildren();
    const at = (i) => {
      let [x, y] = ringPoint(i, n, files, ranks);
      if (!this.firstBottom) [x, y] = [w - 1 - x, h - 1 - y];
      return [(x + 0.5) * cell, (y + 0.5) * cell];
    };
    const add = (attrs) => {
      const c = document.createElementNS(SVG_NS, 'circle');
      for (const [k, v] of Object.entries(attrs)) c.setAttribute(k, v);
      svg.append(c);
    };
    for (let i = 0; i < n; i += 1) {
      const [cx, cy] = at(i);
      add({ cx, cy, r: 2, class: 'variants-ring-point' });
    }
    flags.forEach((p, side) => {
      if (p === null || p === undefined) return;
      const [cx, cy] = at(p);
      add({ cx, cy, r: 5, class: `variants-flag variants-flag-${side === 0 ? 'red' : 'black'}`, 'data-point': p });
    });
  }

  /**
   * Takes the legal moves with no origin: drops (`P@e3`), played by a
   * click on the empty point, and the flags' steps (`~`, `~~`), buttons
   * under the board. Where there is anything else, or two pieces could
   * go to one point, the page asks instead.
   */
  setChoices(choices, onChoose) {
    const list = choices || [];
    const flag = (m) => m === '~' || m === '~~';
    const drops = list.filter((m) => !flag(m)).map((m) => [m, this.rules.parseDrop(m)]);
    this.drops = null;
    this.flagSteps.replaceChildren();
    this.flagSteps.hidden = true;
    const at = {};
    for (const [m, d] of drops) if (d) (at[d.to] ||= []).push(m);
    const handled = !!list.length && !!onChoose && drops.every(([, d]) => d)
      && Object.values(at).every((ms) => ms.length === 1);
    if (handled) {
      this.drops = { at, onChoose };
      for (const m of list.filter(flag)) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'primary';
        b.dataset.move = m;
        b.textContent = notation.choiceText(m);
        b.addEventListener('click', () => onChoose(m));
        this.flagSteps.append(b);
      }
      this.flagSteps.hidden = !this.flagSteps.childElementCount;
    }
    this.drawDots();
    return handled;
  }

  pointerDown(e) {
    if (this.drops && this.selected === null && (e.button === undefined || e.button === 0)) {
      const sq = this.squareAt(...this.point(e));
      const moves = sq !== null && !this.position?.board[sq] && this.drops.at[sq];
      if (moves) {
        e.preventDefault();
        const { onChoose } = this.drops;
        this.drops = null;
        this.drawDots();
        onChoose(moves[0]);
        return;
      }
    }
    super.pointerDown(e);
  }

  /** The selected piece's destinations; with none selected, the drops' points. */
  drawDots() {
    super.drawDots();
    if (this.selected !== null || !this.drops) return;
    for (const sq of Object.keys(this.drops.at).map(Number)) {
      this.drawDot(sq, this.rules.squareName(sq), false);
    }
  }

  faces(p) {
    const piece = this.rules.piece(p);
    const glyph = piece ? piece.glyphs[this.rules.colorOf(p) === 'red' ? 0 : 1] : p;
    const letter = p.replace('+', '');
    return { glyph, trad: glyph, letter };
  }

  drawPieceFace(pg, p) {
    super.drawPieceFace(pg, p);
    if (this.rules.piece(p)?.promoted) {
      // Promoted (升级): a gold ring round the disc, under the glyph.
      pg.classList.add('promoted');
      const ring = el('circle', { r: RADIUS - 2, class: 'xq-promoted-ring' });
      pg.insertBefore(ring, pg.children[1]);
    }
  }

  /** A piece's name for the reader: its side and the file's name (Red senior pawn). */
  pieceName(p) {
    const piece = this.rules.piece(p);
    return `${this.t(`side.${this.rules.colorOf(p)}`)} ${piece ? piece.name : p}`;
  }
}

/** The spec of one data variant (see `registerGame`). */
function specOf(descriptor) {
  const rules = rulesFor(descriptor);
  return {
    sides: ['red', 'black'],
    rules,
    notation,
    // A turn of two moves (杀惊遁马) keeps the side to move, so replays
    // take who moves from the server's sides, not from the ply count.
    turnOfSide: (side) => (side === 'first' ? 'red' : 'black'),
    // The server says whether the last move gave check.
    checkSquare(pos, last) {
      if (!last || !last.check) return null;
      const k = rules.kingSquare(pos.board, pos.turn);
      return k >= 0 ? rules.squareName(k) : null;
    },
    // No move generation here: the server sends the premoves of a data
    // variant with the game (`premoves`), and the game page uses those.
    premoves: () => ({}),
    isCapture(pos, move) {
      const mv = rules.parseMove(move);
      // A drop (`P@e3`) never captures: parseMove does not read it.
      return !!(mv && mv[0] !== mv[1] && pos.board[mv[1]]);
    },
    board: (container, opts) => new VariantsBoard(container, opts, descriptor, rules),
  };
}

/** Registers a board for each data variant among the server's descriptors. */
export function registerVariants(descriptors) {
  for (const d of descriptors || []) {
    if (d && d.board && d.board.renderer === 'variants' && d.board.files && d.board.ranks) {
      registerGame(d.id, specOf(d));
    }
  }
}
