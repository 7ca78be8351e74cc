// A round's live games on one screen (issue 28, docs/EVENTS.md): the
// current round's boards of an event — a Swiss, a round robin, a team
// event's boards, a knockout match's game being played — or an arena's
// games in progress, each a small board that follows its game as the game
// page does: the game's own socket (`/api/games/{id}/ws`, as a spectator;
// `full` on connecting, then the versioned events), the board drawn by the
// game family's renderer (`createBoard`), so this page names no game.
// Each tile has the players, their clocks and, once the game is over, the
// result; a click opens the game.
//
// A 500-board Swiss round is not 500 sockets: the boards are shown a page
// of `PAGE_SIZE` at a time, in board order (the top boards first), with a
// pager; only the page's games have a socket, and a tile that leaves the
// page closes its socket. The event is read again every few seconds, so
// the next round (or an arena's next games) takes the boards' place.

import { api } from '../api.js';
import { button, fill, h } from '../dom.js';
import { errorText, shownName, t } from '../i18n.js';
import { Socket } from '../socket.js';
import { Clock, tickClocks } from '../clock.js';
import { createBoard, gameFor, splitMove } from '../boards/board.js';
import { colorOf, resultText } from '../result.js';

/** Boards on one page: a desktop's three rows of four, a phone's six rows
 *  of two — and at most this many sockets open at once. */
export const PAGE_SIZE = 12;
/** How often the event is read again for the round's boards. */
const LOOK_MS = 5000;

const SIDES = ['first', 'second'];

/**
 * The games the screen shows, in order: `{ game, label, white, black }`
 * (`white`/`black` the event's names, shown until the game's own view
 * comes). An arena: the games being played, the leaders' first. Any
 * other event: the current round's boards with a game (a bye or a forfeit
 * without one has nothing to watch); a knockout board's game is its
 * match's latest.
 */
export function liveGames(ev) {
  if (ev.system === 'arena') {
    // The leaders' games first (the better player's points now, then the
    // other's), as lichess shows an arena's top games; then as paired.
    const lead = (g) => Math.max(...(g.points_now || [0, 0]));
    const other = (g) => Math.min(...(g.points_now || [0, 0]));
    return (ev.arena ? ev.arena.games : []).filter((g) => !g.result)
      .sort((a, b) => lead(b) - lead(a) || other(b) - other(a) || a.seq - b.seq)
      .map((g) => ({
        game: g.game, label: t('live.arenaGame', { n: g.seq }), white: g.white.name, black: g.black.name,
      }));
  }
  const round = ev.rounds_paired[ev.rounds_paired.length - 1];
  if (!round) return [];
  return round.boards.flatMap((b) => {
    const last = (b.games || [])[b.games.length - 1];
    const game = last ? last.game : b.game;
    if (!game || !b.black) return [];
    return [{ game, label: t('live.board', { n: b.board }), white: b.white.name, black: b.black.name }];
  });
}

/** The page `page` (from 1) of `list`: `{ items, page, pages, from }`, the
 *  page brought within the pages there are. */
export function pageOf(list, page, size = PAGE_SIZE) {
  const pages = Math.max(1, Math.ceil(list.length / size));
  const p = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const from = (p - 1) * size;
  return { items: list.slice(from, from + size), page: p, pages, from };
}

