// A team event's part of the event page (docs/EVENTS.md, seed 000
// articles 12–15): the team standings (match points and the tie-breaks of
// 15.3 or, in a team Swiss, 15.4), every round's matches with their boards — the first-listed team's
// player on the left, red marked — the rosters in board order with the
// substitutes, the fouls recorded, and the forms a captain uses:
// registering a team before the start, handing in a line-up before a
// round is paired, and withdrawing the team before round 1 (20.2, asked
// again before it is sent); the arbiter's: a foul, a whole team's
// forfeit, a team withdrawn or re-admitted whole (20.x). The standings
// show each team's penalties (18.4: its players' warnings and
// disqualifications, which put it last among equal match points). With `ranking: places` (15.5 队员总分制) the
// standings lead with each team's sum of places; all-play-all matches
// (12.4) show each round as a part of the table's round.

import { api } from '../api.js';
import { button, fill, h } from '../dom.js';
import { errorText, shownName, t } from '../i18n.js';

const link = (href, text) => h('a', { href, 'data-link': '' }, text);

// A team's or a player's penalties (18.1 warnings, 18.2
// disqualifications from a game; a team's are its players' together):
// 18.4 puts the penalised last among equal scores, so the standings say
// why they are there.
export function penaltiesCell(r, help = 'teams.penaltiesHelp') {
  const parts = [];
  if (r.disqualifications) parts.push(t('teams.penalty.disqualifications', { n: r.disqualifications }));
  if (r.warnings) parts.push(t('teams.penalty.warnings', { n: r.warnings }));
  return parts.length ? h('span', { class: 'penalties', title: t(help) }, parts.join(' · ')) : '0';
}

// Draws the team view into `section` from the event `ev` (again at each
// refresh) and the captain's forms into `forms` (once per state, so that
// what is typed in them stays); `act` makes a button that runs an action
// and redraws the page.
export async function drawTeams(section, forms, ev, ctx, act) {
  let tv;
  try {
    tv = await api.eventTeams(ev.id);
  } catch (e) {
    fill(section, h('p', { class: 'error' }, errorText(e)));
    return;
  }
  const teamName = (n) => (tv.teams.find((x) => x.number === n) || {}).name || String(n);
  // 团体对手分 is a Swiss's (15.4), 全队胜局 a round robin's (15.3).
  const swiss = ev.system === 'team-swiss';
  const byPlaces = tv.ranking === 'places';
  const teamCell = (r) => `${r.team}. ${r.name}${r.annulled ? ` · ${t('teams.annulled')}`
    : r.withdrawn ? ` · ${t('teams.withdrawn')}` : ''}`;
  const columns = [
    ['#', (r) => `${r.rank}${r.shared ? '=' : ''}`],
    [t('teams.team'), teamCell],
    ...(byPlaces ? [[t('teams.placeSum'), (r) => h('strong', { title: (r.places || []).join(' + ') },
      r.place_sum === null || r.place_sum === undefined ? '' : String(r.place_sum))]] : []),
    [t('teams.mp'), (r) => (byPlaces ? String(r.match_points) : h('strong', {}, String(r.match_points)))],
    ...(swiss ? [[t('teams.omp'), (r) => String(r.opponent_match_points)]] : []),
    [t('teams.bp'), (r) => r.board_points],
    swiss ? [t('teams.mw'), (r) => String(r.matches_won)] : [t('teams.wins'), (r) => String(r.board_wins)],
    [t('teams.fouls'), (r) => String(r.fouls)],
    [t('teams.penalties'), penaltiesCell],
    [t('teams.played'), (r) => String(r.played)],
  ];
  const standings = h('div', { class: 'table-scroll' }, h('table', { id: 'team-standings' },
    h('thead', {}, h('tr', {}, ...columns.map(([k]) => h('th', { scope: 'col' }, k)))),
    h('tbody', {}, tv.standings.map((r) => h('tr', {}, ...columns.map(([, cell]) => h('td', {}, cell(r))))))));
  const fouls = tv.fouls.length ? [h('h2', {}, t('teams.foulsTitle')),
    h('div', { class: 'table-scroll' }, h('table', { id: 'team-fouls', class: 'summary-table' }, h('tbody', {},
      tv.fouls.map((f) => h('tr', {},
        h('td', {}, `${t('events.round')} ${f.round}`),
        h('td', {}, shownName(f.player)),
        h('td', {}, t(`events.ruling.${f.kind}`)),
        h('td', {}, f.reason))))))] : [];
  const side = (b) => (b.first_team_side === 'first' ? '●' : '○');
  const matches = tv.rounds.slice().reverse().map((r) => h('div', { class: 'team-round' },
    h('h3', {}, `${t('events.round')} ${r.round}`,
      r.part ? h('span', { class: 'muted' }, ` · ${t('teams.part', { round: r.team_round, part: r.part })}`) : '',
      r.sits_out ? h('span', { class: 'muted' },
        ` · ${teamName(r.sits_out)} ${t(swiss ? 'teams.bye' : 'teams.sitsOut')}`) : ''),
    r.matches.map((m) => h('div', { class: 'team-match' },
      h('h4', {}, `${m.first_name} ${m.first_board_points} : ${m.second_board_points} ${m.second_name}`,
        m.first_match_points === null || m.first_match_points === undefined ? ''
          : h('span', { class: 'muted' }, ` · ${t('teams.mp')} ${m.first_match_points} : ${m.second_match_points}`)),
      h('div', { class: 'table-scroll' }, h('table', { class: 'summary-table' }, h('tbody', {},
        m.boards.map((b) => h('tr', {},
          h('td', {}, `${t('teams.board')} ${b.board}`),
          h('td', { title: b.first_team_side === 'first' ? ev.sides?.[0] || '' : '' },
            `${side(b)} ${shownName(b.first_player.name)}`),
          h('td', {}, b.game ? link(`/game/${encodeURIComponent(b.game)}`, b.result || t('events.watch'))
            : (b.result || '')),
          h('td', {}, shownName(b.second_player.name)))))))))));
  const rosters = h('div', { class: 'team-rosters' }, tv.teams.map((team) => h('div', { class: 'team-roster' },
    h('h3', {}, `${team.number}. ${team.name}`,
      h('span', { class: 'muted' }, ` · ${t('teams.captain')} ${shownName(team.captain)}`)),
    h('ol', {}, team.roster.map((p) => h('li', {},
      link(`/@/${encodeURIComponent(p.name)}`, shownName(p.name)),
      h('span', { class: 'muted' }, ` · ${p.rating}${p.substitute ? ` · ${t('teams.substitute')}` : ''}`)))))));
  fill(section, h('h2', { id: 'teams-title' }, t('teams.standings'),
    byPlaces ? h('span', { class: 'muted' }, ` · ${t('teams.byPlaces')}`) : '',
    tv.team_match === 'all-play-all' ? h('span', { class: 'muted' }, ` · ${t('teams.allPlayAll')}`) : ''),
  standings,
    ...fouls, h('h2', {}, t('teams.matches')), ...matches,
    h('h2', {}, t('teams.rosters')), rosters);
  const me = ctx.account && !ctx.account.guest ? ctx.account.name : null;
  const myTeam = me && tv.teams.find((x) => x.captain === me);
  const key = `${ev.state}:${ev.current_round}:${myTeam ? myTeam.number : ''}`;
  if (forms.dataset.drawn === key) return;
  forms.dataset.drawn = key;
  const said = h('p', { role: 'status' });
  const shown = [];
  if (me && ev.state === 'open' && !myTeam) shown.push(registerForm(ev, act));
  if (myTeam && ev.state !== 'finished' && tv.team_match !== 'all-play-all') shown.push(lineupForm(ev, tv, myTeam, said));
  if (myTeam && ev.state === 'open') shown.push(withdrawOwnForm(ev, myTeam, said, act));
  if (ev.arbiter && ev.current_round > 0) shown.push(rulingsForm(ev, tv, act));
  fill(forms, ...shown, said);
}

