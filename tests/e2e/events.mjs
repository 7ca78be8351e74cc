// Issue 28, events: an organiser creates an event in the page, two players
// join it with the page's button, the organiser pairs the round with the
// arbiter's button, the players' game opens for them by itself, the game
// is played, the standings move, and the
// arbiter's correction in the arbiter's panel moves them again; then an
// arena: created in the page, joined, started, a player's game and the
// berserk button on the event page, the sheets with their marks; and
// every form of the arbiter's panel on a Swiss of three rounds (re-pair
// before the first move, pause and resume, withdraw, late entry,
// re-admit, publish), each checked on the page, and the round's live
// boards (pages/liveboards.js) following the players' moves and results
// on a desktop and a phone — in a real headless Chromium
// (Debian's) driven by playwright-core against a running `qiju serve`:
//
//   node tests/e2e/events.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs after casual.mjs. Environment as
// for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS). Screenshots: the event
// list, the event page, the arbiter's panel, a round chosen, the arena, a staged event
// (groups → knockout → final) and the live boards, desktop
// (English) and phone (Chinese).

import assert from 'node:assert/strict';
import { call, checkLabels, setUp, PHONE } from './harness.mjs';

const { base, step, person, register, shot, finish, expected } = await setUp('events.mjs', {
  emulatePhones: true,
  keepGoing: process.env.QIJU_E2E_KEEP_GOING === '1',
});

const stamp = Date.now().toString(36).slice(-5);
const eventName = `Open ${stamp}`;
let eventId = null;
let game = null;
/** Who won round 1 of the Swiss once the arbiter corrected it. */
let winnerName = null;

/** The standings' points of `name`, as the page shows them. */
async function pointsOf(page, name) {
  return page.$$eval('#event-standings tr', (rows, n) => {
    const row = rows.find((r) => r.children[1]?.textContent.endsWith(n));
    return row ? row.children[2].textContent : null;
  }, name);
}

