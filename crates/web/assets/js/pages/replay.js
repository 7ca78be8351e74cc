// Replay of a game: step through its moves with buttons or the arrow
// keys, read the move list in any notation, download the PGN (in each of
// its variant's record notations), copy the shown position's FEN or the
// link, save the board as an image — and, once
// the game is over, its computer analysis: ask for it, watch it fill in,
// then read the evaluation graph, the marked moves and the best move at
// each ply (an arrow on the board), or open any position of the game on
// the analysis board.

import { api } from '../api.js';
import { h } from '../dom.js';
import { errorText, t } from '../i18n.js';
import {
  createBoard, gameFor, gamePositions, moveRows, secondToMove, splitMove,
} from '../boards/board.js';
import { colorOf, detailLine, otherSide, reasonText, resultText, sideName } from '../result.js';
import { fill, formatClock, formatDate, scrollWithin } from '../dom.js';
import { evalGraph, markBadge, marksByPly, scoreText } from '../analysis.js';
import { findVariant, loadVariants } from '../variants.js';
import { exportTools, recordLinks } from '../export.js';

/** The analysis board's link to ply `ply` of a game (its whole line, so the board can step through it). */
export function analysisLink(variant, fen, moves, ply) {
  const q = new URLSearchParams({ variant, fen });
  if (moves.length) q.set('moves', moves.join(','));
  if (ply !== moves.length) q.set('ply', String(ply));
  return `/analysis?${q}`;
}