function registerForm(ev, act) {
  const name = h('input', { id: 'team-name', maxlength: 40 });
  const players = h('textarea', { id: 'team-players', rows: 6 });
  const code = h('input', { id: 'team-code', maxlength: 40 });
  return h('form', { id: 'team-register', onsubmit: (e) => e.preventDefault() },
    h('h3', {}, t('teams.register')),
    h('label', { class: 'row' }, h('span', {}, t('teams.name')), name),
    h('label', { class: 'row' }, h('span', {}, t('teams.players')), players),
    ev.invitation_required ? h('label', { class: 'row' }, h('span', {}, t('events.code')), code) : '',
    act(t('teams.register'), () => api.registerTeam(ev.id, {
      name: name.value.trim(),
      players: players.value.split('\n').map((x) => x.trim()).filter(Boolean),
      ...(ev.invitation_required ? { code: code.value.trim() } : {}),
    })));
}

// 12.2: a line-up is any `boards` players of the roster in roster order,
// so ticking them in the roster's order is all a captain does; 12.3 (an
// event's `lineups: any-order`): the captain picks a player per board.
function lineupForm(ev, tv, team, said) {
  const next = ev.current_round + 1;
  const last = ev.rounds || Math.max(1, tv.teams.length - (tv.teams.length % 2 === 0 ? 1 : 0));
  const round = h('input', { id: 'lineup-round', type: 'number', min: next, max: Math.max(next, last), value: next });
  const anyOrder = tv.lineups === 'any-order';
  const boxes = team.roster.map((p) => h('input', {
    type: 'checkbox', value: p.name, checked: !p.substitute, 'data-position': p.position,
  }));
  const perBoard = Array.from({ length: tv.boards }, (_, i) => h('select', { 'data-board': i + 1 },
    team.roster.map((p) => h('option', { value: p.name, selected: p.position === i + 1 }, shownName(p.name)))));
  const chosen = () => (anyOrder ? perBoard.map((s) => s.value) : boxes.filter((b) => b.checked).map((b) => b.value));
  return h('form', {
    id: 'team-lineup',
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        const r = await api.eventLineup(ev.id, {
          round: Number(round.value),
          players: chosen(),
        });
        fill(said, t('teams.lineupSent', { round: r.round }));
      } catch (err) {
        fill(said, h('span', { class: 'error' }, errorText(err)));
      }
    },
  },
  h('h3', {}, `${t('teams.lineup')} · ${team.name}`),
  h('p', { class: 'muted' }, t(anyOrder ? 'teams.lineupAnyHelp' : 'teams.lineupHelp')),
  h('label', { class: 'row' }, h('span', {}, t('teams.lineupRound')), round),
  anyOrder
    ? h('div', {}, perBoard.map((s, i) => h('label', { class: 'row' }, h('span', {}, `${t('teams.board')} ${i + 1}`), s)))
    : h('ol', { class: 'plain' }, team.roster.map((p, i) => h('li', {}, h('label', {}, boxes[i],
      ` ${p.position}. ${shownName(p.name)}${p.substitute ? ` (${t('teams.substitute')})` : ''}`)))),
  h('button', { type: 'submit' }, t('teams.lineupSend')));
}

