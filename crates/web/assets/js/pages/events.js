// Events (issue 28, docs/EVENTS.md): the list of upcoming, running and
// finished events with a form to create one, and an event's page — its
// entries, the pairings of each round (each game a link to watch), the
// standings with tie-breaks, joining and withdrawing; an arena's games,
// its sheets with streak flames and berserk marks, the player's current
// game, berserk, pause and join again; and the arbiter's panel (pair,
// pause, re-pair, publish, results, players, the log); the crosstable of
// a Swiss or round robin and a knockout's bracket (pages/crosstable.js);
// a running event links to its live boards (pages/liveboards.js).

import { api } from '../api.js';
import { button, fill, h } from '../dom.js';
import { errorText, shownName, t } from '../i18n.js';
import { findVariant, loadVariants, sideKeys, variantLabel } from '../variants.js';
import { drawTeams, penaltiesCell } from './teams.js';
import { bracket, crosstable, stages } from './crosstable.js';

const link = (href, text, attrs = {}) => h('a', { href, 'data-link': '', ...attrs }, text);

export async function mount(main, params, ctx) {
  if (params.id) return eventPage(main, params.id, ctx);
  return listPage(main, ctx);
}

async function listPage(main, ctx) {
  const variants = await loadVariants().catch(() => []);
  const name = (v) => {
    const found = variants.find((x) => x.id === v);
    return found ? variantLabel(variants, found) : v;
  };
  const sections = ['upcoming', 'running', 'finished'].map((state) => {
    const body = h('tbody', { id: `events-${state}` });
    api.events(state).then((list) => {
      fill(body, list.length
        ? list.map((e) => h('tr', {},
          h('td', {}, link(`/event/${encodeURIComponent(e.id)}`, e.name)),
          h('td', {}, name(e.variant)),
          h('td', {}, e.time_control),
          h('td', {}, t(`events.system.${e.system}`)),
          h('td', {}, e.system === 'arena' ? '—'
            : (e.current_round ? `${e.current_round} / ${e.rounds}` : String(e.rounds || '—'))),
          h('td', {}, String(e.players)),
          h('td', {}, e.rated ? t('events.rated') : t('events.casual'))))
        : h('tr', {}, h('td', { colspan: 7, class: 'muted' }, t('events.none'))));
    }).catch((e) => fill(body, h('tr', {}, h('td', { colspan: 7, class: 'error' }, errorText(e)))));
    return h('section', { class: 'card', 'aria-labelledby': `events-${state}-title` },
      h('h2', { id: `events-${state}-title` }, t(`events.${state}`)),
      h('div', { class: 'table-scroll' }, h('table', {},
        h('thead', {}, h('tr', {}, ...['events.name', 'events.game', 'events.clock', 'events.systemTitle',
          'events.round', 'events.players', 'events.kind'].map((k) => h('th', { scope: 'col' }, t(k))))),
        body)));
  });
  main.append(h('h1', {}, t('events.title')), ...sections);
  if (ctx.account && !ctx.account.guest) main.append(createForm(variants, ctx));
}

// Systems whose entries are teams (seed 000 articles 12–15), and those
// whose number of rounds the organiser sets (a Swiss of players or teams).
const isTeam = (system) => system === 'team-round-robin' || system === 'team-swiss';
const hasRounds = (system) => system === 'swiss' || system === 'team-swiss';
// Systems whose boards are knockout matches (a race to N wins allowed).
const playsMatches = (system) => ['knockout', 'double-elimination', 'groups-knockout'].includes(system);

