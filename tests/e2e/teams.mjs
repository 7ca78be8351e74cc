// Issue 28, team events: an organiser creates a team round robin in the
// events page, a captain registers a team with the page's form (players in
// board order, a substitute last) and hands in a line-up fielding the
// substitute by ticking the roster, another captain registers through the
// API, the arbiter pairs round 1 and sets the boards' results — and the
// event page shows the team standings, the match board by board and the
// rosters, desktop (English) and phone (Chinese). Then a team Swiss of
// three teams created in the page: its round with the bye, a foul
// recorded with the arbiter's form, a warning in the standings' penalties
// column (18.4), the standings with 15.4's columns. A captain withdraws a
// team with the page's button before round 1, asked to confirm (20.2),
// and is refused once the event has started; the arbiter withdraws a
// team and re-admits it with the panel's buttons:
//
//   node tests/e2e/teams.mjs http://127.0.0.1:PORT
//
// Environment as for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS). The server
// must let 127.0.0.1 register many accounts (`--registrations-per-ip 0`).
// Screenshots: events-teams-desktop-en.png, events-teams-phone-zh.png,
// events-team-swiss-desktop-en.png, events-team-swiss-phone-zh.png.

import assert from 'node:assert/strict';
import { call, checkLabels, setUp, PHONE } from './harness.mjs';

const { base, step, person, register, shot, finish, expected } = await setUp('teams.mjs', {
  emulatePhones: true,
  keepGoing: process.env.QIJU_E2E_KEEP_GOING === '1',
});

const stamp = Date.now().toString(36).slice(-5);
const eventName = `Teams ${stamp}`;
let eventId = null;

/** Registers a player account over HTTP (no page: they only play). */
async function account(name) {
  const r = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-qiju-csrf': '1' },
    body: JSON.stringify({ name, password: 'correct horse battery' }),
  });
  assert.equal(r.status, 201, `register ${name}`);
}

const red = [`r1${stamp}`, `r2${stamp}`, `r3${stamp}`];
const blue = [`b1${stamp}`, `b2${stamp}`];
const green = [`g1${stamp}`, `g2${stamp}`];