export async function mount(main, params) {
  const id = params.id;
  let page = Number(new URLSearchParams(location.search).get('page')) || 1;
  const title = h('h1', { id: 'live-title' }, t('live.title'));
  const info = h('p', { class: 'muted', id: 'live-info' });
  const said = h('p', { role: 'status', id: 'live-said' });
  const pager = h('nav', { class: 'row live-pager', id: 'live-pager', 'aria-label': t('live.pages') });
  const grid = h('div', { class: 'live-grid', id: 'live-boards' });
  main.append(
    h('p', {}, h('a', { href: `/event/${encodeURIComponent(id)}`, 'data-link': '', id: 'live-back' }, `← ${t('live.back')}`)),
    title, info, pager, said, grid,
  );

  /** game id → tile, for the games of the page shown. */
  const tiles = new Map();
  const clocks = new Set();
  const stopTick = tickClocks(clocks);
  let games = [];
  let ev = null;
  let gone = false; // left: an answer still on its way opens no socket
  let shownKey = ''; // the tiles and pager drawn, redrawn only when they change (a focused tile keeps its focus)

  async function look() {
    let next;
    try {
      next = await api.event(id, 'latest'); // the last round's boards only
    } catch (e) {
      if (!gone) fill(said, h('span', { class: 'error' }, errorText(e)));
      return;
    }
    if (gone) return;
    ev = next;
    fill(said);
    games = liveGames(ev);
    draw();
  }

  function draw() {
    const shown = pageOf(games, page);
    if (shown.page !== page) {
      page = shown.page;
      remember();
    }
    fill(title, `${ev.name} · ${t('live.title')}`);
    const where = ev.system === 'arena' ? t('live.arena') : t('live.round', { n: ev.current_round });
    fill(info, [where, games.length
      ? t('live.range', { from: shown.from + 1, to: shown.from + shown.items.length, n: games.length })
      : ''].filter(Boolean).join(' · '));
    const keep = new Set(shown.items.map((g) => g.game));
    for (const [game, tile] of tiles) {
      if (!keep.has(game)) {
        tile.stop();
        tiles.delete(game);
      }
    }
    const els = shown.items.map((g) => {
      let tile = tiles.get(g.game);
      if (!tile) {
        tile = liveTile(g, clocks);
        tiles.set(g.game, tile);
      }
      return tile.el;
    });
    const key = `${shown.page}/${shown.pages}:${[...keep].join()}`;
    if (key === shownKey) return;
    shownKey = key;
    if (els.length) fill(grid, els);
    else fill(grid, h('p', { class: 'muted', id: 'live-empty' }, t('live.none')));
    const turn = (to) => () => {
      page = to;
      remember();
      draw();
    };
    fill(pager, shown.pages > 1 ? [
      button(t('live.prev'), turn(shown.page - 1), { id: 'live-prev', disabled: shown.page <= 1 }),
      h('span', { id: 'live-page' }, t('live.page', { page: shown.page, pages: shown.pages })),
      button(t('live.next'), turn(shown.page + 1), { id: 'live-next', disabled: shown.page >= shown.pages }),
    ] : []);
  }

  /** The page in the address, so that a reload keeps it. */
  function remember() {
    const url = page > 1 ? `${location.pathname}?page=${page}` : location.pathname;
    history.replaceState(null, '', url);
  }

  await look();
  const timer = setInterval(look, LOOK_MS);
  return () => {
    gone = true;
    clearInterval(timer);
    stopTick();
    for (const tile of tiles.values()) tile.stop();
    tiles.clear();
  };
}

/**
 * One game's tile: a link to the game holding the players' names and
 * clocks, the board, and the result once there is one. It keeps the
 * game's view as the game page does: `full` replaces it, each versioned
 * event is applied once and in order, a gap asks for `full` again.
 */