// Before round 1 a captain may withdraw the team (20.2: it leaves the
// draw, its entries removed, the teams after it one number up). That
// cannot be undone, so the button asks again before anything is sent; a
// refusal (the event started meanwhile: 20.1 makes it the arbiter's) is
// shown beside it and in the page's status line.
function withdrawOwnForm(ev, team, said, act) {
  const box = h('div', { class: 'actions' });
  const idle = () => fill(box, button(t('teams.withdrawOwn'), ask, { id: 'team-withdraw-own' }));
  const ask = () => {
    fill(box, h('p', { id: 'team-withdraw-ask' }, h('strong', {}, t('teams.withdrawOwnAsk', { name: team.name }))),
      act(t('teams.withdrawOwnYes'), async () => {
        try {
          await api.eventTeamWithdraw(ev.id, { team: team.number, reason: '' });
          fill(said);
        } catch (err) {
          // Beside the button, and (rethrown) in the page's status line,
          // which stays when the next refresh redraws these forms.
          fill(said, h('span', { class: 'error' }, errorText(err)));
          idle();
          throw err;
        }
      }),
      button(t('lobby.cancel'), () => {
        fill(said);
        idle();
      }, { id: 'team-withdraw-cancel' }));
    document.querySelector('#team-withdraw-cancel')?.focus();
  };
  idle();
  return h('div', { id: 'team-withdraw' }, h('h3', {}, `${t('teams.withdrawOwn')} · ${team.name}`),
    h('p', { class: 'muted' }, t('teams.withdrawOwnHelp')), box);
}

// The arbiter's rulings on a paired round: a foul (犯规, 9.2) against a
// player, a whole team's forfeit of its match (21.4), a team withdrawn
// or re-admitted whole (20.x: re-admitted, it is paired again from the
// next round on; what it missed stays as it was).
function rulingsForm(ev, tv, act) {
  const round = h('input', { id: 'ruling-round', type: 'number', min: 1, max: ev.current_round, value: ev.current_round });
  const player = h('select', { id: 'foul-player' }, tv.teams.flatMap((team) => team.roster.map((p) =>
    h('option', { value: p.name }, `${team.name} · ${shownName(p.name)}`))));
  const reason = h('input', { id: 'ruling-reason', maxlength: 200 });
  const team = h('select', { id: 'forfeit-team' },
    tv.teams.map((x) => h('option', { value: x.number }, `${x.number}. ${x.name}`)));
  const body = (extra) => ({ round: Number(round.value), reason: reason.value.trim(), ...extra });
  return h('form', { id: 'team-rulings', onsubmit: (e) => e.preventDefault() },
    h('h3', {}, t('teams.rulings')),
    h('label', { class: 'row' }, h('span', {}, t('teams.lineupRound')), round),
    h('label', { class: 'row' }, h('span', {}, t('teams.reason')), reason),
    h('label', { class: 'row' }, h('span', {}, t('teams.foulPlayer')), player),
    act(t('teams.foulRecord'), () => api.eventFoul(ev.id, body({ player: player.value }))),
    h('label', { class: 'row' }, h('span', {}, t('teams.team')), team),
    h('div', { class: 'actions' },
      act(t('teams.forfeit'), () => api.eventTeamForfeit(ev.id, body({ team: Number(team.value) }))),
      act(t('teams.withdraw'), () => api.eventTeamWithdraw(ev.id,
        { team: Number(team.value), reason: reason.value.trim() })),
      act(t('teams.readmit'), () => api.eventTeamReadmit(ev.id,
        { team: Number(team.value), reason: reason.value.trim() }))));
}
