// An event drawn whole (issue 28): the crosstable of a Swiss or a round
// robin — a row per player in standings order, a column per round, each
// cell the opponent's pairing number, the side played (a filled disc for
// the first side, white or red; an open one for the second) and the
// result — and a knockout's bracket: a column per round, each match its
// two players with the games' score, the play-off's and the armageddon's
// apart, the one who went through in bold. Both read what the event API
// already serves (`/crosstable`, `rounds_paired`); nothing is computed
// here that the server decides. A staged event (groups → knockout →
// final) is drawn with the same two: a crosstable per group, the bracket
// of its knockout, the final's crosstable (`stages`).

import { h } from '../dom.js';
import { shownName, t } from '../i18n.js';

/** A TRF result code as a reader expects it, and its class. */
const RESULTS = {
  1: ['1', 'win'], '=': ['½', 'draw'], 0: ['0', 'loss'],
  '+': ['+', 'win'], '-': ['−', 'loss'], W: ['1', 'win'], D: ['½', 'draw'], L: ['0', 'loss'],
  U: ['+', 'win'], F: ['1', 'win'], H: ['½', 'draw'], Z: ['0', 'loss'],
};

/** One crosstable cell from its TRF form (`5 w 1`, `0000 - U`, ``). */
function cell(text) {
  if (!text) return h('td', { class: 'ct-cell' }, '');
  const [opp, colour, code = ''] = text.split(' ');
  const [shown, kind] = RESULTS[code] || ['…', 'pending'];
  if (opp === '0000') {
    return h('td', { class: `ct-cell ${kind}` }, h('span', { class: 'ct-bye' }, t('events.bye')), ` ${shown}`);
  }
  const side = colour === 'w' ? 'first' : (colour === 'b' ? 'second' : 'none');
  return h('td', { class: `ct-cell ${kind}`, title: t(`events.ct.${side}`) },
    h('span', { class: 'ct-opp' }, opp),
    side === 'none' ? ' ' : h('span', { class: `ct-side ${side}`, 'aria-hidden': 'true' }),
    h('strong', { class: 'ct-result' }, shown));
}

/**
 * The crosstable: `ct` from `/crosstable`, rows ordered as the standings
 * `st` rank them, with as many round columns as `rounds` (the rounds
 * planned, or those paired).
 */
export function crosstable(ct, st, rounds, id = 'event-crosstable') {
  const byNumber = new Map(ct.rows.map((r) => [r.number, r]));
  const order = st.rows.map((r) => [r, byNumber.get(r.number)]).filter(([, c]) => c);
  const n = Math.max(rounds || 0, ...ct.rows.map((r) => r.rounds.length));
  const heads = ['#', t('players.name'), ...Array.from({ length: n }, (_, i) => t('events.roundN', { n: i + 1 })),
    t('events.points')];
  return h('div', { class: 'table-scroll' }, h('table', { class: 'crosstable', id },
    h('thead', {}, h('tr', {}, heads.map((k) => h('th', { scope: 'col' }, k)))),
    h('tbody', {}, order.map(([s, c]) => h('tr', {},
      h('td', {}, `${s.rank}${s.shared ? '=' : ''}`),
      h('th', { scope: 'row', class: 'ct-name' }, `${c.number}. ${shownName(c.name)}`),
      ...Array.from({ length: n }, (_, i) => cell(c.rounds[i])),
      h('td', { class: 'ct-points' }, h('strong', {}, s.points)))))));
}

/** A game's points for the player numbered `who`, or null while playing. */
function pointsOf(g, who) {
  const forWhite = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5 }[g.result];
  if (forWhite === undefined) return null;
  return g.white === who ? forWhite : 1 - forWhite;
}

const half = (x) => {
  const whole = Math.floor(x);
  return x - whole === 0.5 ? `${whole || ''}½` : String(whole);
};