try {
  const A = await person('A organiser (en, desktop)', 'en-US');
  const B = await person('B captain (zh, phone)', 'zh-CN', PHONE);
  const C = await person('C captain (en, desktop)', 'en-US');

  await step('the organiser, two captains and five players register', async () => {
    await register(A, `tma${stamp}`);
    await register(B, `tmb${stamp}`);
    await register(C, `tmc${stamp}`);
    for (const n of [...red, ...blue, ...green]) await account(n);
  });

  await step('the organiser creates a team round robin on 2 boards in the page', async () => {
    await A.page.goto(`${base}/events`);
    await A.page.waitForSelector('#event-create');
    await A.page.fill('#event-name', eventName);
    await A.page.selectOption('#event-system', 'team-round-robin');
    await A.page.fill('#event-boards', '2');
    await A.page.fill('#event-substitutes', '1');
    await A.page.click('#event-create button[type=submit]');
    await A.page.waitForURL(/\/event\/[A-Za-z0-9_-]+$/);
    eventId = A.page.url().split('/').pop();
    await A.page.waitForSelector('#event-teams:not([hidden])');
  });

  await step('a captain registers a team with the form, a substitute last', async () => {
    await B.page.goto(`${base}/event/${eventId}`);
    await B.page.waitForSelector('#team-register');
    await checkLabels(B.page, 'B team form');
    await B.page.fill('#team-name', '红队');
    await B.page.fill('#team-players', red.join('\n'));
    await B.page.click('#team-register button');
    await B.page.waitForSelector('#team-lineup');
    await B.page.waitForFunction(() => document.querySelectorAll('.team-roster li').length === 3);
  });

  await step('the other captain registers through the API', async () => {
    const r = await call(C.page, 'POST', `/api/events/${eventId}/teams`, { name: 'Blue', players: blue });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  });

  await step('a third captain withdraws the team with the page\'s button before round 1, confirming first', async () => {
    const r = await call(A.page, 'POST', `/api/events/${eventId}/teams`, { name: 'Green', players: green });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await A.page.goto(`${base}/event/${eventId}`);
    await A.page.waitForSelector('#team-withdraw-own');
    // Asked first; cancelled, nothing is sent.
    await A.page.click('#team-withdraw-own');
    const ask = await A.page.textContent('#team-withdraw-ask');
    assert.ok(ask.includes('Green'), ask);
    await checkLabels(A.page, 'A withdrawing the team');
    await shot(A, 'events-team-withdraw-desktop-en');
    await A.page.click('#team-withdraw-cancel');
    await A.page.waitForSelector('#team-withdraw-own');
    let teams = await call(A.page, 'GET', `/api/events/${eventId}/teams`);
    assert.equal(teams.body.teams.length, 3, JSON.stringify(teams.body.teams));
    // Confirmed: the team leaves the draw, the register form comes back.
    await A.page.click('#team-withdraw-own');
    await A.page.locator('#team-withdraw button', { hasText: 'Yes, withdraw the team' }).click();
    await A.page.waitForSelector('#team-register');
    await A.page.waitForFunction(() => document.querySelectorAll('#team-standings tbody tr').length === 2);
    teams = await call(A.page, 'GET', `/api/events/${eventId}/teams`);
    assert.deepEqual(teams.body.teams.map((x) => x.name), ['红队', 'Blue']);
  });

  await step('the first captain fields the substitute on board 2 by ticking the roster', async () => {
    await B.page.reload();
    await B.page.waitForSelector('#team-lineup');
    const boxes = B.page.locator('#team-lineup input[type=checkbox]');
    assert.equal(await boxes.count(), 3);
    await boxes.nth(1).uncheck();
    await boxes.nth(2).check();
    await B.page.click('#team-lineup button[type=submit]');
    await B.page.waitForFunction(() => /1/.test(document.querySelector('#event-teams-forms [role=status]')?.textContent || ''));
  });

  await step('the arbiter pairs round 1; the captain\'s withdrawal, confirmed too late, is refused in the page', async () => {
    // The captain's page still shows the button: its 5-s refresh stopped,
    // so that the start comes between the page and the click.
    await B.page.waitForSelector('#team-withdraw-own');
    await B.page.evaluate(() => {
      const last = setInterval(() => {}, 60000);
      for (let i = 1; i <= last; i += 1) clearInterval(i);
    });
    const r = await call(A.page, 'POST', `/api/events/${eventId}/pair`, {});
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const forbidden = /status of 403/;
    expected.push(forbidden);
    try {
      await B.page.click('#team-withdraw-own');
      await B.page.locator('#team-withdraw button', { hasText: '确定退出' }).click();
      // Beside the button and in the page's status line.
      await B.page.waitForFunction(() => ['#event-teams-forms [role=status] .error', '#main > p[role=status] .error']
        .every((q) => document.querySelector(q)?.textContent.includes('你不能这样做')));
    } finally {
      expected.splice(expected.indexOf(forbidden), 1);
    }
    await shot(B, 'events-team-withdraw-refused-phone-zh');
    const teams = await call(B.page, 'GET', `/api/events/${eventId}/teams`);
    assert.equal(teams.body.teams.length, 2, JSON.stringify(teams.body.teams));
    await B.page.reload();
    await B.page.waitForSelector('#team-standings');
    assert.equal(await B.page.locator('#team-withdraw-own').count(), 0, 'no button after the start');
    await A.page.reload();
    await A.page.waitForSelector('.team-match tr');
    const rows = await A.page.$$eval('.team-match tr', (trs) => trs.map((t) => t.textContent));
    assert.equal(rows.length, 2, rows.join(' | '));
    assert.ok(rows[1].includes(red[2]), `board 2: the substitute ${red[2]}: ${rows[1]}`);
  });

  await step('results set: the match points and the team standings show', async () => {
    for (const [board, result] of [[1, '1-0'], [2, '1/2-1/2']]) {
      const r = await call(A.page, 'POST', `/api/events/${eventId}/result`,
        { round: 1, board, result, reason: 'e2e' });
      assert.equal(r.status, 204, JSON.stringify(r.body));
    }
    await A.page.reload();
    await A.page.waitForFunction(() => document.querySelectorAll('#team-standings tbody tr').length === 2);
    const top = await A.page.$eval('#team-standings tbody tr', (tr) => tr.textContent);
    assert.ok(top.includes('红队') && top.includes('1.5'), top);
    await checkLabels(A.page, 'A team event');
    await shot(A, 'events-teams-desktop-en');
    await B.page.reload();
    await B.page.waitForSelector('#team-standings tbody tr');
    await shot(B, 'events-teams-phone-zh');
  });

  // A team Swiss of three teams on 2 boards: one match and a bye a round.
  const swissName = `Team Swiss ${stamp}`;
  let swissId = null;
  const swissPlayers = [0, 1, 2].map((t) => [`s${t}a${stamp}`, `s${t}b${stamp}`]);
  await step('the organiser creates a team Swiss of 2 rounds in the page; three teams register', async () => {
    for (const team of swissPlayers) for (const n of team) await account(n);
    await A.page.goto(`${base}/events`);
    await A.page.waitForSelector('#event-create');
    await A.page.fill('#event-name', swissName);
    await A.page.selectOption('#event-system', 'team-swiss');
    assert.equal(await A.page.isDisabled('#event-rounds'), false, 'a team Swiss has its rounds');
    await A.page.fill('#event-rounds', '2');
    await A.page.fill('#event-boards', '2');
    await A.page.fill('#event-substitutes', '0');
    await A.page.selectOption('#event-lineups', 'any-order');
    await A.page.click('#event-create button[type=submit]');
    await A.page.waitForURL(/\/event\/[A-Za-z0-9_-]+$/);
    swissId = A.page.url().split('/').pop();
    const names = ['北京', 'Shanghai', 'Canton'];
    for (const [i, who] of [B, C, A].entries()) {
      const r = await call(who.page, 'POST', `/api/events/${swissId}/teams`,
        { name: names[i], players: swissPlayers[i] });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
  });

  await step('a captain puts the second player on board 1 (12.3: any order) with the form', async () => {
    await B.page.goto(`${base}/event/${swissId}`);
    await B.page.waitForSelector('#team-lineup select[data-board="1"]');
    await B.page.selectOption('#team-lineup select[data-board="1"]', swissPlayers[0][1]);
    await B.page.selectOption('#team-lineup select[data-board="2"]', swissPlayers[0][0]);
    await B.page.click('#team-lineup button[type=submit]');
    await B.page.waitForFunction(() => /1/.test(document.querySelector('#event-teams-forms [role=status]')?.textContent || ''));
  });

  await step('round 1 paired: one match, a bye; the arbiter records a foul in the page', async () => {
    const r = await call(A.page, 'POST', `/api/events/${swissId}/pair`, {});
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await A.page.goto(`${base}/event/${swissId}`);
    await A.page.waitForSelector('#team-rulings');
    const round = await A.page.$eval('.team-round h3', (e) => e.textContent);
    assert.ok(/has the bye/.test(round), round);
    const board1 = await A.page.$eval('.team-match tr', (tr) => tr.textContent);
    assert.ok(board1.includes(swissPlayers[0][1]), `the line-up's board 1: ${board1}`);
    await A.page.selectOption('#foul-player', swissPlayers[0][1]);
    await A.page.fill('#ruling-reason', '9.1');
    await A.page.locator('#team-rulings button', { hasText: 'Record a foul' }).click();
    await A.page.waitForSelector('#team-fouls tr');
    // A warning (18.1) to Shanghai's board 1: its penalties column.
    const warned = await call(A.page, 'POST', `/api/events/${swissId}/fouls`,
      { round: 1, player: swissPlayers[1][0], kind: 'warning', reason: '18.1' });
    assert.equal(warned.status, 200, JSON.stringify(warned.body));
    for (const [board, result] of [[1, '1-0'], [2, '1/2-1/2']]) {
      const res = await call(A.page, 'POST', `/api/events/${swissId}/result`,
        { round: 1, board, result, reason: 'e2e' });
      assert.equal(res.status, 204, JSON.stringify(res.body));
    }
    await A.page.reload();
    await A.page.waitForFunction(() => document.querySelectorAll('#team-standings tbody tr').length === 3);
    const head = await A.page.$eval('#team-standings thead', (e) => e.textContent);
    assert.ok(head.includes("Opponents' match points") && head.includes('Fouls') && head.includes('Penalties'), head);
    const rows = await A.page.$$eval('#team-standings tbody tr', (trs) => trs.map((t) => t.textContent));
    const shanghai = rows.find((row) => row.includes('Shanghai')) || '';
    assert.ok(shanghai.includes('1 warning'), shanghai);
    // The match's winner and the bye's team have 2 match points each.
    assert.ok(rows.slice(0, 2).every((row) => /2/.test(row)), rows.join(' | '));
    await checkLabels(A.page, 'A team Swiss');
    await shot(A, 'events-team-swiss-desktop-en');
    await B.page.goto(`${base}/event/${swissId}`);
    await B.page.waitForSelector('#team-standings tbody tr');
    const zhHead = await B.page.$eval('#team-standings thead', (e) => e.textContent);
    assert.ok(zhHead.includes('处分'), zhHead);
    const zhRows = await B.page.$eval('#team-standings tbody', (e) => e.textContent);
    assert.ok(zhRows.includes('警告1次'), zhRows);
    await shot(B, 'events-team-swiss-phone-zh');
  });

  // 12.4 and 15.5: an all-play-all team round robin ranked by places,
  // created in the page; the arbiter withdraws a team with the form.
  const apaName = `All play all ${stamp}`;
  let apaId = null;
  const apaPlayers = [0, 1, 2].map((t) => [`p${t}a${stamp}`, `p${t}b${stamp}`]);
  await step('an all-play-all team round robin ranked by places is created in the page', async () => {
    for (const team of apaPlayers) for (const n of team) await account(n);
    await A.page.goto(`${base}/events`);
    await A.page.waitForSelector('#event-create');
    await A.page.fill('#event-name', apaName);
    await A.page.selectOption('#event-system', 'team-round-robin');
    await A.page.fill('#event-boards', '2');
    await A.page.selectOption('#event-team-match', 'all-play-all');
    await A.page.selectOption('#event-team-ranking', 'places');
    await A.page.click('#event-create button[type=submit]');
    await A.page.waitForURL(/\/event\/[A-Za-z0-9_-]+$/);
    apaId = A.page.url().split('/').pop();
    for (const [i, who] of [B, C, A].entries()) {
      const r = await call(who.page, 'POST', `/api/events/${apaId}/teams`,
        { name: `APA ${i + 1}`, players: apaPlayers[i] });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
  });

  await step('round 1 is part 1 of a match; the standings lead with the sum of places; a team withdrawn', async () => {
    const r = await call(A.page, 'POST', `/api/events/${apaId}/pair`, {});
    assert.equal(r.status, 200, JSON.stringify(r.body));
    for (const [board, result] of [[1, '1-0'], [2, '1-0']]) {
      const res = await call(A.page, 'POST', `/api/events/${apaId}/result`,
        { round: 1, board, result, reason: 'e2e' });
      assert.equal(res.status, 204, JSON.stringify(res.body));
    }
    await A.page.goto(`${base}/event/${apaId}`);
    await A.page.waitForSelector('#team-rulings');
    const round = await A.page.$eval('.team-round h3', (e) => e.textContent);
    assert.ok(/part 1/.test(round), round);
    const head = await A.page.$eval('#team-standings thead', (e) => e.textContent);
    assert.ok(head.includes('Sum of places'), head);
    const title = await A.page.$eval('#teams-title', (e) => e.textContent);
    assert.ok(title.includes('15.5') && title.includes('12.4'), title);
    // Team 1 sits out rounds 1 and 2 (the table's round 1): withdrawn.
    await A.page.selectOption('#forfeit-team', '1');
    await A.page.locator('#team-rulings button', { hasText: 'Withdraw the team' }).click();
    await A.page.waitForFunction(() => /withdrawn/.test(document.querySelector('#team-standings tbody')?.textContent || ''));
    const log = await call(A.page, 'GET', `/api/events/${apaId}/log`);
    assert.ok(log.body.some((l) => l.action === 'team_withdraw'), JSON.stringify(log.body));
    await checkLabels(A.page, 'An all-play-all team event');
    await shot(A, 'events-team-places-desktop-en');
    await B.page.goto(`${base}/event/${apaId}`);
    await B.page.waitForSelector('#team-standings tbody tr');
    const zh = await B.page.$eval('#teams-title', (e) => e.textContent);
    assert.ok(zh.includes('队员总分制'), zh);
    await shot(B, 'events-team-places-phone-zh');
  });

  await step('the arbiter re-admits the withdrawn team whole with the panel\'s button', async () => {
    await A.page.selectOption('#forfeit-team', '1');
    await A.page.locator('#team-rulings button', { hasText: 'Re-admit the team' }).click();
    await A.page.waitForFunction(() => !/withdrawn/.test(document.querySelector('#team-standings tbody')?.textContent || ''));
    const log = await call(A.page, 'GET', `/api/events/${apaId}/log`);
    assert.ok(log.body.some((l) => l.action === 'team_readmit'), JSON.stringify(log.body));
    // Again: refused, the error shown.
    const conflict = /status of 409/;
    expected.push(conflict);
    try {
      await A.page.locator('#team-rulings button', { hasText: 'Re-admit the team' }).click();
      await A.page.waitForFunction(() => /has not withdrawn/.test(document.querySelector('#main > p[role=status] .error')?.textContent || ''));
    } finally {
      expected.splice(expected.indexOf(conflict), 1);
    }
    await checkLabels(A.page, 'A re-admitting a team');
  });
} finally {
  finish('teams.mjs');
}
