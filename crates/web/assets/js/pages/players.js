// Players: find someone by the start of their name, and the leaderboard of
// each rating pool (Xiangqi's with its titles, seed 003). The pools come
// from the server's variant list, so a game added there gets its board here.

import { api } from '../api.js';
import { h } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { loadVariants, variantLabel } from '../variants.js';

export async function mount(main) {
  const variants = await loadVariants();
  // One entry per pool, named after its first variant (the game's name).
  const pools = [];
  for (const v of variants) {
    if (!pools.some((p) => p.pool === v.rating_pool)) {
      pools.push({ pool: v.rating_pool, name: variantLabel(variants, v).split(' · ')[0] });
    }
  }
  const profile = (name) => h('a', { href: `/@/${encodeURIComponent(name)}`, 'data-link': '' }, name);

  // --- search ---------------------------------------------------------------
  const query = h('input', {
    id: 'player-search', type: 'search', autocomplete: 'off', maxlength: 20,
    'aria-label': t('players.search'), placeholder: t('players.searchHint'),
  });
  const results = h('ul', { id: 'search-results', class: 'plain' });
  let asked = 0;
  async function search() {
    const q = query.value.trim();
    const n = ++asked;
    if (!q) {
      results.replaceChildren();
      return;
    }
    let found = [];
    try {
      found = await api.searchUsers(q);
    } catch (e) {
      results.replaceChildren(h('li', { class: 'error' }, errorText(e)));
      return;
    }
    if (n !== asked) return; // a later search answered first
    results.replaceChildren(...(found.length
      ? found.map((u) => h('li', {}, profile(u.name),
        h('span', { class: 'muted' }, ` · ${Math.round(u.rating)}${u.title ? ` · ${u.title}` : ''}`)))
      : [h('li', { class: 'muted' }, t('players.noneFound'))]));
  }
  let timer = null;
  query.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(search, 200);
  });

  // --- leaderboard ------------------------------------------------------------
  const board = h('tbody', { id: 'leaderboard' });
  const poolSelect = h('select', {
    id: 'leaderboard-pool', 'aria-label': t('players.pool'),
    onchange: () => drawBoard(poolSelect.value),
  }, pools.map((p) => h('option', { value: p.pool }, p.name)));
  // 50 players a page; "more" appends the next page while there may be one.
  const more = h('button', { id: 'leaderboard-more', type: 'button', hidden: true }, t('players.more'));
  let shown = { pool: null, page: 0 };
  const row = (r) => h('tr', {},
    h('td', {}, String(r.rank)),
    h('td', {}, profile(r.name)),
    h('td', {}, String(Math.round(r.rating))),
    h('td', {}, r.title || ''));
  async function drawBoard(pool, page = 1) {
    let rows = [];
    more.hidden = true;
    try {
      rows = await api.leaderboard(pool, page);
    } catch (e) {
      board.replaceChildren(h('tr', {}, h('td', { colspan: 4, class: 'error' }, errorText(e))));
      return;
    }
    if (page === 1) {
      board.replaceChildren(...(rows.length
        ? rows.map(row)
        : [h('tr', {}, h('td', { colspan: 4, class: 'muted', id: 'leaderboard-empty' }, t('players.noneEstablished')))]));
    } else {
      board.append(...rows.map(row));
    }
    shown = { pool, page };
    more.hidden = rows.length < 50 || page >= 20;
  }
  more.addEventListener('click', () => drawBoard(shown.pool, shown.page + 1));

  main.append(
    h('h1', {}, t('players.title')),
    h('div', { class: 'lobby' },
      h('section', { class: 'card', 'aria-labelledby': 'search-title' },
        h('h2', { id: 'search-title' }, t('players.search')),
        query, results),
      h('section', { class: 'card', 'aria-labelledby': 'board-title' },
        h('div', { class: 'row', style: 'justify-content:space-between' },
          h('h2', { id: 'board-title' }, t('players.leaderboard')), poolSelect),
        h('table', {},
          h('thead', {}, h('tr', {},
            ...['players.rank', 'players.name', 'profile.rating', 'profile.title_'].map((k) => h('th', { scope: 'col' }, t(k))))),
          board),
        more)));
  if (pools.length) drawBoard(pools[0].pool);
  return () => clearTimeout(timer);
}