function liveTile(g, clocks) {
  const bar = (pos) => {
    // The game page's classes: each game's side colours come with them.
    const name = h('span', { class: 'player-name live-name' });
    const clockEl = h('span', { class: 'clock live-clock', role: 'timer', 'aria-live': 'off' },
      h('span', { class: 'clock-time' }, '–:––'));
    return { el: h('div', { class: `live-player seat-${pos}` }, name, clockEl), name, clockEl };
  };
  const top = bar('top');
  const bottom = bar('bottom');
  const boardEl = h('div', { class: 'live-board' });
  const result = h('div', { class: 'live-result', 'aria-live': 'polite' });
  const el = h('a', {
    class: 'live-tile card', href: `/game/${encodeURIComponent(g.game)}`, 'data-link': '',
    dataset: { game: g.game, ply: '0', state: 'connecting' },
    'aria-label': `${g.label}: ${shownName(g.white)} – ${shownName(g.black)}`,
  }, h('div', { class: 'live-label muted' }, g.label), top.el, boardEl, bottom.el, result);
  fill(top.name, shownName(g.black));
  fill(bottom.name, shownName(g.white));

  let view = null;
  let lastV = 0;
  let board = null;
  let spec = null;
  const clock = {
    first: new Clock(bottom.clockEl),
    second: new Clock(top.clockEl),
  };
  for (const c of Object.values(clock)) clocks.add(c);
  const live = () => view && view.state === 'live';

  function drawPlayers() {
    for (const [b, side] of [[bottom, 'first'], [top, 'second']]) {
      fill(b.name, h('span', { class: `dot ${colorOf(view, side)}`, 'aria-hidden': 'true' }), shownName(view[side].name));
    }
    el.setAttribute('aria-label', `${g.label}: ${shownName(view.first.name)} – ${shownName(view.second.name)}`);
  }

  function setClocks() {
    const c = view.clocks || {};
    for (const side of SIDES) {
      clock[side].initialMs = view.initial_ms || 0;
      clock[side].set(c[`${side}_ms`] ?? 0, !!c.running && live() && view.turn === side);
    }
  }

  function drawBoard() {
    let pos = spec.rules.parseFen(view.fen);
    if (spec.annotate) pos = spec.annotate(pos, view.moves, view.initial_fen);
    board.render(pos);
    const last = view.moves.length ? view.moves[view.moves.length - 1] : null;
    const [from, to] = last ? splitMove(last.move) : [null, null];
    board.highlight(to ? { from, to } : null, spec.checkSquare(pos, last));
    el.dataset.ply = String(view.ply);
  }

  function drawResult() {
    el.dataset.state = view.state;
    el.classList.toggle('over', !live());
    fill(result, live() ? '' : [view.result, resultText(view)].filter(Boolean).join(' · '));
  }

  function onFull(msg) {
    view = msg.game;
    lastV = view.v || 0;
    spec = gameFor(view.variant);
    if (!spec) {
      fill(result, t('error.generic', { message: `no board for ${view.variant}` }));
      return;
    }
    if (!board) board = createBoard(view.variant, boardEl, { orientation: colorOf(view, 'first'), t });
    drawPlayers();
    setClocks();
    drawBoard();
    drawResult();
    if (!live()) socket.stop();
  }

  function onEvent(msg) {
    switch (msg.t) {
      case 'move':
        if (msg.ply !== view.ply + 1) {
          socket.send({ t: 'resync' });
          return;
        }
        view.moves.push({ ply: msg.ply, side: msg.side || view.turn, move: msg.move, check: msg.check });
        if (msg.sides) view.sides = msg.sides;
        view.ply = msg.ply;
        view.fen = msg.fen;
        view.turn = msg.turn;
        if (msg.clocks) view.clocks = msg.clocks;
        setClocks();
        drawBoard();
        if (msg.sides) drawPlayers();
        break;
      case 'end':
        Object.assign(view, {
          state: msg.state, result: msg.result, winner: msg.winner, reason: msg.reason,
        });
        if (msg.clocks) view.clocks = msg.clocks;
        setClocks();
        drawResult();
        socket.stop();
        break;
      case 'clock':
        view.clocks = { ...view.clocks, ...msg.clocks };
        setClocks();
        break;
      case 'taken_back':
        socket.send({ t: 'resync' });
        break;
      default:
        break; // offers, chat, presence: the game page's business
    }
  }

  const socket = new Socket(`/api/games/${encodeURIComponent(g.game)}/ws`, {
    onMessage: (msg) => {
      if (msg.t === 'full') {
        onFull(msg);
      } else if (typeof msg.v === 'number' && view && spec && msg.v > lastV) {
        if (msg.v > lastV + 1) {
          socket.send({ t: 'resync' });
          return;
        }
        lastV = msg.v;
        onEvent(msg);
      }
    },
  });

  return {
    el,
    stop() {
      socket.stop();
      for (const c of Object.values(clock)) clocks.delete(c);
      if (board) board.destroy();
    },
  };
}
