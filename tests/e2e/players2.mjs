// Issue 30, second round: the defects a new player meets, in a real
// headless Chromium (Debian's) driven by playwright-core against a
// running `qiju serve`:
//
//   node tests/e2e/players2.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs after renju.mjs. Environment as
// for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS). Each step names the
// defect of issue 30 it holds fixed; desktop is 1280×900, the phone
// 390×844. Every page must log no console error, and every control must
// have a name.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  boardPosition, checkLabels, setUp, typeMove, waitPly, DESKTOP, PHONE, root,
} from './harness.mjs';

const { base, shots, browser, expected, step, person, register, shot, finish } = await setUp('players2.mjs', {
  emulatePhones: true,
  keepGoing: process.env.QIJU_E2E_KEEP_GOING === '1',
});

const rules = await import(path.join(root, 'crates/web/assets/js/rules/xiangqi.js'));

/** A legal Xiangqi line of `n` plies with no capture, worked out by the
 *  browser's own rules module (deterministic: a fixed pseudo-random walk). */
function quietLine(n) {
  let pos = rules.parseFen(rules.STARTPOS);
  let seed = 7;
  const line = [];
  while (line.length < n) {
    const legal = rules.legalMoves(pos).filter((m) => !pos.board[rules.parseSquare(m.slice(2, 4))]);
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const m = legal[seed % legal.length];
    line.push(m);
    pos = rules.play(pos, m);
  }
  return line;
}

/** Where the page is scrolled to, and where the move list is. */
const scrolls = (page) => page.evaluate(() => ({
  page: Math.round(window.scrollY),
  list: Math.round(document.querySelector('#moves')?.scrollTop || 0),
}));

const stamp = Date.now().toString(36).slice(-5);
const nameA = `p2a${stamp}`;
const nameB = `p2b${stamp}`;
let computerGame = null;
let humanGame = null;

