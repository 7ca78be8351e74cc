// The analysis board: any position of any game with a board here — from
// a game (its replay links here), a pasted FEN or PGN, or the start —
// explored by moving the pieces. The server is asked what the rules say
// of the line (legal moves, notation, the ending) and, for a logged-in
// player, what the engine thinks of the shown position (its line, and
// its move as an arrow). The player draws arrows of their own by
// right-dragging. The address always holds the line and the shown ply,
// so a link shares the position.
//
// Address: /analysis?variant=xiangqi/cxa&fen=…&moves=h2e2,h9g7&ply=1

import { api } from '../api.js';
import { h, fill, scrollWithin } from '../dom.js';
import { errorText, t } from '../i18n.js';
import {
  choicesOf, createBoard, destsOf, gameFor, gamePositions, moveRows, secondToMove, splitMove,
} from '../boards/board.js';
import {
  findVariant, loadVariants, playable, sideKeys, variantLabel,
} from '../variants.js';
import { scoreText } from '../analysis.js';

export async function mount(main, params, ctx) {
  const q = new URLSearchParams(location.search);
  const variants = playable(await loadVariants());
  if (!variants.length) {
    main.append(h('h1', {}, t('error.network')));
    return null;
  }
  let variant = (findVariant(variants, q.get('variant') || '') || variants[0]).id;
  let fen = q.get('fen') || null;
  let line = (q.get('moves') || '').split(',').filter(Boolean);
  let ply = q.has('ply') ? Number(q.get('ply')) : line.length;
  let info = null; // the server's PositionView of the whole line
  let positions = [];
  let board = null;
  let spec = null;
  let bottom = null;
  let evalSeq = 0;
  let evalTimer = null;
  let userArrows = [];
  let bestArrow = null;
  let destroyed = false;
  const legalCache = new Map();

  const boardWrap = h('div', { class: 'board-wrap', id: 'board' });
  const where = h('p', { id: 'analysis-ply', 'aria-live': 'polite', class: 'muted' });
  const movesBox = h('div', { class: 'moves', id: 'moves' });
  const evalBox = h('div', { id: 'engine-output', 'aria-live': 'polite' });
  const linkBox = h('input', { class: 'link-box', id: 'link', readonly: true, 'aria-label': t('analysis.link') });
  const paste = h('textarea', { class: 'paste', id: 'paste', 'aria-label': t('analysis.paste'), placeholder: t('analysis.paste') });
  const engineOn = h('input', { type: 'checkbox', id: 'engine-on', checked: !!ctx.account, disabled: !ctx.account });
  const variantSelect = h('select', { id: 'analysis-variant', 'aria-label': t('analysis.game') },
    variants.map((v) => h('option', { value: v.id, selected: v.id === variant }, variantLabel(variants, v))));

  const nav = (label, text, fn, idAttr) => h('button', {
    type: 'button', 'aria-label': label, id: idAttr, onclick: () => {
      fn();
      show();
    },
  }, text);

  main.append(
    h('h1', {}, t('analysis.title')),
    h('div', { class: 'game' },
      h('div', { class: 'board-col' }, boardWrap,
        h('div', { class: 'row', style: 'justify-content:space-between;margin-top:0.5rem' },
          h('div', { class: 'nav-buttons', role: 'group', 'aria-label': t('analysis.line') },
            nav(t('replay.first'), '«', () => { ply = 0; }, 'first'),
            nav(t('replay.prev'), '◀', () => { ply = Math.max(0, ply - 1); }, 'prev'),
            nav(t('replay.next'), '▶', () => { ply = Math.min(line.length, ply + 1); }, 'next'),
            nav(t('replay.last'), '»', () => { ply = line.length; }, 'last')),
          h('button', {
            type: 'button', id: 'flip', 'aria-label': t('game.flip'),
            onclick: () => {
              bottom = bottom === spec.sides[0] ? spec.sides[1] : spec.sides[0];
              board.flip(bottom);
            },
          }, t('game.flip'))),
        h('p', { class: 'muted arrows-hint', id: 'arrows-hint' }, t('analysis.arrows'))),
      h('aside', { class: 'side-panel' },
        h('div', { class: 'card' },
          h('div', { class: 'row', style: 'justify-content:space-between' },
            h('h2', {}, t('analysis.engine')),
            h('label', { class: 'row' }, engineOn, t('analysis.engineShow'))),
          ctx.account ? null : h('p', { class: 'muted' }, t('analysis.loginForEngine')),
          evalBox),
        h('div', { class: 'card' },
          h('h2', {}, t('analysis.line')),
          where,
          movesBox),
        h('div', { class: 'card' },
          h('label', { class: 'field' }, h('span', {}, t('analysis.game')), variantSelect),
          paste,
          h('div', { class: 'row' },
            h('button', { type: 'button', id: 'load-paste', onclick: loadPaste }, t('analysis.load')),
            h('button', { type: 'button', id: 'copy-link', onclick: copyLink }, t('analysis.copyLink'))),
          linkBox))));

  async function loadPaste() {
    const text = paste.value.trim();
    if (!text) return;
    try {
      const r = await api.importRecord(variantSelect.value, text);
      variant = r.variant;
      fen = r.initial_fen;
      line = r.moves.map((m) => m.coord);
      ply = line.length;
      await reload(r);
      paste.value = '';
    } catch (e) {
      ctx.toast(errorText(e));
    }
  }

  async function copyLink() {
    linkBox.select();
    try {
      await navigator.clipboard.writeText(linkBox.value);
    } catch {
      document.execCommand?.('copy'); // an http page has no clipboard API
    }
    ctx.toast(t('analysis.copied'), [], 2500);
  }

  variantSelect.addEventListener('change', async () => {
    if (variantSelect.value === variant) return;
    variant = variantSelect.value;
    fen = null;
    line = [];
    ply = 0;
    await reload();
  });

  /** Asks the rules about the whole line (or takes `known`), and redraws. */
  async function reload(known) {
    let r = known;
    if (!r) {
      try {
        r = await api.analysePosition({ variant, fen, moves: line });
      } catch (e) {
        ctx.toast(errorText(e));
        // A broken link: start from the game's start instead.
        fen = null;
        line = [];
        ply = 0;
        r = await api.analysePosition({ variant, moves: [] });
      }
    }
    if (destroyed) return;
    info = r;
    variant = r.variant;
    variantSelect.value = variant;
    fen = r.initial_fen;
    legalCache.clear();
    legalCache.set(line.length, r);
    const newSpec = gameFor(variant);
    if (newSpec !== spec || !board) {
      spec = newSpec;
      if (board) board.destroy();
      bottom = spec.sides[0];
      board = createBoard(variant, boardWrap, {
        orientation: bottom,
        t,
        onArrows: (list) => {
          userArrows = list;
        },
      });
    }
    // Who is to move in each comes from the server (`movers`): a turn of
    // two moves keeps the side to move.
    positions = gamePositions(spec, r.initial_fen, movesOf(), r.fen);
    ply = Math.max(0, Math.min(line.length, Number.isFinite(ply) ? ply : line.length));
    show();
  }

  /** The rules' view after the first `n` moves of the line (cached). */
  async function rulesAt(n) {
    if (!legalCache.has(n)) legalCache.set(n, await api.analysePosition({ variant, fen, moves: line.slice(0, n) }));
    return legalCache.get(n);
  }

  async function played(from, to, promotion) {
    const coord = `${from}${to}${promotion || ''}`;
    if (line[ply] === coord) {
      ply += 1;
      show();
      return;
    }
    const next = [...line.slice(0, ply), coord];
    try {
      const r = await api.analysePosition({ variant, fen, moves: next });
      line = next;
      ply = next.length;
      userArrows = [];
      await reload(r);
    } catch (e) {
      ctx.toast(errorText(e));
      show();
    }
  }

  function movesOf() {
    return (info ? info.moves : []).map((m, i) => ({
      move: m.coord, display: m.display, alt: m.alt, check: m.check, ply: i + 1, side: info.movers?.[i],
    }));
  }

  function drawMoves() {
    const { notation } = spec;
    const style = notation.getStyle();
    const moves = movesOf();
    const startSecond = secondToMove(spec, positions[0], sideKeys(findVariant(variants, variant)));
    const rows = moveRows(moves, startSecond);
    const items = [];
    rows.forEach(([a, b], i) => {
      const cell = (m) => {
        if (!m) return h('span', { class: 'mv' }, '…');
        return h('button', {
          type: 'button', class: `mv${m.ply === ply ? ' current' : ''}`, dataset: { ply: m.ply },
          'aria-current': m.ply === ply ? 'step' : null,
          onclick: () => {
            ply = m.ply;
            show();
          },
        }, notation.moveText(m, positions[m.ply - 1], style));
      };
      items.push(h('li', {}, h('span', { class: 'no' }, `${i + 1}.`), cell(a), cell(b)));
    });
    fill(movesBox, items.length ? h('ol', {}, items) : h('p', { class: 'muted' }, t('game.noMoves')));
    scrollWithin(movesBox, movesBox.querySelector('.current'));
  }

  function drawArrows() {
    board.setArrows([...(bestArrow ? [bestArrow] : []), ...userArrows]);
  }

  async function show() {
    if (!info || destroyed) return;
    const pos = positions[ply];
    board.render(pos);
    const moves = movesOf();
    const last = ply > 0 ? moves[ply - 1] : null;
    const [from, to] = last ? splitMove(last.move) : [null, null];
    board.highlight(to ? { from, to } : null, spec.checkSquare(pos, last));
    where.textContent = ply === 0 ? t('replay.start') : t('replay.ply', { n: ply, total: line.length });
    drawMoves();
    const qs = new URLSearchParams({ variant, fen });
    if (line.length) qs.set('moves', line.join(','));
    if (ply !== line.length) qs.set('ply', String(ply));
    const path = `/analysis?${qs}`;
    if (location.pathname + location.search !== path) history.replaceState(null, '', path);
    linkBox.value = location.href;
    bestArrow = null;
    drawArrows();
    const shown = ply;
    const r = await rulesAt(shown).catch(() => null);
    if (destroyed || shown !== ply || !r) return;
    board.setInteractive(r.legal.length ? destsOf(r.legal) : null, played);
    // An opening rule's choices (renju, gomoku) are lines to explore too.
    board.setChoices(choicesOf(r.legal), (m) => played(m, ''));
    scheduleEval(r);
  }

  /** Asks the engine about the shown position, after a short pause (a
   *  player stepping through a game asks only where they stop). */
  function scheduleEval(r) {
    const seq = ++evalSeq;
    clearTimeout(evalTimer);
    if (r.status && r.status.state === 'over') {
      fill(evalBox, h('p', {}, t('analysis.over')));
      return;
    }
    if (!engineOn.checked || !r.analysis) {
      fill(evalBox, r.analysis ? null : h('p', { class: 'muted' }, t('analysis.unavailable')));
      return;
    }
    fill(evalBox, h('p', { class: 'muted' }, t('analysis.thinking')));
    evalTimer = setTimeout(async function ask() {
      let e;
      try {
        e = await api.evaluate({ variant, fen, moves: line.slice(0, ply) });
      } catch (err) {
        if (seq !== evalSeq) return;
        if (err.status === 429) {
          evalTimer = setTimeout(ask, 300); // our previous question is still being answered
          return;
        }
        fill(evalBox, h('p', { class: 'error' }, errorText(err)));
        return;
      }
      if (seq !== evalSeq || destroyed) return;
      fill(evalBox,
        h('p', {}, h('span', { class: 'eval-text', id: 'eval-score' }, scoreText(e)), ' ',
          h('span', { class: 'muted' }, t('analysis.depth', { n: e.depth }))),
        e.best_display ? h('p', { id: 'engine-best' }, t('analysis.best', { move: e.best_display })) : null,
        e.pv_display.length ? h('p', { class: 'pv muted', id: 'engine-pv' }, e.pv_display.join(' ')) : null);
      const [bf, bt] = e.best ? splitMove(e.best) : [null, null];
      bestArrow = bf ? { from: bf, to: bt, kind: 'best' } : null;
      drawArrows();
    }, 200);
  }

  engineOn.addEventListener('change', () => show());

  const onKey = (e) => {
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
    const before = ply;
    if (e.key === 'ArrowLeft') ply = Math.max(0, ply - 1);
    else if (e.key === 'ArrowRight') ply = Math.min(line.length, ply + 1);
    else if (e.key === 'Home') ply = 0;
    else if (e.key === 'End') ply = line.length;
    else return;
    e.preventDefault();
    if (ply !== before) show();
  };
  document.addEventListener('keydown', onKey);
  await reload();
  return () => {
    destroyed = true;
    clearTimeout(evalTimer);
    document.removeEventListener('keydown', onKey);
    if (board) board.destroy();
  };
}