try {
  const A = await person('A organiser (en, desktop)', 'en-US');
  const B = await person('B (zh, phone)', 'zh-CN', PHONE);
  const C = await person('C (en, desktop)', 'en-US');
  const nameB = `evb${stamp}`;
  const nameC = `evc${stamp}`;
  let D = null;
  const nameD = `evd${stamp}`;

  await step('three people register', async () => {
    await register(A, `eva${stamp}`);
    await register(B, nameB);
    await register(C, nameC);
  });

  await step('the organiser creates a Swiss in the events page', async () => {
    await A.page.goto(`${base}/events`);
    await A.page.waitForSelector('#event-create');
    await checkLabels(A.page, 'A events list');
    await A.page.fill('#event-name', eventName);
    await A.page.selectOption('#event-system', 'swiss');
    await A.page.fill('#event-rounds', '3');
    await A.page.click('#event-create button[type=submit]');
    await A.page.waitForURL(/\/event\/[A-Za-z0-9_-]+$/);
    eventId = A.page.url().split('/').pop();
    await A.page.waitForFunction((n) => document.querySelector('h1')?.textContent === n, eventName);
  });

  await step('two players find it and join with the button', async () => {
    for (const p of [B, C]) {
      await p.page.goto(`${base}/events`);
      await p.page.click(`#events-upcoming a[href="/event/${eventId}"]`);
      await p.page.waitForSelector('#event-actions button');
      await p.page.click('#event-actions button');
      await p.page.waitForFunction(() => document.querySelectorAll('#event-entries li').length >= 1);
    }
    await B.page.waitForFunction(() => document.querySelectorAll('#event-entries li').length === 2);
    await checkLabels(B.page, 'B event page');
  });

  await step('the arbiter pairs round 1; both players see the pairing', async () => {
    await A.page.reload();
    const pairButton = A.page.locator('#event-actions button', { hasText: 'Pair the next round' });
    await pairButton.click();
    await A.page.waitForSelector('#event-rounds a[href^="/game/"]');
    const href = await A.page.getAttribute('#event-rounds a[href^="/game/"]', 'href');
    game = href.split('/').pop();
    // The player's game opens by itself, as any game that starts for them.
    await B.page.waitForURL(`**/game/${game}`);
    await shot(B, 'events-game-phone');
    await B.page.goto(`${base}/event/${eventId}`);
    await B.page.waitForSelector(`#event-rounds a[href="/game/${game}"]`);
    await shot(A, 'events-page-desktop');
    await shot(B, 'events-page-phone');
  });

  await step('the game is played; the standings move', async () => {
    const view = await call(B.page, 'GET', `/api/games/${game}`);
    const first = view.body.first.name === nameB ? B : C;
    const second = first === B ? C : B;
    const secondName = second === B ? nameB : nameC;
    winnerName = secondName;
    assert.equal((await call(first.page, 'POST', `/api/games/${game}/move/h2e2`)).status, 200);
    assert.equal((await call(second.page, 'POST', `/api/games/${game}/move/h7e7`)).status, 200);
    assert.ok((await call(second.page, 'POST', `/api/games/${game}/resign`)).status < 300);
    const firstName = first === B ? nameB : nameC;
    // The page looks again every 5 s.
    await A.page.waitForFunction(
      ([n]) => [...document.querySelectorAll('#event-standings tr')]
        .some((r) => r.children[1]?.textContent.endsWith(n) && r.children[2].textContent === '1.0'),
      [firstName], { timeout: 15000 },
    );
    assert.equal(await pointsOf(A.page, secondName), '0.0');

    // The arbiter corrects the result in the panel; the standings follow.
    await A.page.waitForSelector('#arbiter-panel:not([hidden]) #result-form');
    await checkLabels(A.page, 'A arbiter panel');
    await A.page.fill('#result-round', '1');
    await A.page.fill('#result-board', '1');
    await A.page.selectOption('#result-value', '0-1');
    await A.page.fill('#result-reason', 'e2e correction');
    await A.page.click('#result-form button');
    await A.page.waitForFunction(
      ([n]) => [...document.querySelectorAll('#event-standings tr')]
        .some((r) => r.children[1]?.textContent.endsWith(n) && r.children[2].textContent === '1.0'),
      [secondName], { timeout: 15000 },
    );
    await A.page.waitForSelector('#event-log li');
    await shot(A, 'events-arbiter-panel-desktop');
    assert.equal(await pointsOf(A.page, secondName), '1.0');
    assert.equal(await pointsOf(A.page, firstName), '0.0');
    const log = await call(A.page, 'GET', `/api/events/${eventId}/log`);
    assert.ok(log.body.some((l) => l.action === 'result' && l.detail.includes('e2e correction')));
  });

  await step('the crosstable: a row per player, the round played with side and result', async () => {
    await A.page.waitForSelector('#event-chart:not([hidden]) #event-crosstable');
    await B.page.reload();
    await B.page.waitForSelector('#event-chart:not([hidden]) #event-crosstable');
    const rows = await A.page.$$eval('#event-crosstable tbody tr', (trs) => trs.map((tr) =>
      [...tr.children].map((td) => td.textContent)));
    assert.equal(rows.length, 2, JSON.stringify(rows));
    // '#', name, three rounds, points: the winner of the corrected game first.
    assert.equal(rows[0].length, 6, JSON.stringify(rows));
    assert.ok(rows[0][1].endsWith(winnerName) && rows[0][5] === '1.0', JSON.stringify(rows));
    assert.match(rows[0][2], /^\d+1$/, 'opponent number then the win');
    assert.match(rows[1][2], /^\d+0$/, 'opponent number then the loss');
    assert.equal(await A.page.locator('#event-crosstable .ct-side.first').count(), 1);
    assert.equal(await A.page.locator('#event-crosstable .ct-side.second').count(), 1);
    for (const p of [A, B]) await p.page.locator('#event-chart').scrollIntoViewIfNeeded();
    await shot(A, 'events-crosstable-desktop');
    await shot(B, 'events-crosstable-phone');
  });

  await step('a knockout of three: a drawn match to play-off and armageddon (its colour chosen on the page), a bye, the final; the bracket', async () => {
    const people = { [`eva${stamp}`]: A, [nameB]: B, [nameC]: C };
    const made = await call(A.page, 'POST', '/api/events', {
      name: `Cup ${stamp}`, time_control: '10+5', system: 'knockout', playoff_time_control: '3+2',
    });
    assert.ok(made.status < 300, JSON.stringify(made.body));
    const cup = made.body.id;
    for (const p of [A, B, C]) {
      const r = await call(p.page, 'POST', `/api/events/${cup}/join`, {});
      assert.ok(r.status < 300, JSON.stringify(r.body));
    }
    const done = new Set();
    let chosen = null;
    for (const round of [1, 2]) {
      const paired = await call(A.page, 'POST', `/api/events/${cup}/pair`, {});
      assert.ok(paired.status < 300, `round ${round}: ${JSON.stringify(paired.body)} ${JSON.stringify((await call(A.page, 'GET', `/api/events/${cup}`)).body.rounds_paired)}`);
      const deadline = Date.now() + 60000;
      for (;;) {
        const ev = (await call(A.page, 'GET', `/api/events/${cup}`)).body;
        const r = ev.rounds_paired[round - 1];
        if (r.complete) break;
        assert.ok(Date.now() < deadline, `round ${round} of the knockout did not finish`);
        let moved = false;
        for (const b of r.boards) {
          const wait = b.armageddon_choice;
          if (!b.result && wait && !wait.side && !chosen) {
            // The armageddon colour (seed 001): the player who had no
            // choice at the lot sees two buttons and the seconds left,
            // the other "waiting for …"; the chooser takes the first side.
            const chooser = people[wait.chooser.name];
            const otherName = [b.white.name, b.black.name].find((n) => n !== wait.chooser.name);
            const other = people[otherName];
            for (const p of [chooser, other]) await p.page.goto(`${base}/event/${cup}`);
            await chooser.page.waitForSelector('#armageddon-choice:not([hidden]) button.armageddon-first');
            await other.page.waitForSelector('#armageddon-choice:not([hidden]) .armageddon-waiting');
            assert.equal(await chooser.page.locator('#armageddon-choice button').count(), 2);
            assert.match(await chooser.page.locator('#armageddon-choice .armageddon-left').textContent(), /^\d+ s$/);
            assert.equal(await other.page.locator('#armageddon-choice button').count(), 0);
            assert.ok((await other.page.locator('#armageddon-choice').textContent()).includes(wait.chooser.name));
            await checkLabels(chooser.page, 'the armageddon choice');
            await shot(chooser, 'events-armageddon-choose');
            await shot(other, 'events-armageddon-waiting');
            await chooser.page.click('#armageddon-choice button.armageddon-first');
            chosen = wait.chooser.number;
            moved = true;
            continue;
          }
          const last = b.games?.[b.games.length - 1];
          if (b.result || !b.black || !last || last.result || done.has(last.game)) continue;
          done.add(last.game);
          const blackNo = last.white === b.white.number ? b.black.number : b.white.number;
          const byNo = (n) => people[ev.entries.find((e) => e.number === n).name];
          const [w, k] = [byNo(last.white), byNo(blackNo)];
          const g = last.game;
          assert.equal((await call(w.page, 'POST', `/api/games/${g}/move/h2e2`)).status, 200);
          assert.equal((await call(k.page, 'POST', `/api/games/${g}/move/h7e7`)).status, 200);
          if (round === 1) {
            // Drawn game after game: the match, its play-off, its
            // armageddon (a draw is offered right after one's move, 23.1).
            assert.ok((await call(k.page, 'POST', `/api/games/${g}/draw/offer`)).status < 300);
            assert.ok((await call(w.page, 'POST', `/api/games/${g}/draw/accept`)).status < 300);
          } else {
            assert.ok((await call(k.page, 'POST', `/api/games/${g}/resign`)).status < 300);
          }
          moved = true;
        }
        if (!moved) await A.page.waitForTimeout(200);
      }
    }
    const ev = (await call(A.page, 'GET', `/api/events/${cup}`)).body;
    assert.equal(ev.state, 'finished');
    const drawn = ev.rounds_paired[0].boards.find((b) => b.black);
    assert.deepEqual(drawn.games.map((g) => g.phase), ['regular', 'playoff', 'armageddon']);
    // The chooser took the first side with the page's button.
    assert.equal(drawn.armageddon_choice.side, 'first');
    assert.equal(drawn.armageddon_choice.by_server, false);
    assert.equal(drawn.games[2].white, chosen);
    for (const p of [A, B]) {
      await p.page.goto(`${base}/event/${cup}`);
      await p.page.waitForSelector('#event-chart:not([hidden]) #event-bracket');
    }
    const columns = await A.page.$$eval('#event-bracket .kb-round', (cols) => cols.map((c) => ({
      title: c.querySelector('h3').textContent,
      matches: c.querySelectorAll('.kb-match').length,
      won: c.querySelectorAll('.kb-won').length,
    })));
    assert.deepEqual(columns, [
      { title: 'Round 1', matches: 2, won: 2 },
      { title: 'Final', matches: 1, won: 1 },
    ], JSON.stringify(columns));
    // The drawn match shows its play-off and armageddon scores apart.
    assert.equal(await A.page.locator('#event-bracket .kb-score.playoff').count(), 2);
    assert.equal(await A.page.locator('#event-bracket .kb-score.armageddon').count(), 2);
    await checkLabels(B.page, 'B knockout bracket');
    for (const p of [A, B]) await p.page.locator('#event-chart').scrollIntoViewIfNeeded();
    await shot(A, 'events-bracket-desktop');
    await shot(B, 'events-bracket-phone');
  });

  await step('a double elimination of three: offered by the form, played out, losses and places on the page', async () => {
    const people = { [`eva${stamp}`]: A, [nameB]: B, [nameC]: C };
    // The create form offers it, in each language.
    for (const [p, label] of [[A, 'Double elimination'], [B, '双败淘汰']]) {
      await p.page.goto(`${base}/events`);
      await p.page.waitForSelector('#event-create');
      assert.equal(await p.page.textContent('#event-system option[value="double-elimination"]'), label);
    }
    await A.page.fill('#event-name', `Double ${stamp}`);
    await A.page.selectOption('#event-system', 'double-elimination');
    assert.equal(await A.page.isDisabled('#event-rounds'), true, 'its rounds follow from the results');
    await A.page.click('#event-create button[type=submit]');
    await A.page.waitForURL(/\/event\/[A-Za-z0-9_-]+$/);
    const de = A.page.url().split('/').pop();
    for (const p of [A, B, C]) {
      const r = await call(p.page, 'POST', `/api/events/${de}/join`, {});
      assert.ok(r.status < 300, JSON.stringify(r.body));
    }
    // Round after round until one player is left with fewer than two
    // losses; each game the first side wins.
    const done = new Set();
    let ev = null;
    for (let round = 1; ; round++) {
      assert.ok(round <= 8, 'a double elimination of three ends within 8 rounds');
      const paired = await call(A.page, 'POST', `/api/events/${de}/pair`, {});
      assert.ok(paired.status < 300, `round ${round}: ${JSON.stringify(paired.body)}`);
      const deadline = Date.now() + 60000;
      for (;;) {
        ev = (await call(A.page, 'GET', `/api/events/${de}`)).body;
        const r = ev.rounds_paired[round - 1];
        if (r.complete) break;
        assert.ok(Date.now() < deadline, `round ${round} of the double elimination did not finish`);
        let moved = false;
        for (const b of r.boards) {
          const last = b.games?.[b.games.length - 1];
          if (b.result || !b.black || !last || last.result || done.has(last.game)) continue;
          done.add(last.game);
          const blackNo = last.white === b.white.number ? b.black.number : b.white.number;
          const byNo = (n) => people[ev.entries.find((e) => e.number === n).name];
          const [w, k] = [byNo(last.white), byNo(blackNo)];
          assert.equal((await call(w.page, 'POST', `/api/games/${last.game}/move/h2e2`)).status, 200);
          assert.equal((await call(k.page, 'POST', `/api/games/${last.game}/move/h7e7`)).status, 200);
          assert.ok((await call(k.page, 'POST', `/api/games/${last.game}/resign`)).status < 300);
          moved = true;
        }
        if (!moved) await A.page.waitForTimeout(200);
      }
      // The standings know the champion as soon as the round's results
      // are in; the event is then finished by the room.
      const now = (await call(A.page, 'GET', `/api/events/${de}/standings`)).body;
      if (now.rows.some((r) => r.elimination.champion)) {
        const until = Date.now() + 10000;
        while (ev.state !== 'finished') {
          assert.ok(Date.now() < until, 'the double elimination did not finish');
          await A.page.waitForTimeout(200);
          ev = (await call(A.page, 'GET', `/api/events/${de}`)).body;
        }
        break;
      }
    }
    const st = (await call(A.page, 'GET', `/api/events/${de}/standings`)).body;
    assert.equal(st.rows.filter((r) => r.elimination.champion).length, 1, JSON.stringify(st));
    assert.ok(st.rows.slice(1).every((r) => r.elimination.losses === 2 && r.elimination.out_in_round));
    for (const [p, champion, out] of [[A, 'champion', 'out in round'], [B, '冠军', '轮出局']]) {
      await p.page.goto(`${base}/event/${de}`);
      await p.page.waitForSelector('#event-standings td.losses');
      const rows = await p.page.$$eval('#event-standings tr', (trs) => trs.map((tr) => ({
        rank: tr.children[0].textContent,
        losses: tr.querySelector('td.losses')?.textContent,
        out: tr.querySelector('td.out')?.textContent,
      })));
      assert.equal(rows.length, 3, JSON.stringify(rows));
      assert.equal(rows[0].rank, '1');
      assert.equal(rows[0].out, champion, JSON.stringify(rows));
      assert.ok(Number(rows[0].losses) <= 1, JSON.stringify(rows));
      assert.ok(rows.slice(1).every((r) => r.losses === '2' && r.out.includes(out)), JSON.stringify(rows));
      await checkLabels(p.page, `${p === A ? 'A' : 'B'} double elimination`);
    }
    for (const p of [A, B]) await p.page.locator('#event-standings').scrollIntoViewIfNeeded();
    await shot(A, 'events-double-elimination-desktop');
    await shot(B, 'events-double-elimination-phone');
  });

  await step('groups → knockout → final: two groups, the bracket, the final; the stages on the page', async () => {
    D = await person('D (en, desktop)', 'en-US');
    await register(D, nameD);
    const people = { [`eva${stamp}`]: A, [nameB]: B, [nameC]: C, [nameD]: D };
    // Seed 001's office event in small: 2 groups of 2, both go on, a
    // final of 3 (the knockout: one match, the group winners sit it out).
    const made = await call(A.page, 'POST', '/api/events', {
      name: `Office ${stamp}`, time_control: '10+5', system: 'groups-knockout', scoring: '3-1-0',
      groups: 2, group_size: 2, advance: 2, final_size: 3,
    });
    assert.ok(made.status < 300, JSON.stringify(made.body));
    const office = made.body.id;
    for (const p of [A, B, C, D]) {
      const r = await call(p.page, 'POST', `/api/events/${office}/join`, {});
      assert.ok(r.status < 300, JSON.stringify(r.body));
    }
    const paired = await call(A.page, 'POST', `/api/events/${office}/pair`, {});
    assert.ok(paired.status < 300, JSON.stringify(paired.body));
    // Every later round pairs itself; each game the first side wins.
    const done = new Set();
    const deadline = Date.now() + 120000;
    for (;;) {
      const ev = (await call(A.page, 'GET', `/api/events/${office}`)).body;
      if (ev.state === 'finished') break;
      assert.ok(Date.now() < deadline, `the staged event did not finish: ${JSON.stringify(ev.rounds_paired)}`);
      let moved = false;
      for (const b of ev.rounds_paired[ev.current_round - 1].boards) {
        if (b.result || !b.black) continue;
        const last = b.games?.[b.games.length - 1];
        const g = last ? (last.result ? null : last.game) : b.game;
        if (!g || done.has(g)) continue;
        done.add(g);
        const whiteNo = last ? last.white : b.white.number;
        const blackNo = whiteNo === b.white.number ? b.black.number : b.white.number;
        const byNo = (n) => people[ev.entries.find((e) => e.number === n).name];
        const [w, k] = [byNo(whiteNo), byNo(blackNo)];
        assert.equal((await call(w.page, 'POST', `/api/games/${g}/move/h2e2`)).status, 200);
        assert.equal((await call(k.page, 'POST', `/api/games/${g}/move/h7e7`)).status, 200);
        assert.ok((await call(k.page, 'POST', `/api/games/${g}/resign`)).status < 300);
        moved = true;
      }
      if (!moved) await A.page.waitForTimeout(200);
    }
    const ev = (await call(A.page, 'GET', `/api/events/${office}`)).body;
    assert.deepEqual(ev.stages.round_stages, ['groups', 'knockout', 'final', 'final', 'final']);
    for (const p of [A, B]) {
      await p.page.goto(`${base}/event/${office}`);
      await p.page.waitForSelector('#event-chart:not([hidden]) #event-stages #event-final');
    }
    // A crosstable per group (its players, its round), the bracket's one
    // column, the final's crosstable (three players, three rounds).
    const table = (sel) => A.page.$$eval(`${sel} tbody tr`, (rows) => rows.map((r) => r.children.length));
    assert.deepEqual(await table('#event-group-1'), [4, 4]);
    assert.deepEqual(await table('#event-group-2'), [4, 4]);
    assert.deepEqual(await table('#event-final'), [6, 6, 6]);
    assert.equal(await A.page.locator('#event-stages #event-bracket .kb-round').count(), 1);
    assert.equal(await A.page.locator('#event-stages #event-bracket .kb-won').count(), 3, 'two byes and a winner');
    await checkLabels(B.page, 'B staged event');
    for (const p of [A, B]) await p.page.locator('#event-chart').scrollIntoViewIfNeeded();
    await shot(A, 'events-stages-desktop');
    await shot(B, 'events-stages-phone');
  });

  // The arbiter's panel, each of its forms clicked and its effect read
  // back from the page (and the API where the page cannot show it), and
  // the round's live boards: a Swiss of three rounds with B, C, D and E,
  // E withdrawn after round 1 and re-admitted for round 3, F entered late.
  const nameE = `eve${stamp}`;
  const nameF = `evf${stamp}`;
  let E = null;
  let F = null;
  let S = null;
  let panelId = null;
  const eventNow = async (id) => (await call(A.page, 'GET', `/api/events/${id}`)).body;
  /** Waits until the event, read through the API, is as `ok` wants. */
  async function eventUntil(id, ok, what, ms = 20000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const ev = await eventNow(id);
      if (ok(ev)) return ev;
      assert.ok(Date.now() < deadline, `${what}: ${JSON.stringify(ev.rounds_paired.at(-1))}`);
      await A.page.waitForTimeout(200);
    }
  }
  const who = (name) => ({ [nameB]: B, [nameC]: C, [nameD]: D, [nameE]: E, [nameF]: F })[name];
  /** Plays a round out: on each board the first side moves, the second
   *  answers and resigns. */
  async function playRound(id, round) {
    const ev = await eventNow(id);
    for (const b of ev.rounds_paired[round - 1].boards) {
      if (!b.game || b.result) continue;
      assert.equal((await call(who(b.white.name).page, 'POST', `/api/games/${b.game}/move/h2e2`)).status, 200);
      assert.equal((await call(who(b.black.name).page, 'POST', `/api/games/${b.game}/move/h7e7`)).status, 200);
      assert.ok((await call(who(b.black.name).page, 'POST', `/api/games/${b.game}/resign`)).status < 300);
    }
    return eventUntil(id, (e) => e.rounds_paired[round - 1].complete, `round ${round} complete`);
  }
  /** A button of the arbiter's panel, by its words. */
  const panelButton = (words) => A.page.locator('#arbiter-panel button', { hasText: words }).click();
  const pairButton = () => A.page.locator('#event-actions button', { hasText: 'Pair the next round' }).click();
  /** The panel's player form: a name, an action, Apply. */
  async function playerForm(name, action) {
    await A.page.fill('#player-name', name);
    await A.page.selectOption('#player-action', action);
    await A.page.click('#player-form button');
  }
  /** Waits until the entries list's line of `name` says `words` (or,
   *  with `says` false, no longer says them). */
  const entryUntil = (name, words, says = true) => A.page.waitForFunction(([n, w, yes]) => {
    const line = [...document.querySelectorAll('#event-entries li')].map((l) => l.textContent).find((x) => x.includes(n));
    return line !== undefined && line.includes(w) === yes;
  }, [name, words, says]);
  /** Clicks what the server refuses (409), and waits for the page's words
   *  for it; the browser's console line of the 409 is expected. */
  async function refused(click, words) {
    const conflict = /status of 409/;
    expected.push(conflict);
    try {
      await click();
      await A.page.waitForFunction((w) => document.querySelector('#main > p[role=status] .error')?.textContent.includes(w), words);
    } finally {
      expected.splice(expected.indexOf(conflict), 1);
    }
  }
  const header = () => A.page.textContent('#main p.muted');
  const logActions = async (id) => (await call(A.page, 'GET', `/api/events/${id}/log`)).body.map((l) => l.action);

  await step('the arbiter\'s panel: round 1 paired, then re-paired before its first move', async () => {
    E = await person('E (en, desktop)', 'en-US');
    F = await person('F (en, desktop)', 'en-US');
    await register(E, nameE);
    await register(F, nameF);
    const made = await call(A.page, 'POST', '/api/events', {
      name: `Panel ${stamp}`, time_control: '10+5', system: 'swiss', rounds: 3,
    });
    assert.ok(made.status < 300, JSON.stringify(made.body));
    panelId = made.body.id;
    for (const p of [B, C, D, E]) {
      const r = await call(p.page, 'POST', `/api/events/${panelId}/join`, {});
      assert.ok(r.status < 300, JSON.stringify(r.body));
    }
    await A.page.goto(`${base}/event/${panelId}`);
    await pairButton();
    await A.page.waitForFunction(() => document.querySelectorAll('#event-rounds a[href^="/game/"]').length === 2);
    const before = (await eventNow(panelId)).rounds_paired[0].boards.map((b) => b.game);
    await panelButton('Re-pair this round');
    // The page shows the round's new games; the old ones are called off.
    await A.page.waitForFunction((old) => {
      const games = [...document.querySelectorAll('#event-rounds a[href^="/game/"]')].map((a) => a.getAttribute('href').split('/').pop());
      return games.length === 2 && games.every((g) => !old.includes(g));
    }, before);
    assert.equal((await eventNow(panelId)).rounds_paired.length, 1);
    for (const g of before) assert.equal((await call(A.page, 'GET', `/api/games/${g}`)).body.state, 'aborted');
    assert.ok((await logActions(panelId)).includes('repair'));
  });

  await step('the live boards: the round\'s games on one screen, the players\' moves and the results on them', async () => {
    S = await person('S spectator, not logged in (en, desktop)', 'en-US');
    const boards = (await eventNow(panelId)).rounds_paired[0].boards.filter((b) => b.game);
    assert.equal(boards.length, 2);
    const tile = (g) => `.live-tile[data-game="${g}"]`;
    // From the event page's link.
    await S.page.goto(`${base}/event/${panelId}`);
    await S.page.click('#event-live-link');
    await S.page.waitForURL(`**/event/${panelId}/live`);
    // B, a player, watches on the phone, once its own game has opened for it.
    const mine = boards.find((b) => b.white.name === nameB || b.black.name === nameB);
    await B.page.waitForURL(`**/game/${mine.game}`);
    await B.page.goto(`${base}/event/${panelId}/live`);
    for (const p of [S, B]) {
      for (const b of boards) await p.page.waitForSelector(`${tile(b.game)}[data-state="live"] [data-piece]`);
    }
    for (const b of boards) {
      const text = await S.page.textContent(tile(b.game));
      assert.ok(text.includes(b.white.name) && text.includes(b.black.name), text);
    }
    assert.match(await S.page.textContent('#live-info'), /^Round 1 · boards 1–2 of 2$/);
    assert.match(await B.page.textContent('#live-info'), /^第 1 轮 · 第 1–2 台，共 2 台$/);
    await checkLabels(S.page, 'S live boards');
    await checkLabels(B.page, 'B live boards');
    // Each move comes to both screens by the game's socket.
    for (const b of boards) {
      assert.equal((await call(who(b.white.name).page, 'POST', `/api/games/${b.game}/move/h2e2`)).status, 200);
      for (const p of [S, B]) await p.page.waitForSelector(`${tile(b.game)}[data-ply="1"] [data-square="e2"][data-piece="C"]`);
      assert.equal((await call(who(b.black.name).page, 'POST', `/api/games/${b.game}/move/h7e7`)).status, 200);
      for (const p of [S, B]) await p.page.waitForSelector(`${tile(b.game)}[data-ply="2"] [data-square="e7"][data-piece="c"]`);
    }
    // Red to move: its clock runs, the other stands.
    await S.page.waitForSelector(`${tile(boards[0].game)} .seat-bottom .live-clock.running`);
    assert.equal(await S.page.locator(`${tile(boards[0].game)} .seat-top .live-clock.running`).count(), 0);
    await shot(S, 'events-live-desktop');
    await shot(B, 'events-live-phone');
    // One game resigned, one drawn: the results on the tiles.
    const [won, drawn] = boards;
    assert.ok((await call(who(won.black.name).page, 'POST', `/api/games/${won.game}/resign`)).status < 300);
    assert.ok((await call(who(drawn.black.name).page, 'POST', `/api/games/${drawn.game}/draw/offer`)).status < 300);
    assert.ok((await call(who(drawn.white.name).page, 'POST', `/api/games/${drawn.game}/draw/accept`)).status < 300);
    const result = (p, g, words) => p.page.waitForFunction(([sel, w]) => document.querySelector(`${sel} .live-result`)?.textContent === w,
      [tile(g), words]);
    await result(S, won.game, '1-0 · Red wins');
    await result(S, drawn.game, '1/2-1/2 · Draw');
    await result(B, won.game, '1-0 · 红胜');
    await result(B, drawn.game, '1/2-1/2 · 和棋');
    // A click on a tile opens its game.
    await S.page.click(tile(won.game));
    await S.page.waitForURL(`**/game/${won.game}`);
    await S.page.waitForSelector('#result:not([hidden])');
    await S.page.goto(`${base}/event/${panelId}/live`);
    await eventUntil(panelId, (e) => e.rounds_paired[0].complete, 'round 1 complete');
  });

  await step('the arbiter\'s panel: pause and resume, nothing paired while paused', async () => {
    await A.page.goto(`${base}/event/${panelId}`);
    await A.page.waitForSelector('#arbiter-panel:not([hidden]) #player-form');
    await checkLabels(A.page, 'A arbiter panel of a Swiss');
    await panelButton('Pause the event');
    await A.page.waitForFunction(() => document.querySelector('#main p.muted')?.textContent.includes('paused by the arbiter'));
    assert.equal((await eventNow(panelId)).paused, true);
    await refused(pairButton, 'paused');
    assert.equal((await eventNow(panelId)).rounds_paired.length, 1);
    await panelButton('Resume the event');
    await A.page.waitForFunction(() => !document.querySelector('#main p.muted')?.textContent.includes('paused'));
    assert.equal((await eventNow(panelId)).paused, false);
    const log = await logActions(panelId);
    assert.ok(log.includes('pause_event') && log.includes('resume_event'), JSON.stringify(log));
  });

  await step('the arbiter\'s panel: a player withdrawn, another entered late; round 2 pairs them so', async () => {
    await playerForm(nameE, 'withdraw');
    await entryUntil(nameE, 'withdrawn');
    await playerForm(nameF, 'late_entry');
    await entryUntil(nameF, 'late entry');
    await pairButton();
    await A.page.waitForFunction(() => document.querySelectorAll('#round-choice button').length === 2);
    const round2 = (await eventNow(panelId)).rounds_paired[1].boards;
    const names = round2.flatMap((b) => [b.white.name, b.black?.name]);
    assert.ok(!names.includes(nameE) && names.includes(nameF), JSON.stringify(round2));
    await A.page.waitForFunction(() => document.querySelector('#round-shown h3')?.textContent.startsWith('Round 2'));
    const shown = await A.page.textContent('#round-shown');
    assert.ok(shown.includes(nameF) && !shown.includes(nameE), shown);
    // One round's boards at a time: round 1 again by its button, where
    // the withdrawn player still plays; the page read that round only.
    await A.page.click('#round-choice button:first-child');
    await A.page.waitForFunction(() => document.querySelector('#round-shown h3')?.textContent.startsWith('Round 1'));
    assert.ok((await A.page.textContent('#round-shown')).includes(nameE));
    await A.page.locator('#round-choice').scrollIntoViewIfNeeded();
    await shot(A, 'events-round-chooser-desktop');
    const only = (await call(A.page, 'GET', `/api/events/${panelId}?round=1`)).body;
    assert.deepEqual(only.rounds_paired.map((r) => [r.boards.length > 0, r.board_count > 0]), [[true, true], [false, true]]);
    await A.page.click('#round-choice button:last-child');
    await A.page.waitForFunction(() => document.querySelector('#round-shown h3')?.textContent.startsWith('Round 2'));
    // The live boards left open go on to round 2 by themselves.
    await S.page.waitForFunction(() => document.querySelector('#live-info')?.textContent.startsWith('Round 2'), null, { timeout: 15000 });
    for (const b of round2) await S.page.waitForSelector(`.live-tile[data-game="${b.game}"]`);
    const log = await logActions(panelId);
    assert.ok(log.includes('arbiter_withdraw') && log.includes('late_entry'), JSON.stringify(log));
    await playRound(panelId, 2);
  });

  await step('the arbiter\'s panel: a warning (18.1) through the ruling form, shown in the log', async () => {
    await A.page.fill('#ruling-player-round', '2');
    await A.page.fill('#ruling-player', nameF);
    await A.page.selectOption('#ruling-kind', 'warning');
    await A.page.fill('#ruling-player-reason', 'a phone rang');
    await A.page.click('#ruling-form button');
    for (let i = 0; i < 50 && !(await logActions(panelId)).includes('warning'); i += 1) {
      await A.page.waitForTimeout(100);
    }
    const log = (await call(A.page, 'GET', `/api/events/${panelId}/log`)).body;
    const line = log.find((l) => l.action === 'warning');
    assert.ok(line && line.detail.includes(nameF) && line.detail.includes('a phone rang'), JSON.stringify(log));
  });

  await step('the arbiter\'s panel: the player re-admitted and paired in round 3; publishing, refused before the end, then done', async () => {
    await playerForm(nameE, 'readmit');
    await entryUntil(nameE, 'withdrawn', false);
    await pairButton();
    await A.page.waitForFunction(() => document.querySelectorAll('#round-choice button').length === 3);
    const round3 = (await eventNow(panelId)).rounds_paired[2].boards;
    assert.ok(round3.some((b) => b.white.name === nameE || b.black?.name === nameE), JSON.stringify(round3));
    await refused(() => panelButton('Publish the results'), 'over');
    await playRound(panelId, 3);
    await eventUntil(panelId, (e) => e.state === 'finished', 'the event is over');
    await A.page.reload();
    await panelButton('Publish the results');
    await A.page.waitForFunction(() => document.querySelector('#main p.muted')?.textContent.includes('results published'));
    assert.ok((await eventNow(panelId)).published_ms > 0);
    assert.ok((await logActions(panelId)).includes('readmit'));
    for (const p of [E, F, S]) await p.context.close();
  });

  await step('the event list, desktop and phone', async () => {
    await A.page.goto(`${base}/events`);
    await A.page.waitForSelector(`#events-running a[href="/event/${eventId}"]`);
    await shot(A, 'events-list-desktop');
    await B.page.goto(`${base}/events`);
    await B.page.waitForSelector(`#events-running a[href="/event/${eventId}"]`);
    await checkLabels(B.page, 'B events list');
    await shot(B, 'events-list-phone');
  });

  let arenaId = null;
  await step('an arena: created in the page, joined, started', async () => {
    await A.page.goto(`${base}/events`);
    await A.page.waitForSelector('#event-create');
    await A.page.fill('#event-name', `Arena ${stamp}`);
    await A.page.selectOption('#event-system', 'arena');
    await A.page.fill('#event-minutes', '5');
    await A.page.click('#event-create button[type=submit]');
    await A.page.waitForURL(/\/event\/[A-Za-z0-9_-]+$/);
    arenaId = A.page.url().split('/').pop();
    for (const p of [B, C]) {
      await p.page.goto(`${base}/event/${arenaId}`);
      await p.page.waitForSelector('#event-actions button');
      await p.page.click('#event-actions button');
      await p.page.waitForFunction(() => document.querySelectorAll('#event-entries li').length >= 1);
    }
    await A.page.reload();
    await A.page.locator('#event-actions button', { hasText: 'Start the arena' }).click();
    // The pairing opens the players' game by itself.
    await B.page.waitForURL('**/game/*');
    await B.page.goto(`${base}/event/${arenaId}`);
    await B.page.waitForSelector('#my-game a[href^="/game/"]');
    const g = (await B.page.getAttribute('#my-game a', 'href')).split('/').pop();
    // Berserk from the event page, before the first move.
    await B.page.locator('#event-actions button', { hasText: '狂战' }).click();
    // The click sends the berserk; the event is read once it has landed
    // (read at once, the view raced the request and lost under load).
    const berserked = (v) => v.body.arena.games.find((x) => x.game === g && (x.white_berserk || x.black_berserk));
    let view = await call(B.page, 'GET', `/api/events/${arenaId}`);
    for (let i = 0; i < 50 && !berserked(view); i++) {
      await B.page.waitForTimeout(100);
      view = await call(B.page, 'GET', `/api/events/${arenaId}`);
    }
    const mine = view.body.arena.games.find((x) => x.game === g);
    assert.ok(mine.white_berserk || mine.black_berserk, JSON.stringify(mine));
    const gv = await call(B.page, 'GET', `/api/games/${g}`);
    const [first, second] = gv.body.first.name === nameB ? [B, C] : [C, B];
    for (const [p, mv] of [[first, 'h2e2'], [second, 'h7e7']]) {
      assert.equal((await call(p.page, 'POST', `/api/games/${g}/move/${mv}`)).status, 200);
    }
    assert.ok((await call(second.page, 'POST', `/api/games/${g}/resign`)).status < 300);
    await A.page.waitForFunction(() => [...document.querySelectorAll('#event-standings tr')]
      .some((r) => r.children[2]?.textContent === '2'), null, { timeout: 15000 });
    await A.page.waitForSelector('#arena-games a[href^="/game/"]');
    // The two are paired again at once (the game opens for them); B pauses,
    // and reads the arena with the pause button turned into "join again".
    assert.equal((await call(B.page, 'POST', `/api/events/${arenaId}/withdraw`)).status, 204);
    await B.page.goto(`${base}/event/${arenaId}`);
    await B.page.waitForSelector('#arena-games a[href^="/game/"]');
    await B.page.locator('#event-actions button', { hasText: '重新加入' }).waitFor();
    await checkLabels(B.page, 'B arena page');
    await shot(A, 'events-arena-desktop');
    await shot(B, 'events-arena-phone');
    // The arena's live boards: its games in progress (B and C's next one).
    const playing = (await eventUntil(arenaId, (e) => e.arena.games.some((x) => !x.result), 'an arena game in progress'))
      .arena.games.filter((x) => !x.result);
    await A.page.goto(`${base}/event/${arenaId}/live`);
    for (const x of playing) await A.page.waitForSelector(`.live-tile[data-game="${x.game}"] [data-piece]`);
    assert.match(await A.page.textContent('#live-info'), /^Games being played · boards 1–\d+ of \d+$/);
    assert.ok((await A.page.textContent(`.live-tile[data-game="${playing[0].game}"]`)).includes(`Game ${playing[0].seq}`));
    await checkLabels(A.page, 'A arena live boards');
  });
} finally {
  finish('events.mjs');
}