function createForm(variants, ctx) {
  const field = (label, input) => h('label', { class: 'row' }, h('span', {}, label), input);
  const nameInput = h('input', { id: 'event-name', maxlength: 80, required: true });
  const variant = h('select', { id: 'event-variant' },
    variants.map((v) => h('option', { value: v.id }, variantLabel(variants, v))));
  const clock = h('input', { id: 'event-clock', value: '10+5', maxlength: 20 });
  const system = h('select', { id: 'event-system' },
    ['swiss', 'round-robin', 'double-round-robin', 'knockout', 'double-elimination', 'groups-knockout', 'arena', 'team-round-robin', 'team-swiss']
      .map((s) => h('option', { value: s }, t(`events.system.${s}`))));
  const minutes = h('input', { id: 'event-minutes', type: 'number', min: 1, max: 720, value: 60 });
  const berserk = h('input', { id: 'event-berserk', type: 'checkbox', checked: true });
  const rounds = h('input', { id: 'event-rounds', type: 'number', min: 1, max: 30, value: 5 });
  const scoring = h('select', { id: 'event-scoring' },
    ['1-0.5-0', '2-1-0', '3-1-0'].map((s) => h('option', { value: s }, s)));
  const tiebreaks = h('select', { id: 'event-tiebreaks' },
    ['fide', 'cxa'].map((s) => h('option', { value: s }, s.toUpperCase())));
  const code = h('input', { id: 'event-code', maxlength: 40 });
  const rated = h('input', { id: 'event-rated', type: 'checkbox' });
  const boards = h('input', { id: 'event-boards', type: 'number', min: 2, max: 8, value: 4 });
  const firstTo = h('input', { id: 'event-first-to', type: 'number', min: 1, max: 5, placeholder: '—' });
  const minGames = h('input', { id: 'event-min-games', type: 'number', min: 0, max: 1000, value: 0 });
  const forfeit = h('input', { id: 'event-forfeit', type: 'number', min: 10, max: 3600, placeholder: '—' });
  // The first round's (an arena's) start, and the rounds after it each so
  // many minutes after the one before ended: a scheduled event.
  const start = h('input', { id: 'event-start', type: 'datetime-local' });
  const interval = h('input', { id: 'event-interval', type: 'number', min: 0, max: 10080, placeholder: '—' });
  const substitutes = h('input', { id: 'event-substitutes', type: 'number', min: 0, max: 4, value: 2 });
  const groups = h('input', { id: 'event-groups', type: 'number', min: 1, max: 64, value: 12 });
  const groupSize = h('input', { id: 'event-group-size', type: 'number', min: 2, max: 30, value: 4 });
  const advance = h('input', { id: 'event-advance', type: 'number', min: 1, max: 30, value: 1 });
  const finalSize = h('input', { id: 'event-final-size', type: 'number', min: 2, max: 30, value: 3 });
  const groupDraw = h('select', { id: 'event-group-draw' },
    ['seeded', 'lot'].map((s) => h('option', { value: s }, t(`events.groupDraw.${s}`))));
  const lineups = h('select', { id: 'event-lineups' },
    ['roster-order', 'any-order'].map((s) => h('option', { value: s }, t(`teams.lineups.${s}`))));
  // 12.4 全队轮赛制 (a team round robin's) and 15.5 队员总分制.
  const teamMatch = h('select', { id: 'event-team-match' },
    ['boards', 'all-play-all'].map((s) => h('option', { value: s }, t(`teams.match.${s}`))));
  const teamRanking = h('select', { id: 'event-team-ranking' },
    ['match-points', 'places'].map((s) => h('option', { value: s }, t(`teams.ranking.${s}`))));
  const said = h('p', { role: 'status' });
  const sync = () => {
    teamMatch.disabled = system.value !== 'team-round-robin';
    teamRanking.disabled = !isTeam(system.value);
    boards.disabled = !isTeam(system.value);
    firstTo.disabled = !playsMatches(system.value);
    for (const x of [groups, groupSize, advance, finalSize, groupDraw]) x.disabled = system.value !== 'groups-knockout';
    substitutes.disabled = !isTeam(system.value);
    lineups.disabled = !isTeam(system.value);
    rounds.disabled = !hasRounds(system.value);
    minutes.disabled = system.value !== 'arena';
    berserk.disabled = system.value !== 'arena';
    interval.disabled = system.value === 'arena' || system.value === 'groups-knockout';
    if (system.value === 'arena') scoring.value = '2-1-0';
  };
  system.addEventListener('change', sync);
  sync();
  const form = h('form', {
    id: 'event-create',
    onsubmit: async (e) => {
      e.preventDefault();
      const body = {
        name: nameInput.value, variant: variant.value, time_control: clock.value, system: system.value,
        scoring: scoring.value, tiebreaks: tiebreaks.value, rated: rated.checked,
      };
      if (hasRounds(system.value)) body.rounds = Number(rounds.value);
      if (system.value === 'arena') {
        body.duration_s = Number(minutes.value) * 60;
        body.berserk = berserk.checked;
        delete body.tiebreaks;
      }
      if (isTeam(system.value)) {
        body.boards = Number(boards.value);
        body.team_ranking = teamRanking.value;
        if (system.value === 'team-round-robin' && teamMatch.value === 'all-play-all') {
          // Every player against every player: no substitutes, no line-ups.
          body.team_match = teamMatch.value;
        } else {
          body.substitutes = Number(substitutes.value);
          body.lineups = lineups.value;
        }
      }
      if (system.value === 'groups-knockout') {
        body.groups = Number(groups.value);
        body.group_size = Number(groupSize.value);
        body.advance = Number(advance.value);
        body.final_size = Number(finalSize.value);
        body.group_draw = groupDraw.value;
      }
      if (playsMatches(system.value) && firstTo.value) {
        body.first_to = Number(firstTo.value);
      }
      if (Number(minGames.value) > 0) body.min_rated_games = Number(minGames.value);
      if (forfeit.value.trim()) body.forfeit_after_s = Number(forfeit.value);
      if (start.value) body.round_starts = [new Date(start.value).getTime()];
      if (!interval.disabled && interval.value.trim()) body.round_interval_s = Number(interval.value) * 60;
      if (code.value.trim()) body.invitation_code = code.value.trim();
      try {
        const ev = await api.createEvent(body);
        ctx.navigate(`/event/${encodeURIComponent(ev.id)}`);
      } catch (err) {
        fill(said, h('span', { class: 'error' }, errorText(err)));
      }
    },
  },
  field(t('events.name'), nameInput), field(t('events.game'), variant), field(t('events.clock'), clock),
  field(t('events.systemTitle'), system), field(t('events.rounds'), rounds),
  field(t('events.start'), start), field(t('events.interval'), interval),
  field(t('teams.boards'), boards), field(t('teams.substitutes'), substitutes),
  field(t('events.groups'), groups), field(t('events.groupSize'), groupSize),
  field(t('events.advance'), advance), field(t('events.finalSize'), finalSize),
  field(t('events.groupDrawTitle'), groupDraw),
  field(t('teams.lineupsTitle'), lineups),
  field(t('teams.matchTitle'), teamMatch), field(t('teams.rankingTitle'), teamRanking),
  field(t('events.firstTo'), firstTo), field(t('events.minRatedGames'), minGames),
  field(t('events.forfeitAfter'), forfeit),
  field(t('events.duration'), minutes), field(t('events.berserk'), berserk), field(t('events.scoring'), scoring),
  field(t('events.tiebreaks'), tiebreaks), field(t('events.code'), code), field(t('events.rated'), rated),
  h('button', { type: 'submit' }, t('events.create')), said);
  return h('section', { class: 'card', 'aria-labelledby': 'event-create-title' },
    h('h2', { id: 'event-create-title' }, t('events.create')), form);
}