/** One player's line in a match: name, then each phase's score. */
function matchLine(b, p, first) {
  if (!p) return h('div', { class: 'kb-player kb-bye' }, t('events.bye'));
  // A bye goes through without a game.
  const won = b.black ? b.result === (first ? '1-0' : '0-1') : first;
  const phases = ['regular', 'playoff', 'armageddon'].map((phase) => {
    const games = (b.games || []).filter((g) => g.phase === phase);
    if (!games.length) return null;
    const scored = games.map((g) => pointsOf(g, p.number)).filter((x) => x !== null);
    const shown = scored.length ? half(scored.reduce((a, x) => a + x, 0)) : '…';
    return h('span', { class: `kb-score ${phase}`, title: t(`events.phase.${phase}`) },
      phase === 'regular' ? shown : `${t(`events.kb.${phase}`)} ${shown}`);
  }).filter(Boolean);
  return h('div', { class: `kb-player${won ? ' kb-won' : ''}` },
    h('span', { class: 'kb-name' }, `${p.number}. ${shownName(p.name)}`), ...phases);
}

/**
 * A knockout's bracket from the event `ev`: the rounds paired, then
 * empty places for the rounds still to come (half the matches each).
 * With `final` false (a staged event's knockout, which ends in a final
 * round robin instead) the columns are the rounds paired, none of them
 * the final.
 */
export function bracket(ev, final = true) {
  const cols = ev.rounds_paired.map((r) => ({
    round: r.round,
    matches: r.boards.map((b) => h('div', { class: 'kb-match' },
      matchLine(b, b.white, true), matchLine(b, b.black, false))),
  }));
  let left = cols.length ? cols[cols.length - 1].matches.length : 0;
  for (let round = cols.length + 1; final && round <= (ev.rounds || 0) && left > 1; round += 1) {
    left = Math.ceil(left / 2);
    cols.push({
      round,
      matches: Array.from({ length: left }, () => h('div', { class: 'kb-match kb-empty' },
        h('div', { class: 'kb-player' }, '—'), h('div', { class: 'kb-player' }, '—'))),
    });
  }
  const total = final ? Math.max(ev.rounds || 0, cols.length) : 0;
  return h('div', { class: 'table-scroll' }, h('div', { class: 'bracket', id: 'event-bracket' },
    cols.map((c) => h('div', { class: 'kb-round' },
      h('h3', {}, c.round === total ? t('events.final') : `${t('events.round')} ${c.round}`),
      h('div', { class: 'kb-matches' }, c.matches)))));
}

/**
 * A staged event (groups → knockout → final) from `ev.stages`: each
 * group's crosstable over the group rounds, the knockout's bracket, the
 * final's crosstable over its rounds — each cut from the event's
 * crosstable `ct`, in the order of the server's tables.
 */
export function stages(ev, ct) {
  const st = ev.stages;
  const roundsOf = (stage) => st.round_stages.map((s, i) => [s, i]).filter(([s]) => s === stage).map(([, i]) => i);
  const cut = (numbers, stage) => {
    const cols = roundsOf(stage);
    return { rows: ct.rows.filter((r) => numbers.includes(r.number)).map((r) => ({ ...r, rounds: cols.map((i) => r.rounds[i] || '') })) };
  };
  const parts = [h('h3', {}, t('events.stage.groups'),
    h('span', { class: 'muted', id: 'event-group-draw' }, ` · ${t(`events.groupDraw.${st.group_draw}`)}`))];
  st.group_tables.forEach((rows, g) => {
    parts.push(h('h4', {}, t('events.groupN', { n: g + 1 })),
      crosstable(cut(st.group_members[g], 'groups'), { rows }, roundsOf('groups').length, `event-group-${g + 1}`));
  });
  const ko = roundsOf('knockout').map((i) => ev.rounds_paired[i]).filter(Boolean);
  if (ko.length) {
    parts.push(h('h3', {}, t('events.stage.knockout')), bracket({ rounds_paired: ko, rounds: ko.length }, false));
  }
  if (st.final_table.length) {
    parts.push(h('h3', {}, t('events.stage.final')),
      crosstable(cut(st.finalists, 'final'), { rows: st.final_table }, roundsOf('final').length, 'event-final'));
  }
  return h('div', { id: 'event-stages' }, parts);
}