try {
  const A = await person('A (en, desktop)', 'en-US');
  const B = await person('B (zh, phone)', 'zh-CN', PHONE);

  await step('defects 5 and 7: a first visit — the tab title, no focus ring around the page', async () => {
    const V = await person('visitor (en)', 'en-US');
    await V.page.goto(`${base}/`);
    await V.page.waitForSelector('#seeks-title');
    assert.equal(await V.page.title(), 'qiju', 'not "qiju · qiju"');
    const main = await V.page.evaluate(() => {
      const m = document.querySelector('main');
      const style = getComputedStyle(m);
      return { focused: document.activeElement === m, outline: style.outlineStyle, width: style.outlineWidth };
    });
    assert.ok(main.focused, 'the router still focuses <main> for screen readers');
    assert.equal(main.outline, 'none', `a ring around <main>: ${JSON.stringify(main)}`);
    await shot(V, 'players2-lobby-visitor-en');
    await V.context.close();
    const W = await person('visitor (zh)', 'zh-CN');
    await W.page.goto(`${base}/`);
    await W.page.waitForSelector('#seeks-title');
    assert.equal(await W.page.title(), '棋局 · qiju');
    await W.context.close();
  });

  await step('two players register: A in English on a desktop, B in Chinese on a phone', async () => {
    await register(A, nameA);
    await register(B, nameB);
  });

  await step('defect 2: the phone lobby shows how to start a game on its first screen', async () => {
    await B.page.goto(`${base}/`);
    await B.page.waitForSelector('#computer-form');
    const where = await B.page.evaluate(() => {
      const box = (sel) => document.querySelector(sel).getBoundingClientRect();
      return {
        seekButton: box('#create-seek').bottom,
        computerTitle: box('#cpu-title').bottom,
        seeks: box('#seeks-title').top,
        height: window.innerHeight,
      };
    });
    assert.ok(where.seekButton <= where.height, `the seek button is below the first screen: ${JSON.stringify(where)}`);
    assert.equal(await B.page.evaluate(() => document.querySelector('main').innerText.includes('null')), false);
    assert.ok(where.computerTitle <= where.height, `playing the computer is below the first screen: ${JSON.stringify(where)}`);
    await checkLabels(B.page, 'phone lobby');
    await shot(B, 'players2-lobby-phone-zh');
    // The desktop keeps its two columns: the seeks on the left.
    const desktop = await A.page.evaluate(() => {
      const seeks = document.querySelector('#seeks-title').getBoundingClientRect();
      const form = document.querySelector('#seek-title').getBoundingClientRect();
      return { seeksLeft: seeks.left, formLeft: form.left };
    });
    assert.ok(desktop.seeksLeft < desktop.formLeft, 'the desktop lobby kept its columns');
  });

  await step('defects 8 and 14: an English player facing the computer — WXF by default, no opponent chat', async () => {
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#computer-form');
    await A.page.click('[data-level="1"]');
    await A.page.click('#computer-form [data-tc="10+5"]');
    await A.page.selectOption('#cpu-color', 'first');
    await A.page.click('#play-computer');
    await A.page.waitForURL(/\/game\//);
    computerGame = A.page.url().split('/game/')[1];
    await A.page.waitForSelector('#board [data-piece]');
    assert.equal(await A.page.getAttribute('[data-style="wxf"]', 'aria-pressed'), 'true', 'WXF is the English default');
    assert.match(await A.page.getAttribute('#move-input', 'placeholder'), /C2=5/);
    assert.ok(!(await A.page.getAttribute('#move-input', 'placeholder')).includes('炮二平五'));
    await typeMove(A.page, 'h2e2');
    await waitPly(A.page, 2);
    assert.equal(await A.page.textContent('#moves [data-ply="1"]'), 'C2=5');
    assert.equal(await A.page.isVisible('#chat-form'), false, 'no chat with the computer');
    assert.equal(await A.page.isVisible('#chat-title'), false);
    assert.ok(!(await A.page.innerText('main')).includes('Chat with your opponent'));
    // Still a setting: Chinese chosen stays chosen.
    await A.page.click('[data-style="chinese"]');
    assert.equal(await A.page.textContent('#moves [data-ply="1"]'), '炮二平五');
    await A.page.click('[data-style="wxf"]');
    await checkLabels(A.page, 'computer game');
    await shot(A, 'players2-computer-game-en');
  });

  await step('defect 3: back in the lobby mid-game — a banner back to it; a seek is not made silently', async () => {
    await A.page.click('#nav a[href="/"]');
    await A.page.waitForSelector('#your-game:not([hidden])');
    assert.equal(await A.page.getAttribute('#your-game a.button', 'href'), `/game/${computerGame}`);
    assert.match(await A.page.textContent('#your-game'), /Computer|computer/);
    const banner = await A.page.evaluate(() => document.querySelector('#your-game').getBoundingClientRect().top);
    assert.ok(banner < 300, 'the banner is at the top of the lobby');
    await checkLabels(A.page, 'lobby with a game running');
    await shot(A, 'players2-lobby-your-game-en');
    await A.page.click('#create-seek');
    await A.page.waitForSelector('#seek-busy:not([hidden])');
    assert.match(await A.page.textContent('#seek-busy'), /game in progress/);
    await A.page.waitForTimeout(500);
    const seeks = await A.page.evaluate(() => fetch('/api/seeks').then((r) => r.json()));
    assert.ok(!seeks.some((s) => s.player === nameA), 'no seek was made');
    await shot(A, 'players2-seek-while-playing-en');
    await A.page.click('#seek-busy-back');
    await A.page.waitForURL(new RegExp(`/game/${computerGame}$`));
    await A.page.waitForSelector('#board [data-piece]');
  });

  await step('defect 10: the result dialog says "You lost", in the page\'s font', async () => {
    await A.page.click('#resign');
    await A.page.click('#resign-confirm');
    await A.page.waitForSelector('#end-dialog[open]');
    assert.equal(await A.page.textContent('#end-you'), 'You lost');
    assert.equal(await A.page.textContent('#end-title'), 'Black wins');
    const fonts = await A.page.evaluate(() => ({
      body: getComputedStyle(document.body).fontFamily,
      dialog: getComputedStyle(document.querySelector('#end-dialog')).fontFamily,
      reason: getComputedStyle(document.querySelector('#end-reason')).fontFamily,
    }));
    assert.equal(fonts.dialog, fonts.body, JSON.stringify(fonts));
    assert.equal(fonts.reason, fonts.body, JSON.stringify(fonts));
    await checkLabels(A.page, 'end dialog');
    await shot(A, 'players2-end-lost-en');
    await A.page.click('#end-close');
    // The game is over: the lobby's banner is gone.
    await A.page.click('#nav a[href="/"]');
    await A.page.waitForSelector('#seek-form');
    await A.page.waitForTimeout(500);
    assert.equal(await A.page.isVisible('#your-game'), false);
  });

  await step('defect 1: on a phone the replay scrolls its move list, not the page', async () => {
    await B.page.goto(`${base}/replay/${computerGame}`);
    await B.page.waitForSelector('#moves [data-ply]');
    await B.page.waitForTimeout(300);
    assert.equal((await scrolls(B.page)).page, 0, 'the replay opened scrolled down');
    for (const button of ['#first', '#next', '#next', '#prev', '#last']) {
      await B.page.click(button);
      assert.equal(await B.page.evaluate(() => Math.round(window.scrollY)), 0, `the page scrolled at ${button}`);
      await B.page.evaluate(() => window.scrollTo(0, 0));
    }
    await shot(B, 'players2-replay-phone-zh');
  });

  await step('defect 1: on a phone the analysis board steps a long line without scrolling the page', async () => {
    const line = quietLine(80);
    await B.page.goto(`${base}/analysis?variant=xiangqi/cxa&moves=${line.join(',')}`);
    await B.page.waitForSelector('#moves [data-ply="80"]');
    await B.page.waitForTimeout(300);
    let s = await scrolls(B.page);
    assert.equal(s.page, 0, 'the analysis board opened scrolled down');
    assert.ok(s.list > 0, 'the move list scrolled to the last move');
    for (let i = 0; i < 30; i++) await B.page.keyboard.press('ArrowLeft');
    await B.page.waitForTimeout(200);
    s = await scrolls(B.page);
    assert.equal(s.page, 0, 'stepping back scrolled the page');
    const current = await B.page.evaluate(() => {
      const box = document.querySelector('#moves').getBoundingClientRect();
      const cur = document.querySelector('#moves .current').getBoundingClientRect();
      return cur.top >= box.top - 1 && cur.bottom <= box.bottom + 1;
    });
    assert.ok(current, 'the current move is in view inside the list');
    await shot(B, 'players2-analysis-phone-zh');
  });

  await step('defect 19: the board\'s characters come from our own font, whatever the machine has', async () => {
    // Xiangqi and shogi boards: their glyphs ask for "qiju board" first,
    // and that face is loaded from the server and holds every character
    // the board draws (a machine without CJK fonts shows the same pieces).
    for (const [variant, selector] of [['xiangqi/cxa', '.xq-glyph'], ['shogi', '.sg-glyph']]) {
      await B.page.goto(`${base}/analysis?variant=${variant}`);
      await B.page.waitForSelector(selector);
      const got = await B.page.evaluate(async (sel) => {
        await document.fonts.ready;
        const glyphs = [...document.querySelectorAll(sel)];
        const text = [...new Set(glyphs.map((g) => g.textContent).join(''))].join('');
        const family = getComputedStyle(glyphs[0]).fontFamily;
        const loaded = await document.fonts.load('700 50px "qiju board"', text);
        return { text, family, faces: loaded.length, covers: document.fonts.check('700 50px "qiju board"', text) };
      }, selector);
      assert.ok(got.text.length >= 7, `${variant}: pieces drawn: ${got.text}`);
      assert.ok(got.family.startsWith('"qiju board"'), `${variant}: the glyphs ask for ${got.family}`);
      assert.ok(got.faces >= 1 && got.covers, `${variant}: "qiju board" does not hold ${got.text}`);
    }
    const font = await B.page.evaluate(() => fetch('/fonts/qiju-board.woff2').then((r) => [r.status, r.headers.get('content-type')]));
    assert.deepEqual(font, [200, 'font/woff2']);
  });

  await step('defect 11: an unknown game has a not-found page and opens no WebSocket', async () => {
    for (const [p, lang] of [[A, 'en'], [B, 'zh']]) {
      const sockets = [];
      const listen = (ws) => sockets.push(ws.url());
      p.page.on('websocket', listen);
      expected.push(/status of 404/);
      await p.page.goto(`${base}/game/doesNotExist`);
      await p.page.waitForSelector('#game-not-found');
      await p.page.waitForTimeout(1500);
      expected.pop();
      p.page.off('websocket', listen);
      assert.deepEqual(sockets.filter((u) => u.includes('/api/games/')), [], 'a game socket was opened');
      assert.equal(await p.page.$$eval('.clock, #chat-form', (els) => els.length), 0, 'no clocks, no chat');
      assert.match(await p.page.textContent('#game-not-found h1'), lang === 'en' ? /No such game/ : /没有这盘对局/);
      assert.match(await p.page.textContent('#game-not-found'), /doesNotExist/);
      await checkLabels(p.page, 'game not found');
      await shot(p, `players2-game-not-found-${lang}`);
    }
  });

  await step('defect 6: a declined draw offer is news of a moment, then gone', async () => {
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#seek-form');
    await A.page.click('#seek-form [data-tc="10+5"]');
    await A.page.selectOption('#seek-color', 'first');
    await A.page.click('#create-seek');
    await B.page.goto(`${base}/`);
    await B.page.click(`.accept-seek[data-player="${nameA}"]`);
    await A.page.waitForURL(/\/game\//);
    await B.page.waitForURL(/\/game\//);
    humanGame = A.page.url().split('/game/')[1];
    await A.page.waitForSelector('#board [data-piece]');
    await B.page.waitForSelector('#board [data-piece]');
    // Two people: the chat is there.
    assert.equal(await A.page.isVisible('#chat-form'), true);
    await typeMove(A.page, 'h2e2');
    await waitPly(B.page, 1);
    await A.page.click('#draw-offer');
    await B.page.waitForSelector('#draw-decline');
    await B.page.click('#draw-decline');
    await A.page.waitForFunction(() => document.querySelector('#notice:not([hidden])')?.textContent.includes('declined'));
    await shot(A, 'players2-draw-declined-en');
    const t0 = Date.now();
    await A.page.waitForSelector('#notice', { state: 'hidden', timeout: 8000 });
    assert.ok(Date.now() - t0 > 2000, 'the notice stayed a few seconds');
    // And a move clears it at once.
    await typeMove(B.page, 'h9g7');
    await waitPly(A.page, 2);
    await B.page.click('#draw-offer');
    await A.page.click('#draw-decline');
    await B.page.waitForFunction(() => document.querySelector('#notice:not([hidden])')?.textContent.includes('拒绝'));
    await typeMove(A.page, 'h0g2');
    await waitPly(B.page, 3);
    assert.equal(await B.page.isVisible('#notice'), false, 'the next move cleared the notice');
  });

  await step('defect 10: the winner reads "你赢了", the loser "You lost"', async () => {
    await A.page.click('#resign');
    await A.page.click('#resign-confirm');
    await B.page.waitForSelector('#end-dialog[open]');
    assert.equal(await B.page.textContent('#end-you'), '你赢了');
    assert.equal(await B.page.textContent('#end-title'), '黑胜');
    await A.page.waitForSelector('#end-dialog[open]');
    assert.equal(await A.page.textContent('#end-you'), 'You lost');
    await checkLabels(B.page, 'end dialog on a phone');
    await shot(B, 'players2-end-won-phone-zh');
  });

  await step('defect 7: English words on the profile — "No title yet", "1 loss", not "1 losses"', async () => {
    await A.page.goto(`${base}/@/${nameA}`);
    await A.page.waitForSelector('#profile-record');
    assert.equal(await A.page.textContent('#profile-title b, #profile-title'), await A.page.textContent('#profile-title'));
    assert.match(await A.page.textContent('#profile-title'), /No title yet/);
    assert.ok(!(await A.page.textContent('main')).includes('无称号'));
    assert.match(await A.page.textContent('#profile-record'), /0 wins · 0 draws · 2 losses/);
    // B won once: "1 win", and against A "1 win" too.
    await A.page.goto(`${base}/@/${nameB}`);
    await A.page.waitForSelector('#record-vs');
    const record = await A.page.textContent('#profile-record');
    assert.ok(!/1 (wins|draws|losses)/.test(record), record);
    assert.match(record, /1 win · 0 draws · 0 losses/);
    await shot(A, 'players2-profile-en');
  });

  await step('defect 9: a Challenge button on a profile; a rated challenge; "no player named X"', async () => {
    await A.page.goto(`${base}/@/${nameB}`);
    await A.page.click('#profile-challenge');
    await A.page.waitForSelector('#challenge-form');
    assert.equal(await A.page.inputValue('#challenge-name'), nameB);
    assert.equal(await A.page.isEnabled('#challenge-rated'), true);
    await A.page.check('#challenge-rated');
    await A.page.click('#send-challenge');
    await A.page.waitForSelector('#challenges [data-challenge]');
    const sent = await A.page.evaluate(() => fetch('/api/challenges').then((r) => r.json()));
    assert.equal(sent.length, 1);
    assert.equal(sent[0].rated, true, 'the challenge is rated');
    assert.match(await A.page.textContent('#challenges'), /rated/i);
    await B.page.waitForSelector('.toast');
    assert.match(await B.page.textContent('.toast'), /积分/);
    await A.page.click('#challenges [data-challenge] button');
    const nobody = `nobody${stamp}`;
    await A.page.fill('#challenge-name', nobody);
    expected.push(/status of 404/);
    await A.page.click('#send-challenge');
    await A.page.waitForFunction(() => document.querySelector('#challenge-message')?.textContent.length > 0);
    await A.page.waitForTimeout(200);
    expected.pop();
    assert.equal(await A.page.textContent('#challenge-message'),
      `There is no player named “${nobody}”. Check the spelling, or find them under Players.`);
    await checkLabels(A.page, 'challenge form');
    await A.page.locator('#challenge-form').screenshot({ path: path.join(shots, 'players2-challenge-en.png') });
    // No Challenge button on one's own profile.
    await A.page.goto(`${base}/@/${nameA}`);
    await A.page.waitForSelector('#profile-record');
    assert.equal(await A.page.$('#profile-challenge'), null);
  });

  await step('defect 15: byo-yomi in words — the seek list, the info line, the clock with its periods', async () => {
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#seek-form');
    await A.page.fill('#seek-time', '5|30s x3');
    await A.page.uncheck('#seek-rated');
    await A.page.click('#create-seek');
    await A.page.waitForSelector('.cancel-seek');
    await B.page.goto(`${base}/`);
    await B.page.waitForSelector(`tr[data-seek] .accept-seek[data-player="${nameA}"]`);
    const row = (p) => p.page.$eval(`#seek-rows tr`, (tr) => tr.children[3].textContent);
    assert.equal(await row(A), '5 min + byo-yomi 3 × 30 s');
    assert.equal(await row(B), '5 分钟 + 读秒 3 次 × 30 秒');
    await A.page.click('.cancel-seek');
    await A.page.waitForSelector('#no-seeks:not([hidden])');
    // Against the computer at 1|10s: one period of 10 s after a minute.
    await A.page.fill('#cpu-time', '1|10s');
    await A.page.click('#play-computer');
    await A.page.waitForURL(/\/game\//);
    await A.page.waitForSelector('#board [data-piece]');
    await A.page.waitForFunction(() => document.querySelector('#game-info')?.textContent.includes('Casual'));
    const info = await A.page.textContent('#game-info');
    assert.ok(!info.includes('|'), info);
    assert.match(info, /1 min \+ byo-yomi 10 s/);
    const clocks = await A.page.$$eval('.clock', (els) => els.map((e) => e.innerText.replace(/\s+/g, ' ')));
    for (const c of clocks) assert.match(c, /1:00 byo-yomi 10 s × 1/);
    await shot(A, 'players2-byoyomi-en');
    await A.page.click('#resign');
    await A.page.click('#resign-confirm');
    await A.page.waitForSelector('#end-dialog[open]');
  });

  await step('defect 12: one rule set per game for a newcomer, the rest under "more"', async () => {
    for (const [p, lang] of [[A, 'en'], [B, 'zh']]) {
      await p.page.goto(`${base}/`);
      await p.page.waitForSelector('#seek-form');
      for (const form of ['seek', 'cpu', 'challenge']) {
        const menu = await p.page.$eval(`#${form}-variant`, (sel) => ({
          main: [...sel.querySelectorAll(':scope > option')].map((o) => [o.value, o.textContent]),
          more: [...sel.querySelectorAll('optgroup option')].map((o) => o.value),
          label: sel.querySelector('optgroup')?.label,
        }));
        const xiangqi = menu.main.filter(([v]) => v.startsWith('xiangqi/'));
        assert.deepEqual(xiangqi, [['xiangqi/cxa', lang === 'en' ? 'Xiangqi' : '中国象棋']], `${form}: ${JSON.stringify(menu)}`);
        for (const v of ['xiangqi/wxf', 'xiangqi/asian', 'xiangqi/simple']) assert.ok(menu.more.includes(v), `${form}: ${v} under more`);
        assert.equal(menu.label, lang === 'en' ? 'More rule sets' : '更多规则');
        assert.equal(await p.page.inputValue(`#${form}-variant`), 'xiangqi/cxa', 'the default is chosen');
      }
      // The arbiter's rules profile waits under "More options".
      assert.equal(await p.page.isVisible('#challenge-rules'), false);
      await p.page.click('#challenge-more summary');
      assert.equal(await p.page.isVisible('#challenge-rules'), true);
      await checkLabels(p.page, `lobby (${lang})`);
      await p.page.locator('#challenge-form').screenshot({ path: path.join(shots, `players2-challenge-more-${lang}.png`) });
    }
  });

  await step('defect 18: small things — no replay of an aborted game, no right-drag hint on a phone, guests named in Chinese, our reason for a bad name', async () => {
    // An aborted game without a move: nothing to replay or download.
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#computer-form');
    await A.page.selectOption('#cpu-color', 'first');
    await A.page.click('#play-computer');
    await A.page.waitForURL(/\/game\//);
    await A.page.waitForSelector('#abort');
    await A.page.click('#abort');
    await A.page.waitForSelector('#end-dialog[open]');
    assert.equal(await A.page.textContent('#end-title'), 'Game aborted');
    assert.equal(await A.page.$$eval('#end-dialog a[href^="/replay/"], #to-replay', (els) => els.length), 0, 'a replay of nothing');
    await A.page.click('#end-close');
    // The right-drag hint is for a mouse.
    await A.page.goto(`${base}/analysis`);
    await A.page.waitForSelector('#arrows-hint');
    assert.equal(await A.page.isVisible('#arrows-hint'), true);
    await B.page.goto(`${base}/analysis`);
    await B.page.waitForSelector('#board [data-piece]');
    assert.equal(await B.page.isVisible('#arrows-hint'), false, 'a phone has no right button');
    // A guest's name in the reader's language, wherever it is shown.
    const G = await person('guest (zh)', 'zh-CN');
    await G.page.goto(`${base}/`);
    await G.page.click('#lobby-guest');
    await G.page.waitForFunction(() => document.querySelector('#nav .me')?.textContent.startsWith('游客-'));
    const guest = await G.page.evaluate(() => fetch('/api/account').then((r) => r.json()).then((a) => a.name));
    assert.match(guest, /^Guest-/);
    await G.page.fill('#seek-time', '3+2');
    await G.page.click('#create-seek');
    await B.page.goto(`${base}/`);
    await B.page.waitForSelector(`.accept-seek[data-player="${guest}"]`);
    assert.equal(await B.page.textContent(`tr:has(.accept-seek[data-player="${guest}"]) td a`), `游客-${guest.slice(6)}`);
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector(`.accept-seek[data-player="${guest}"]`);
    assert.equal(await A.page.textContent(`tr:has(.accept-seek[data-player="${guest}"]) td a`), guest);
    await G.page.click('.cancel-seek');
    await G.context.close();
    // A name the server would refuse: our reason, not the browser's.
    const R = await person('newcomer (en)', 'en-US');
    await R.page.goto(`${base}/register`);
    await R.page.fill('#login-name', 'bad name!');
    await R.page.fill('#login-password', 'correct horse battery');
    await R.page.click('#login-submit');
    assert.equal(await R.page.$eval('#login-name', (e) => e.validationMessage),
      'A name has 2–20 letters (any script), digits, _ or - — no spaces or other signs.');
    await R.page.fill('#login-name', 'x');
    await R.page.click('#login-submit');
    assert.equal(await R.page.$eval('#login-name', (e) => e.validationMessage), 'A name has 2 to 20 characters.');
    await R.context.close();
  });

  await step('defect 13: TV skips a game its player has left', async () => {
    const G = await person('guest at the computer (en)', 'en-US');
    await G.page.goto(`${base}/`);
    await G.page.click('#lobby-guest');
    await G.page.waitForSelector('#nav .me');
    await G.page.waitForSelector('#play-computer:not([disabled])');
    await G.page.click('#play-computer');
    await G.page.waitForURL(/\/game\//);
    const left = G.page.url().split('/game/')[1];
    await G.page.waitForSelector('#board [data-piece]');
    const live = () => A.page.evaluate(() => fetch('/api/games/live').then((r) => r.json()).then((l) => l.games.map((g) => g.id)));
    assert.ok((await live()).includes(left), 'the game is on while its player is there');
    await G.context.close();
    const t0 = Date.now();
    while ((await live()).includes(left)) {
      assert.ok(Date.now() - t0 < 5000, 'the deserted game is still offered');
      await A.page.waitForTimeout(100);
    }
    await A.page.goto(`${base}/tv`);
    await A.page.waitForTimeout(1000);
    assert.ok(!A.page.url().includes(left), 'TV showed a game nobody is playing');
  });

  await step('defect 16: a provisional rating is marked, its pool named, and kept off the leaderboard', async () => {
    await A.page.goto(`${base}/@/${nameB}`);
    await A.page.waitForSelector('#profile-rating');
    const shown = await A.page.textContent('#profile-rating');
    assert.match(shown, /^\d+\?$/, `provisional: ${shown}`);
    assert.equal(await A.page.textContent('.stat:has(#profile-rating) .muted'), 'Rating · Xiangqi');
    assert.equal(await A.page.isVisible('#profile-provisional'), true);
    const user = await A.page.evaluate((n) => fetch(`/api/users/${n}`).then((r) => r.json()), nameB);
    assert.equal(user.provisional, true);
    assert.equal(user.pool, 'xiangqi');
    await A.page.screenshot({ path: path.join(shots, 'players2-profile-provisional-en.png') });
    await B.page.goto(`${base}/@/${nameB}`);
    await B.page.waitForSelector('#profile-rating');
    assert.equal(await B.page.textContent('.stat:has(#profile-rating) .muted'), '等级分 · 中国象棋');
    await shot(B, 'players2-profile-provisional-phone-zh');
    await A.page.goto(`${base}/players`);
    await A.page.waitForSelector('#leaderboard tr');
    await A.page.waitForTimeout(300);
    const board = await A.page.$$eval('#leaderboard tr', (trs) => trs.map((tr) => tr.children[1]?.textContent));
    assert.ok(!board.includes(nameA) && !board.includes(nameB), `provisional players on the board: ${board}`);
    const api = await A.page.evaluate(() => fetch('/api/leaderboard/xiangqi').then((r) => r.json()));
    assert.ok(!api.some((r) => r.name === nameA || r.name === nameB));
    await shot(A, 'players2-leaderboard-en');
  });

  await A.context.close();
  await B.context.close();
} finally {
  await browser.close();
}

finish('players2');
