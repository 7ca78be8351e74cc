// Events (issue 28, docs/EVENTS.md): the list of upcoming, running and
// finished events with a form to create one, and an event's page — its
// entries, the pairings of each round (each game a link to watch), the
// standings with tie-breaks, joining and withdrawing, and for the arbiter
// the button that pairs the next round. The arbiter's other tools
// (results, players) are the API's for now.

import { api } from '../api.js';
import { button, fill, h } from '../dom.js';
import { errorText, shownName, t } from '../i18n.js';
import { loadVariants, variantLabel } from '../variants.js';

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
          h('td', {}, e.current_round ? `${e.current_round} / ${e.rounds}` : String(e.rounds || '—')),
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

function createForm(variants, ctx) {
  const field = (label, input) => h('label', { class: 'row' }, h('span', {}, label), input);
  const nameInput = h('input', { id: 'event-name', maxlength: 80, required: true });
  const variant = h('select', { id: 'event-variant' },
    variants.map((v) => h('option', { value: v.id }, variantLabel(variants, v))));
  const clock = h('input', { id: 'event-clock', value: '10+5', maxlength: 20 });
  const system = h('select', { id: 'event-system' },
    ['swiss', 'round-robin', 'double-round-robin', 'knockout'].map((s) => h('option', { value: s }, t(`events.system.${s}`))));
  const rounds = h('input', { id: 'event-rounds', type: 'number', min: 1, max: 30, value: 5 });
  const scoring = h('select', { id: 'event-scoring' },
    ['1-0.5-0', '2-1-0', '3-1-0'].map((s) => h('option', { value: s }, s)));
  const tiebreaks = h('select', { id: 'event-tiebreaks' },
    ['fide', 'cxa'].map((s) => h('option', { value: s }, s.toUpperCase())));
  const code = h('input', { id: 'event-code', maxlength: 40 });
  const rated = h('input', { id: 'event-rated', type: 'checkbox' });
  const said = h('p', { role: 'status' });
  const sync = () => { rounds.disabled = system.value !== 'swiss'; };
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
      if (system.value === 'swiss') body.rounds = Number(rounds.value);
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
  field(t('events.systemTitle'), system), field(t('events.rounds'), rounds), field(t('events.scoring'), scoring),
  field(t('events.tiebreaks'), tiebreaks), field(t('events.code'), code), field(t('events.rated'), rated),
  h('button', { type: 'submit' }, t('events.create')), said);
  return h('section', { class: 'card', 'aria-labelledby': 'event-create-title' },
    h('h2', { id: 'event-create-title' }, t('events.create')), form);
}

async function eventPage(main, id, ctx) {
  const head = h('div', {});
  const actions = h('div', { class: 'row', id: 'event-actions' });
  const rounds = h('div', { id: 'event-rounds' });
  const standings = h('tbody', { id: 'event-standings' });
  const standingsHead = h('tr', {});
  const entries = h('ul', { class: 'plain', id: 'event-entries' });
  const said = h('p', { role: 'status' });
  main.append(head, actions, said,
    h('section', { class: 'card', 'aria-labelledby': 'standings-title' },
      h('h2', { id: 'standings-title' }, t('events.standings')),
      h('div', { class: 'table-scroll' }, h('table', {}, h('thead', {}, standingsHead), standings))),
    h('section', { class: 'card', 'aria-labelledby': 'pairings-title' },
      h('h2', { id: 'pairings-title' }, t('events.pairings')), rounds),
    h('section', { class: 'card', 'aria-labelledby': 'entries-title' },
      h('h2', { id: 'entries-title' }, t('events.entries')), entries));

  const act = (label, f) => button(label, async () => {
    try {
      await f();
      fill(said);
      await draw();
    } catch (e) {
      fill(said, h('span', { class: 'error' }, errorText(e)));
    }
  });

  async function draw() {
    let ev;
    let st;
    try {
      [ev, st] = await Promise.all([api.event(id), api.eventStandings(id)]);
    } catch (e) {
      fill(head, h('h1', {}, t('events.title')), h('p', { class: 'error' }, errorText(e)));
      return;
    }
    fill(head, h('h1', {}, ev.name),
      h('p', { class: 'muted' }, [
        t(`events.system.${ev.system}`), ev.time_control, ev.rated ? t('events.rated') : t('events.casual'),
        t(`events.state.${ev.state}`), `${t('events.round')} ${ev.current_round} / ${ev.rounds || '—'}`,
        `${t('events.organiser')} ${shownName(ev.organiser)}`,
      ].join(' · ')),
      h('p', {}, h('a', { href: `/api/events/${encodeURIComponent(id)}/trf` }, 'TRF'), ' · ',
        h('a', { href: `/api/events/${encodeURIComponent(id)}/pgn` }, 'PGN')));
    const buttons = [];
    if (ctx.account && ev.state === 'open' && !ev.entered) {
      buttons.push(act(t('events.join'), () => {
        const code = ev.invitation_required ? window.prompt(t('events.code')) : null;
        return api.joinEvent(id, code ? { code } : {});
      }));
    }
    if (ctx.account && ev.entered && ev.state !== 'finished') {
      buttons.push(act(t('events.withdraw'), () => api.withdrawEvent(id)));
    }
    if (ev.arbiter && ev.state !== 'finished') {
      buttons.push(act(t('events.pair'), () => api.pairEvent(id)));
    }
    fill(actions, buttons);
    const number = (p) => (p ? `${p.number}. ${shownName(p.name)}` : t('events.bye'));
    fill(rounds, ev.rounds_paired.slice().reverse().map((r) => h('div', {},
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
    fill(standingsHead, ...['#', t('players.name'), t('events.points'), ...st.tiebreaks]
      .map((k) => h('th', { scope: 'col' }, k)));
    fill(standings, st.rows.map((r) => h('tr', {},
      h('td', {}, `${r.rank}${r.shared ? '=' : ''}`),
      h('td', {}, `${r.number}. ${shownName(r.name)}`),
      h('td', {}, r.points),
      ...r.tiebreaks.map((v) => h('td', {}, v ?? '')))));
    fill(entries, ev.entries.map((e) => h('li', {},
      `${e.number}. `, link(`/@/${encodeURIComponent(e.name)}`, shownName(e.name)),
      h('span', { class: 'muted' }, ` · ${e.rating}${e.late ? ` · ${t('events.late')}` : ''}${e.withdrawn ? ` · ${t('events.withdrawn')}` : ''}`))));
  }
  await draw();
  // Results come in as games end: look again every 5 s.
  const timer = setInterval(draw, 5000);
  return () => clearInterval(timer);
}
