// A player's profile: rating, title (称号, by rating band after 20 games
// against titled players), real-world title, the rating history drawn in
// SVG, and the recent games.

import { api } from '../api.js';
import { formatDate, h } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { clockText, resultText, sideName } from '../result.js';
import { findVariant, loadVariants, variantLabel } from '../variants.js';
import { gameFor } from '../boards/board.js';

const NS = 'http://www.w3.org/2000/svg';

function svgEl(name, attrs = {}, parent = null, text = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

/** A line chart of the rating after each rated game (of one pool). */
export function ratingChart(points, id = 'rating-chart') {
  const W = 640;
  const H = 240;
  const L = 48;
  const R = 12;
  const T = 12;
  const B = 28;
  const values = [points[0].before, ...points.map((p) => p.after)];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 50) {
    lo -= 25;
    hi += 25;
  }
  lo = Math.floor(lo / 50) * 50;
  hi = Math.ceil(hi / 50) * 50;
  const x = (i) => L + (values.length === 1 ? 0 : (i * (W - L - R)) / (values.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const first = Math.round(values[0]);
  const last = Math.round(values[values.length - 1]);
  const svg = svgEl('svg', {
    viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', id,
    'aria-label': t('profile.chart', { n: points.length, first, last }),
  });
  const step = (hi - lo) / 4;
  for (let i = 0; i <= 4; i++) {
    const v = lo + i * step;
    svgEl('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }, svg);
    svgEl('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end' }, svg, String(Math.round(v)));
  }
  svgEl('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }, svg);
  svgEl('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' }, svg);
  svgEl('polyline', { points: values.map((v, i) => `${x(i)},${y(v)}`).join(' '), class: 'line' }, svg);
  values.forEach((v, i) => {
    const c = svgEl('circle', { cx: x(i), cy: y(v), r: 3.5, class: 'pt' }, svg);
    if (i > 0) svgEl('title', {}, c, `${formatDate(points[i - 1].at_ms)}: ${Math.round(v)}`);
  });
  if (points.length) {
    svgEl('text', { x: L, y: H - 8 }, svg, formatDate(points[0].at_ms).slice(0, 10));
    svgEl('text', { x: W - R, y: H - 8, 'text-anchor': 'end' }, svg, formatDate(points[points.length - 1].at_ms).slice(0, 10));
  }
  return svg;
}

function resultCell(g) {
  if (g.state === 'live') return '…';
  if (g.state === 'aborted') return t('result.aborted');
  return g.result ? `${g.result} · ${resultText(g)}` : '';
}

/** A player in the list, with the variant's word for their side. */
function playerCell(g, side) {
  return `${sideName(g, side)} ${g[side]}`;
}

export async function mount(main, params, ctx) {
  const name = params.name;
  let user;
  let games = [];
  let history = [];
  let variants = [];
  let record = { pools: [], vs: null };
  // Head to head with the reader, when someone else's profile is read.
  const me = ctx && ctx.account && ctx.account.name !== name ? ctx.account.name : null;
  try {
    [user, games, history, variants, record] = await Promise.all([
      api.user(name), api.userGames(name), api.ratingHistory(name), loadVariants(), api.record(name, me)]);
  } catch (e) {
    main.append(h('h1', {}, e.status === 404 ? t('profile.notFound') : errorText(e)));
    return null;
  }
  const variantName = (id) => {
    const v = findVariant(variants, id);
    return v ? variantLabel(variants, v) : id;
  };
  // Ratings are kept per pool (Xiangqi's four rule sets share one, chess
  // and Chess960 have their own); the headline figures are the title pool's.
  const poolName = (pool) => {
    const v = variants.find((x) => x.rating_pool === pool);
    return v ? variantLabel(variants, v).split(' · ')[0] : pool;
  };
  const titlePool = (variants[0] && variants[0].rating_pool) || 'xiangqi';
  const otherPools = (user.ratings || []).filter((r) => r.pool !== titlePool);
  const pools = [titlePool, ...new Set(history.map((p) => p.pool || titlePool).filter((p) => p !== titlePool))];
  const charts = pools
    .map((pool) => [pool, history.filter((p) => (p.pool || titlePool) === pool)])
    .filter(([, points]) => points.length)
    .map(([pool, points]) => h('figure', {},
      pools.length > 1 ? h('figcaption', { class: 'muted' }, poolName(pool)) : null,
      ratingChart(points, pool === titlePool ? 'rating-chart' : `rating-chart-${pool}`)));
  const ratingText = (rating, provisional) => [String(Math.round(rating)),
    provisional ? h('abbr', { class: 'provisional', title: t('profile.provisionalShort') }, '?') : null];
  const stat = (label, value, idAttr) => h('div', { class: 'stat' }, h('span', { class: 'muted' }, label), h('b', { id: idAttr }, value));
  // The archive: filtered by opponent, result, game and opening; all of it as PGN.
  const gamesBox = h('div', { class: 'table-scroll' });
  let openingFilter = null; // { coords, text } of the opening picked from a game
  const openingText = (g) => {
    const moves = (g.opening || []).slice(0, 2);
    const named = gameFor(g.variant)?.notation.openingName?.(moves.map((m) => m.coord));
    return [named ? t(`opening.${named}`) : null, moves.map((m) => m.display).join(' ')].filter(Boolean).join(' · ');
  };
  const openingCell = (g) => {
    const moves = (g.opening || []).slice(0, 2);
    if (!moves.length) return '';
    const text = openingText(g);
    const words = moves.map((m) => m.display).join(' ');
    return h('button', {
      type: 'button', class: 'link opening', 'aria-label': t('profile.byOpening', { moves: words }),
      onclick: () => {
        openingFilter = { coords: moves.map((m) => m.coord), text };
        refilter();
      },
    }, text);
  };
  const drawGames = (list) => gamesBox.replaceChildren(list.length
    ? h('table', { id: 'recent-games' },
      h('thead', {}, h('tr', {},
        ...['col.date', 'col.game', 'col.first', 'col.second', 'col.result', 'col.opening', 'col.time', 'col.mode'].map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, list.map((g) => h('tr', {},
        h('td', {}, h('a', { href: g.state === 'live' ? `/game/${g.id}` : `/replay/${g.id}`, 'data-link': '' }, formatDate(g.created_ms))),
        h('td', {}, variantName(g.variant)),
        h('td', {}, playerCell(g, 'first')),
        h('td', {}, playerCell(g, 'second')),
        h('td', {}, resultCell(g)),
        h('td', {}, openingCell(g)),
        h('td', {}, clockText(g.time_control)),
        h('td', {}, g.rated ? t('lobby.rated') : t('lobby.casual'))))))
    : h('p', { class: 'muted' }, t('profile.noGames')));
  const opponent = h('input', { id: 'filter-opponent', autocomplete: 'off', 'aria-label': t('profile.filterOpponent'), placeholder: t('profile.filterOpponent') });
  const result = h('select', { id: 'filter-result', 'aria-label': t('profile.filterResult') },
    h('option', { value: '' }, t('profile.anyResult')),
    ...['win', 'draw', 'loss'].map((r) => h('option', { value: r }, t(`profile.result.${r}`))));
  const families = [...new Set(variants.map((v) => v.family))];
  const family = h('select', { id: 'filter-game', 'aria-label': t('profile.filterGame') },
    h('option', { value: '' }, t('profile.anyGame')),
    ...families.map((f) => h('option', { value: f }, poolName(variants.find((v) => v.family === f).rating_pool))));
  const download = h('a', { class: 'button', id: 'download-pgn', download: '' }, t('profile.downloadPgn'));
  const query = () => {
    const q = new URLSearchParams();
    if (opponent.value.trim()) q.set('opponent', opponent.value.trim());
    if (result.value) q.set('result', result.value);
    if (family.value) q.set('variant', family.value);
    if (openingFilter) q.set('opening', openingFilter.coords.join(','));
    return q.toString();
  };
  const openingChip = h('span', { id: 'filter-opening', class: 'chip', hidden: true });
  const refilter = async () => {
    const q = query();
    openingChip.hidden = !openingFilter;
    openingChip.replaceChildren(...(openingFilter ? [t('profile.filterOpening', { moves: openingFilter.text }), ' ',
      h('button', {
        type: 'button', class: 'link', 'aria-label': t('profile.clearOpening'),
        onclick: () => {
          openingFilter = null;
          refilter();
        },
      }, '×')] : []));
    download.href = `/api/users/${encodeURIComponent(name)}/games.pgn${q ? `?${q}` : ''}`;
    try {
      drawGames(await api.userGames(name, q));
    } catch (e) {
      gamesBox.replaceChildren(h('p', { class: 'error' }, errorText(e)));
    }
  };
  download.href = `/api/users/${encodeURIComponent(name)}/games.pgn`;
  let filterTimer = null;
  opponent.addEventListener('input', () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(refilter, 300);
  });
  result.addEventListener('change', refilter);
  family.addEventListener('change', refilter);
  const filters = h('div', { class: 'row', id: 'game-filters' }, opponent, result, family, openingChip, download);

  // Follow (issue 30, friends): a registered player, someone else, who
  // then shows on the lobby's friends list.
  let followButton = null;
  if (me && !ctx.account.guest && !user.guest) {
    let following = false;
    try {
      following = (await api.follows()).some((f) => f.name === user.name);
    } catch {
      /* shown as not followed; the click says what is wrong */
    }
    const draw = () => {
      followButton.textContent = t(following ? 'friends.unfollow' : 'friends.follow');
      followButton.setAttribute('aria-pressed', following ? 'true' : 'false');
    };
    followButton = h('button', {
      type: 'button', id: 'profile-follow',
      onclick: async () => {
        followButton.disabled = true;
        try {
          if (following) await api.unfollow(user.name);
          else await api.follow(user.name);
          following = !following;
          draw();
        } catch (e) {
          ctx.toast(errorText(e));
        } finally {
          followButton.disabled = false;
        }
      },
    });
    draw();
  }

  main.append(
    h('div', { class: 'row', style: 'justify-content:space-between' },
      h('h1', {}, t('profile.title', { name: user.name }), user.guest ? ` (${t('profile.guest')})` : ''),
      h('div', { class: 'row' },
        followButton,
        // Challenge this player: the lobby's challenge form, the name filled in.
        me ? h('a', {
          class: 'button primary', id: 'profile-challenge', href: `/?challenge=${encodeURIComponent(user.name)}`, 'data-link': '',
        }, t('profile.challenge', { name: user.name })) : null)),
    h('section', { class: 'card', 'aria-label': t('profile.rating') },
      h('div', { class: 'stats' },
        // The pool is named; a provisional rating carries "?".
        stat(t('profile.ratingIn', { pool: poolName(user.pool || titlePool) }), ratingText(user.rating, user.provisional), 'profile-rating'),
        stat(t('profile.title_'), user.title || t('profile.noTitle'), 'profile-title'),
        user.real_title ? stat(t('profile.realTitle'), user.real_title) : null,
        stat(t('profile.games'), String(user.rated_games)),
        stat(t('profile.titledGames'), `${user.titled_games} / 20`),
        ...otherPools.map((r) => stat(`${poolName(r.pool)} · ${t('profile.rating')}`,
          [ratingText(r.rating, r.provisional), ` (${r.rated_games})`], `profile-rating-${r.pool}`))),
      user.provisional ? h('p', { class: 'muted', id: 'profile-provisional' }, t('profile.provisional')) : null),
    h('section', { class: 'card', 'aria-labelledby': 'record-title' },
      h('h2', { id: 'record-title' }, t('profile.record')),
      h('div', { class: 'stats', id: 'profile-record' },
        ...record.pools.map((r) => stat(poolName(r.pool), t('profile.wdl', { w: r.wins, d: r.draws, l: r.losses }), `record-${r.pool}`)),
        record.vs ? stat(t('profile.vsYou'), t('profile.wdl', { w: record.vs.wins, d: record.vs.draws, l: record.vs.losses }), 'record-vs') : null),
      record.pools.length ? null : h('p', { class: 'muted' }, t('profile.noGames'))),
    h('section', { class: 'card', 'aria-labelledby': 'history-title' },
      h('h2', { id: 'history-title' }, t('profile.history')),
      charts.length ? charts : h('p', { class: 'muted' }, t('profile.noHistory'))),
    h('section', { class: 'card', 'aria-labelledby': 'recent-title' },
      h('h2', { id: 'recent-title' }, t('profile.recent')),
      filters,
      gamesBox));
  drawGames(games);
  return () => clearTimeout(filterTimer);
}