/** When the next round (an arena: the event) is paired by itself, if it
 *  is scheduled and not yet paired. */
function nextStart(ev) {
  if (!ev.next_start_ms || ev.state === 'finished') return '';
  const time = new Date(ev.next_start_ms).toLocaleString();
  return ev.system === 'arena' ? t('events.startsAt', { time })
    : t('events.nextRoundAt', { round: ev.current_round + 1, time });
}

/** While an event is running: the way to its round's live boards, all on
 *  one screen (pages/liveboards.js). */
function liveLink(ev) {
  if (ev.state !== 'running') return '';
  return h('p', {}, link(`/event/${encodeURIComponent(ev.id)}/live`, t('events.liveBoards'),
    { class: 'button', id: 'event-live-link' }));
}

async function eventPage(main, id, ctx) {
  const head = h('div', {});
  const actions = h('div', { class: 'row', id: 'event-actions' });
  const rounds = h('div', { id: 'event-rounds' });
  const standings = h('tbody', { id: 'event-standings' });
  const standingsHead = h('tr', {});
  const entries = h('ul', { class: 'plain', id: 'event-entries' });
  const said = h('p', { role: 'status' });
  // A knockout match waiting for its armageddon colour: the chooser's two
  // buttons, everyone else's "waiting for X".
  const armageddon = h('div', { id: 'armageddon-choice', role: 'status', hidden: true });
  const panel = h('section', { class: 'card', id: 'arbiter-panel', 'aria-labelledby': 'arbiter-title', hidden: true });
  const log = h('ol', { id: 'event-log', class: 'plain' });
  const teamsView = h('div', { id: 'event-teams-view' });
  const teamsForms = h('div', { id: 'event-teams-forms' });
  const teams = h('section', { class: 'card', id: 'event-teams', 'aria-labelledby': 'teams-title', hidden: true },
    teamsView, teamsForms);
  const chartTitle = h('h2', { id: 'chart-title' });
  const chartBody = h('div', {});
  const chart = h('section', { class: 'card', id: 'event-chart', 'aria-labelledby': 'chart-title', hidden: true },
    chartTitle, chartBody);
  main.append(head, actions, armageddon, said, teams,
    h('section', { class: 'card', 'aria-labelledby': 'standings-title' },
      h('h2', { id: 'standings-title' }, t('events.standings')),
      h('div', { class: 'table-scroll' }, h('table', {}, h('thead', {}, standingsHead), standings))),
    chart,
    h('section', { class: 'card', 'aria-labelledby': 'pairings-title' },
      h('h2', { id: 'pairings-title' }, t('events.pairings')), rounds),
    h('section', { class: 'card', 'aria-labelledby': 'entries-title' },
      h('h2', { id: 'entries-title' }, t('events.entries')), entries),
    panel,
    h('section', { class: 'card', 'aria-labelledby': 'log-title' },
      h('h2', { id: 'log-title' }, t('events.log')), log));

  const act = (label, f) => button(label, async () => {
    try {
      await f();
      fill(said);
      await draw();
    } catch (e) {
      fill(said, h('span', { class: 'error' }, errorText(e)));
    }
  });

  // The round whose boards are shown (null: the latest). A bracket needs
  // every round's boards; any other system reads the shown round's only,
  // once its system is known (a 1,000-player Swiss's rounds are 500
  // boards each).
  let shownRound = null;
  let system = null;
  const wholeBracket = (s) => s === 'knockout' || s === 'double-elimination' || s === 'groups-knockout';

  async function draw() {
    let ev;
    let st;
    const only = system && !wholeBracket(system) ? (shownRound ?? 'latest') : undefined;
    try {
      [ev, st] = await Promise.all([api.event(id, only), api.eventStandings(id)]);
      system = ev.system;
    } catch (e) {
      fill(head, h('h1', {}, t('events.title')), h('p', { class: 'error' }, errorText(e)));
      return;
    }
    const arena = ev.system === 'arena';
    const left = arena && ev.state === 'running' && ev.ends_ms
      ? Math.max(0, Math.round((ev.ends_ms - Date.now()) / 1000)) : null;
    fill(head, h('h1', {}, ev.name),
      h('p', { class: 'muted' }, [
        t(`events.system.${ev.system}`), ev.time_control, ev.rated ? t('events.rated') : t('events.casual'),
        t(`events.state.${ev.state}`),
        arena ? (left !== null ? t('events.endsIn', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` }) : '')
          // A double elimination's rounds are known at its end only.
          : `${t('events.round')} ${ev.current_round}${ev.system === 'double-elimination' && ev.state !== 'finished' ? '' : ` / ${ev.rounds || '—'}`}`,
        nextStart(ev),
        `${t('events.organiser')} ${shownName(ev.organiser)}`,
        (ev.arbiters || []).length ? `${t('events.arbiters')} ${ev.arbiters.map(shownName).join(', ')}` : '',
        ev.paused ? t('events.eventPaused') : '',
        ev.published_ms ? t('events.published') : '',
      ].filter(Boolean).join(' · ')),
      ev.my_game ? h('p', { id: 'my-game' }, link(`/game/${encodeURIComponent(ev.my_game)}`, t('events.yourGame'),
        { class: 'button' })) : '',
      liveLink(ev),
      h('p', {}, h('a', { href: `/api/events/${encodeURIComponent(id)}/trf` }, 'TRF'), ' · ',
        h('a', { href: `/api/events/${encodeURIComponent(id)}/pgn` }, 'PGN')));
    const buttons = [];
    const mine = ctx.account && ev.entries.find((e) => e.name === ctx.account.name);
    if (ctx.account && arena && ev.state === 'running' && !ev.entered) {
      buttons.push(act(mine ? t('events.rejoin') : t('events.join'), () => api.joinEvent(id, {})));
    }
    if (arena && ev.my_game && ev.arena.berserk) {
      buttons.push(act(t('events.berserkNow'), () => api.berserk(ev.my_game)));
    }
    const team = isTeam(ev.system);
    if (ctx.account && ev.state === 'open' && !ev.entered && !team) {
      buttons.push(act(t('events.join'), () => {
        const code = ev.invitation_required ? window.prompt(t('events.code')) : null;
        return api.joinEvent(id, code ? { code } : {});
      }));
    }
    if (ctx.account && ev.entered && ev.state !== 'finished') {
      buttons.push(act(arena && ev.state === 'running' ? t('events.pause') : t('events.withdraw'),
        () => api.withdrawEvent(id)));
    }
    if (ev.arbiter && (ev.state === 'open' || (!arena && ev.state !== 'finished'))) {
      buttons.push(act(arena ? t('events.startArena') : t('events.pair'), () => api.pairEvent(id)));
    }
    fill(actions, buttons);
    await drawArmageddon(ev);
    drawPanel(ev);
    teams.hidden = !team;
    if (team) drawTeams(teamsView, teamsForms, ev, ctx, act);
    api.eventLog(id, 30).then((lines) => fill(log, lines.slice().reverse().map((l) => h('li', {},
      h('span', { class: 'muted' }, `${new Date(l.at_ms).toLocaleTimeString()} · ${shownName(l.by)} · `),
      `${l.action}: ${l.detail}`)))).catch(() => {});
    if (arena) {
      chart.hidden = true;
      drawArena(ev, st);
      return;
    }
    drawChart(ev, st, team);
    const number = (p) => (p ? `${p.number}. ${shownName(p.name)}` : t('events.bye'));
    // One round's boards at a time, chosen by its button.
    const last = ev.rounds_paired.length;
    const shown = ev.rounds_paired[(shownRound && shownRound <= last ? shownRound : last) - 1];
    const choose = h('div', { class: 'row', id: 'round-choice', role: 'group', 'aria-label': t('events.round') },
      ev.rounds_paired.map((r) => h('button', {
        type: 'button',
        'aria-pressed': String(r === shown),
        onclick: () => { shownRound = r.round === last ? null : r.round; draw(); },
      }, `${r.round}${r.complete ? '' : ' …'}`)));
    fill(rounds, last > 1 ? choose : '', (shown ? [shown] : []).map((r) => h('div', { id: 'round-shown' },
      h('h3', {}, `${t('events.round')} ${r.round}${r.complete ? '' : ` · ${t('events.playing')}`}`),
      h('div', { class: 'table-scroll' }, h('table', { class: 'summary-table' }, h('tbody', {},
        r.boards.map((b) => h('tr', {},
          h('td', {}, String(b.board)),
          h('td', {}, number(b.white)),
          h('td', {}, b.game
            ? link(`/game/${encodeURIComponent(b.game)}`, b.result || t('events.watch'))
            : (b.result === 'bye' ? '' : (b.result || ''))),
          h('td', {}, b.black ? number(b.black) : t('events.bye')),
          h('td', {}, b.forfeit ? t('events.forfeit') : ''),
          // A knockout match's games: the play-off and armageddon too.
          h('td', {}, (b.games || []).length > 1
            ? b.games.map((g) => [link(`/game/${encodeURIComponent(g.game)}`,
              `${t(`events.phase.${g.phase}`)} ${g.result || '…'}`), ' '])
            : '')))))))));
    // A double elimination: each player's losses and the round they went
    // out in (the place follows from it).
    const elimination = ev.system === 'double-elimination';
    // Penalties (18.4) get a column once anyone has one.
    const penalised = st.rows.some((r) => r.warnings || r.disqualifications);
    fill(standingsHead, ...['#', t('players.name'), t('events.points'),
      ...(elimination ? [t('events.losses'), t('events.outIn')] : []),
      ...(penalised ? [t('teams.penalties')] : []), ...st.tiebreaks]
      .map((k) => h('th', { scope: 'col' }, k)));
    const out = (e) => (e.champion ? t('events.champion')
      : e.out_in_round ? t('events.outInRound', { n: e.out_in_round }) : t('events.stillIn'));
    fill(standings, st.rows.map((r) => h('tr', {},
      h('td', {}, `${r.rank}${r.shared ? '=' : ''}`),
      h('td', {}, `${r.number}. ${shownName(r.name)}`),
      h('td', {}, r.points),
      ...(r.elimination ? [h('td', { class: 'losses' }, String(r.elimination.losses)),
        h('td', { class: 'out' }, out(r.elimination))] : []),
      ...(penalised ? [h('td', { class: 'penalty-cell' }, penaltiesCell(r, 'events.penaltiesHelp'))] : []),
      ...r.tiebreaks.map((v) => h('td', {}, v ?? '')))));
    fill(entries, ev.entries.map((e) => h('li', {},
      `${e.number}. `, link(`/@/${encodeURIComponent(e.name)}`, shownName(e.name)),
      h('span', { class: 'muted' }, ` · ${e.rating}${e.late ? ` · ${t('events.late')}` : ''}${e.withdrawn ? ` · ${t('events.withdrawn')}` : ''}`))));
  }
  // The crosstable (Swiss, round robins) or the bracket (knockout); a
  // team event has its own tables.
  async function drawChart(ev, st, team) {
    if (team || !ev.rounds_paired.length) {
      chart.hidden = true;
      return;
    }
    if (ev.system === 'knockout') {
      fill(chartTitle, t('events.bracket'));
      fill(chartBody, bracket(ev));
    } else {
      let ct;
      try {
        ct = await api.eventCrosstable(id);
      } catch {
        return; // the next look in 5 s tries again
      }
      // A staged event cuts its groups and final out of the crosstable.
      fill(chartTitle, t(ev.stages ? 'events.system.groups-knockout' : 'events.crosstable'));
      fill(chartBody, ev.stages ? stages(ev, ct) : crosstable(ct, st, ev.rounds));
    }
    chart.hidden = false;
  }

  // An arena: its latest games, and each player's sheet (points in
  // order, the flame of a streak, berserk wins marked).
  function drawArena(ev, st) {
    const name = (p) => `${p.number}. ${shownName(p.name)}`;
    fill(rounds, h('h3', {}, t('events.arenaGames')), h('div', { class: 'table-scroll' },
      h('table', { class: 'summary-table', id: 'arena-games' }, h('tbody', {},
        ev.arena.games.slice(-40).reverse().map((g) => h('tr', {},
          h('td', {}, String(g.seq)),
          h('td', {}, name(g.white), g.white_berserk ? ' ⚡' : ''),
          h('td', {}, link(`/game/${encodeURIComponent(g.game)}`, g.result || t('events.watch'))),
          h('td', {}, name(g.black), g.black_berserk ? ' ⚡' : '')))))));
    fill(standingsHead, ...['#', t('players.name'), t('events.points'), t('events.performance'), t('events.sheet'), '']
      .map((k) => h('th', { scope: 'col' }, k)));
    fill(standings, st.rows.map((r) => h('tr', { class: r.arena.fire ? 'on-fire' : '' },
      h('td', {}, `${r.rank}${r.shared ? '=' : ''}`),
      h('td', {}, `${r.number}. ${shownName(r.name)}`, r.arena.fire ? h('span', { title: t('events.fire') }, ' 🔥') : ''),
      h('td', {}, h('strong', {}, r.points)),
      h('td', { title: t('events.performanceHint') }, r.tiebreaks[0] ?? ''),
      h('td', { class: 'sheet' }, r.arena.scores.map((s) => h('span', {
        class: `score ${s.result}${s.double ? ' double' : ''}`,
        title: s.berserk ? t('events.berserkMark')
          : s.short_draw ? t('events.shortDraw') : s.draw_streak ? t('events.drawStreak') : '',
      }, `${s.points}${s.berserk ? '⚡' : ''} `))),
      h('td', {}, r.arena.paused ? t('events.paused')
        : (r.arena.playing ? link(`/game/${encodeURIComponent(r.arena.playing)}`, t('events.playing')) : '')))));
    fill(entries, ev.entries.map((e) => h('li', {},
      `${e.number}. `, link(`/@/${encodeURIComponent(e.name)}`, shownName(e.name)),
      h('span', { class: 'muted' }, ` · ${e.rating}${e.withdrawn ? ` · ${t('events.paused')}` : ''}`))));
  }

  // The arbiter's panel: the event (pause, re-pair, publish), a result set
  // or corrected, a player withdrawn, re-admitted or added late.
  function drawPanel(ev) {
    if (!ev.arbiter) {
      panel.hidden = true;
      return;
    }
    if (panel.dataset.drawn) return; // the forms keep what is typed in them
    panel.dataset.drawn = '1';
    panel.hidden = false;
    const tool = (action) => act(t(`events.${{ pause: 'pauseEvent', resume: 'resumeEvent', repair: 'repair', publish: 'publish' }[action]}`),
      () => api.eventArbiter(id, { action }));
    const field = (label, input) => h('label', { class: 'row' }, h('span', {}, label), input);
    const round = h('input', { id: 'result-round', type: 'number', min: 1, value: Math.max(1, ev.current_round) });
    const board = h('input', { id: 'result-board', type: 'number', min: 1, value: 1 });
    const result = h('select', { id: 'result-value' },
      ['1-0', '0-1', '1/2-1/2', '+-', '-+', '--'].map((r) => h('option', { value: r }, r)));
    const reason = h('input', { id: 'result-reason', maxlength: 200 });
    const player = h('input', { id: 'player-name', maxlength: 40 });
    const playerAction = h('select', { id: 'player-action' },
      ['withdraw', 'readmit', 'late_entry', 'name_arbiter', 'remove_arbiter'].map((a) => h('option', { value: a }, t(`events.action.${a}`))));
    // A foul (9.1) or a penalty (18.1 warning, 18.2 disqualification from
    // the round's game): the penalised rank last among equal scores (18.4).
    const rulingRound = h('input', { id: 'ruling-player-round', type: 'number', min: 1, value: Math.max(1, ev.current_round) });
    const rulingPlayer = h('input', { id: 'ruling-player', maxlength: 40 });
    const rulingKind = h('select', { id: 'ruling-kind' },
      ['foul', 'warning', 'disqualification'].map((k) => h('option', { value: k }, t(`events.ruling.${k}`))));
    const rulingReason = h('input', { id: 'ruling-player-reason', maxlength: 200 });
    fill(panel, h('h2', { id: 'arbiter-title' }, t('events.arbiterPanel')),
      h('div', { class: 'row' }, ['pause', 'resume', ...(ev.system === 'arena' ? [] : ['repair']), 'publish'].map(tool)),
      ev.system === 'arena' ? '' : h('form', {
        id: 'result-form',
        onsubmit: (e) => e.preventDefault(),
      }, h('h3', {}, t('events.setResult')), field(t('events.round'), round), field(t('events.board'), board),
      field(t('events.result'), result), field(t('events.reason'), reason),
      act(t('events.apply'), () => api.eventResult(id, {
        round: Number(round.value), board: Number(board.value), result: result.value, reason: reason.value,
      }))),
      ev.system === 'arena' ? '' : h('form', { id: 'ruling-form', onsubmit: (e) => e.preventDefault() },
        h('h3', {}, t('events.ruling')), h('p', { class: 'muted' }, t('events.rulingHelp')),
        field(t('events.round'), rulingRound), field(t('players.name'), rulingPlayer),
        field(t('events.rulingKind'), rulingKind), field(t('events.reason'), rulingReason),
        act(t('events.apply'), () => api.eventFoul(id, {
          round: Number(rulingRound.value), player: rulingPlayer.value.trim(), kind: rulingKind.value, reason: rulingReason.value.trim(),
        }))),
      h('form', { id: 'player-form', onsubmit: (e) => e.preventDefault() },
        h('h3', {}, t('events.playerAction')), field(t('players.name'), player), field(t('events.action'), playerAction),
        act(t('events.apply'), () => api.eventPlayer(id, { action: playerAction.value, player: player.value.trim() }))));
  }

  // Seed 001: the player who had no choice at the lot chooses the
  // armageddon colour (a draw is black's win); when the wait runs out the
  // server chooses black for them. The seconds left count down here.
  async function drawArmageddon(ev) {
    const mine = ev.my_armageddon_choice;
    const round = ev.rounds_paired[ev.current_round - 1];
    const waiting = ((round && round.boards) || [])
      .filter((b) => !b.result && b.armageddon_choice && !b.armageddon_choice.side);
    armageddon.hidden = !mine && !waiting.length;
    if (armageddon.hidden) {
      fill(armageddon);
      return;
    }
    const variants = await loadVariants().catch(() => []);
    const [first, second] = sideKeys(findVariant(variants, ev.variant));
    const left = (until) => h('span', { class: 'armageddon-left', 'data-until': String(until) }, secondsLeft(until));
    if (mine) {
      fill(armageddon, h('section', { class: 'card', 'aria-labelledby': 'armageddon-title' },
        h('h2', { id: 'armageddon-title' }, t('events.armageddonChoose')),
        h('p', {}, t('events.armageddonWhy', { black: t(`side.${second}`) }), ' ',
          t('events.armageddonLeft', { s: '' }), left(mine.until_ms)),
        h('div', { class: 'row' },
          act(t('events.armageddonTake', { side: t(`side.${first}`) }), () => api.chooseArmageddon(id, 'first')),
          act(t('events.armageddonTake', { side: t(`side.${second}`) }), () => api.chooseArmageddon(id, 'second')))));
      armageddon.querySelectorAll('button').forEach((b, i) => b.classList.add(i ? 'armageddon-second' : 'armageddon-first'));
      return;
    }
    fill(armageddon, waiting.map((b) => h('p', { class: 'armageddon-waiting' },
      t('events.armageddonWaiting', { board: b.board, name: shownName(b.armageddon_choice.chooser.name) }), ' ',
      t('events.armageddonLeft', { s: '' }), left(b.armageddon_choice.until_ms))));
  }

  await draw();
  // Results come in as games end: look again every 5 s; the armageddon
  // choice's seconds count down each second.
  const timer = setInterval(draw, 5000);
  const countdown = setInterval(() => {
    armageddon.querySelectorAll('.armageddon-left').forEach((e) => {
      e.textContent = secondsLeft(Number(e.dataset.until));
    });
  }, 1000);
  return () => {
    clearInterval(timer);
    clearInterval(countdown);
  };
}

/** The seconds left until `until` (ms since the epoch), as `12 s`. */
function secondsLeft(until) {
  return `${Math.max(0, Math.ceil((until - Date.now()) / 1000))} s`;
}