export async function mount(main, params, ctx) {
  const id = params.id;
  let view;
  try {
    view = await api.game(id);
  } catch (e) {
    main.append(h('h1', {}, e.status === 404 ? t('game.notFound') : errorText(e)));
    return null;
  }
  const spec = gameFor(view.variant);
  if (!spec) {
    main.append(h('h1', {}, t('error.generic', { message: `no board for ${view.variant}` })));
    return null;
  }
  const { notation } = spec;
  // The download is in the variant's record format (PGN, KIF).
  const variantInfo = findVariant(await loadVariants(), view.variant);
  // Who is to move in each comes from the server (a turn of two moves).
  const positions = gamePositions(spec, view.initial_fen, view.moves, view.fen);
  let ply = view.moves.length;
  // A player sees their own side at the bottom, as in play.
  const me = ctx.account && ctx.account.name;
  let bottom = me && view.second.name === me && view.first.name !== me ? 'second' : 'first';

  const boardWrap = h('div', { class: 'board-wrap', id: 'board' });
  const where = h('p', { id: 'replay-ply', 'aria-live': 'polite' });
  const movesBox = h('div', { class: 'moves', id: 'moves' });
  const clockLine = h('p', { class: 'muted', id: 'replay-clocks' });
  const navButton = (label, text, fn, idAttr) => h('button', {
    type: 'button', 'aria-label': label, id: idAttr, onclick: () => {
      fn();
      show();
    },
  }, text);
  const styleButtons = notation.STYLES.map((s) => h('button', {
    type: 'button', 'aria-pressed': String(notation.getStyle() === s), dataset: { style: s },
    'aria-label': `${t('game.notation')}: ${t(`game.notation.${s}`)}`,
    onclick: () => {
      notation.setStyle(s);
      for (const b of styleButtons) b.setAttribute('aria-pressed', String(b.dataset.style === s));
      drawMoves();
    },
  }, t(`game.notation.${s}`)));
  const players = `${view.first.name} – ${view.second.name}`;
  const over = view.state !== 'live';
  const canAnalyse = !!(variantInfo && variantInfo.can_analyse);
  const reviewCard = h('div', { class: 'card', id: 'review', hidden: !over });
  const bestLine = h('p', { id: 'best-here', class: 'muted' });
  const openLink = h('a', { class: 'button', 'data-link': '', id: 'open-analysis' }, t('analysis.open'));
  let analysis = null; // the server's AnalysisView
  let marks = {};
  let graph = null;
  let poll = null;

  main.append(
    h('h1', {}, `${t('replay.title')}: ${players}`),
    h('div', { class: 'game' },
      h('div', { class: 'board-col' }, boardWrap,
        h('div', { class: 'row', style: 'justify-content:space-between;margin-top:0.5rem' },
          h('div', { class: 'nav-buttons', role: 'group', 'aria-label': t('replay.title') },
            navButton(t('replay.first'), '«', () => { ply = 0; }, 'first'),
            navButton(t('replay.prev'), '◀', () => { ply = Math.max(0, ply - 1); }, 'prev'),
            navButton(t('replay.next'), '▶', () => { ply = Math.min(view.moves.length, ply + 1); }, 'next'),
            navButton(t('replay.last'), '»', () => { ply = view.moves.length; }, 'last')),
          h('button', {
            type: 'button', 'aria-label': t('game.flip'), id: 'flip',
            onclick: () => {
              bottom = otherSide(bottom);
              board.flip(colorOf(view, bottom));
            },
          }, t('game.flip')))),
      h('aside', { class: 'side-panel' },
        h('div', { class: 'card' },
          h('h2', { id: 'replay-result' }, view.state === 'live' ? t('replay.live') : resultText(view)),
          view.state !== 'live' ? h('p', { class: 'ruling' }, reasonText(view)) : null,
          detailLine(view),
          h('p', { class: 'muted' }, `${view.time_control} · ${view.rated ? t('lobby.rated') : t('lobby.casual')} · ${formatDate(view.created_ms)}`),
          where, clockLine,
          h('div', { class: 'row' },
            recordLinks(id, variantInfo),
            view.state === 'live' ? h('a', { class: 'button', href: `/game/${id}`, 'data-link': '' }, t('replay.watchLive')) : null),
          // The FEN of the shown position is the server's: the rules
          // module of the page writes none.
          exportTools({
            id,
            fen: async () => (ply === view.moves.length ? view.fen : (await api.analysePosition({
              variant: view.variant, fen: view.initial_fen, moves: view.moves.slice(0, ply).map((m) => m.move),
            })).fen),
            ply: () => ply,
            board: () => boardWrap,
          }),
          h('p', { class: 'muted' }, t('replay.keys')),
          openLink),
        reviewCard,
        h('div', { class: 'card' },
          h('div', { class: 'row', style: 'justify-content:space-between' },
            h('h2', {}, t('game.moves')),
            h('div', { class: 'notation-switch', role: 'group', 'aria-label': t('game.notation') }, styleButtons)),
          movesBox))));

  const board = createBoard(view.variant, boardWrap, { orientation: colorOf(view, bottom), t });

  function drawMoves() {
    const style = notation.getStyle();
    const items = [];
    const startSecond = secondToMove(spec, positions[0], view.sides);
    const rows = moveRows(view.moves, startSecond);
    rows.forEach(([a, b], i) => {
      const cell = (m) => {
        if (!m) return h('span', { class: 'mv' }, '…');
        return h('button', {
          type: 'button',
          class: `mv${m.ply === ply ? ' current' : ''}${marks[m.ply] ? ` marked-${marks[m.ply].kind}` : ''}`,
          dataset: { ply: m.ply },
          'aria-current': m.ply === ply ? 'step' : null,
          onclick: () => {
            ply = m.ply;
            show();
          },
        }, notation.moveText(m, positions[m.ply - 1], style), markBadge(marks[m.ply], t));
      };
      items.push(h('li', {}, h('span', { class: 'no' }, `${i + 1}.`), cell(a), cell(b)));
    });
    movesBox.replaceChildren(items.length ? h('ol', {}, items) : h('p', { class: 'muted' }, t('game.noMoves')));
    scrollWithin(movesBox, movesBox.querySelector('.current'));
  }

  function show() {
    const pos = positions[ply];
    board.render(pos);
    const last = ply > 0 ? view.moves[ply - 1] : null;
    const [from, to] = last ? splitMove(last.move) : [null, null];
    board.highlight(to ? { from, to } : null, spec.checkSquare(pos, last));
    where.textContent = ply === 0 ? t('replay.start') : t('replay.ply', { n: ply, total: view.moves.length });
    const m = ply > 0 ? view.moves[ply - 1] : null;
    clockLine.textContent = m && m.first_ms !== undefined
      ? `${sideName(view, 'first')} ${formatClock(m.first_ms)} · ${sideName(view, 'second')} ${formatClock(m.second_ms)}` : '';
    drawMoves();
    const coords = view.moves.map((x) => x.move);
    openLink.setAttribute('href', analysisLink(view.variant, view.initial_fen, coords, ply));
    const here = analysis && analysis.review && analysis.review.plies[ply];
    if (here && here.best_display) {
      bestLine.textContent = t('analysis.bestHere', { move: here.best_display, score: scoreText(here) });
      const [bf, bt] = splitMove(here.best);
      board.setArrows(bf ? [{ from: bf, to: bt, kind: 'best' }] : []);
    } else {
      bestLine.textContent = here ? scoreText(here) : '';
      board.setArrows([]);
    }
    if (graph) graph.setPly(ply);
  }

  /** The analysis card as the review stands. */
  function drawReview() {
    const v = analysis;
    marks = marksByPly(v && v.review);
    graph = null;
    if (!over) return;
    const items = [h('h2', {}, t('analysis.review'))];
    if (!canAnalyse) {
      items.push(h('p', { class: 'muted' }, t('analysis.unavailable')));
    } else if (!v || v.state === 'none' || v.state === 'failed') {
      if (v && v.state === 'failed') items.push(h('p', { class: 'error' }, t('analysis.failed')));
      if (ctx.account) {
        items.push(h('button', {
          type: 'button', class: 'primary', id: 'request-analysis',
          onclick: async (e) => {
            e.target.disabled = true;
            try {
              analysis = await api.requestAnalysis(id);
              watch();
            } catch (err) {
              ctx.toast(errorText(err));
              e.target.disabled = false;
            }
            drawReview();
            show();
          },
        }, t('analysis.request')));
      } else {
        items.push(h('p', { class: 'muted' }, t('analysis.loginForEngine')));
      }
    } else if (v.state === 'queued') {
      items.push(h('p', { id: 'analysis-progress', 'aria-live': 'polite' }, t('analysis.queued', { n: Math.max(0, (v.position || 1) - 1) })));
    } else if (v.state === 'running') {
      items.push(h('p', { id: 'analysis-progress', 'aria-live': 'polite' }, t('analysis.running', { done: v.done, total: v.total })));
    }
    if (v && v.review && v.review.plies.length) {
      graph = evalGraph(v.review, view.moves.length + 1, {
        label: t('analysis.graph', { first: sideName(view, 'first'), second: sideName(view, 'second') }),
        onPick: (p) => {
          ply = p;
          show();
        },
      });
      items.push(graph.el, bestLine);
    }
    if (v && v.state === 'done') {
      const row = (side) => {
        const s = v.review.summary[side === 'first' ? 0 : 1];
        return h('tr', {}, h('th', { scope: 'row' }, sideName(view, side)),
          h('td', {}, String(s.inaccuracies)), h('td', {}, String(s.mistakes)), h('td', {}, String(s.blunders)));
      };
      items.push(h('table', { class: 'summary-table', id: 'analysis-summary', 'aria-label': t('analysis.summary') },
        h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, `?! ${t('analysis.inaccuracies')}`),
          h('th', {}, `? ${t('analysis.mistakes')}`), h('th', {}, `?? ${t('analysis.blunders')}`))),
        h('tbody', {}, row('first'), row('second'))));
    }
    fill(reviewCard, items);
  }

  /** Polls the review while it is waiting or running. */
  function watch() {
    if (poll || !analysis || !['queued', 'running'].includes(analysis.state)) return;
    poll = setInterval(async () => {
      try {
        analysis = await api.analysis(id);
      } catch {
        return; // try again next tick
      }
      if (!['queued', 'running'].includes(analysis.state)) {
        clearInterval(poll);
        poll = null;
      }
      drawReview();
      show();
    }, 1000);
  }

  const onKey = (e) => {
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
    const before = ply;
    if (e.key === 'ArrowLeft') ply = Math.max(0, ply - 1);
    else if (e.key === 'ArrowRight') ply = Math.min(view.moves.length, ply + 1);
    else if (e.key === 'Home') ply = 0;
    else if (e.key === 'End') ply = view.moves.length;
    else return;
    e.preventDefault();
    if (ply !== before) show();
  };
  document.addEventListener('keydown', onKey);
  if (over && canAnalyse) {
    analysis = await api.analysis(id).catch(() => null);
    watch();
  }
  drawReview();
  show();
  return () => {
    if (poll) clearInterval(poll);
    document.removeEventListener('keydown', onKey);
    board.destroy();
  };
}
