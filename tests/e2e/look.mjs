// Issue 30, second round, items 6 and 7: sharing a game (copy FEN, copy
// the link, the board as a PNG for every board, the PGN in Chinese) and the
// settings (board size, themes, piece sets, chess letters, move
// confirmation, the header's sound switch), in a real headless Chromium
// (Debian's) driven by playwright-core against a running `qiju serve`:
//
//   node tests/e2e/look.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs after players2.mjs. Environment
// as for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS). A plays in English on
// a desktop (1280×900), B in Chinese on a phone (390×844, touch). Every
// step checks what the feature does — the clipboard's text against the
// server's FEN, the PNG's bytes and size, the downloaded record's moves,
// the board's width, computed colours and the glyphs shown, the server's
// ply while a move waits for its ✓ — and the screenshots are look-*.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { call as request, checkLabels, setUp, waitPly, PHONE } from './harness.mjs';

const { base, shots, browser, step, person, register, shot, finish } = await setUp('look.mjs', {
  acceptDownloads: true,
  emulatePhones: true,
  keepGoing: process.env.QIJU_E2E_KEEP_GOING === '1',
});

/** The API from the page, as the page's own code asks it; a refusal
 *  fails the step. */
async function call(page, method, url, body) {
  const r = await request(page, method, url, body);
  if (r.status < 200 || r.status > 299) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A game of `variant` between A (first) and B, started by a challenge. */
async function newGame(A, B, nameB, variant) {
  const c = await call(A.page, 'POST', '/api/challenges', {
    to: nameB, variant, time: '10+5', rated: false, color: 'first',
  });
  const started = await call(B.page, 'POST', `/api/challenges/${c.id}/accept`);
  return started.game;
}

async function openGame(p, id) {
  await p.page.goto(`${base}/game/${id}`);
  await p.page.waitForSelector('#board svg');
  await p.page.waitForFunction(() => !document.querySelector('#status')?.textContent.match(/connect|连接/i));
}

async function clickMove(page, move) {
  await page.click(`#board .xq-hits [data-square="${move.slice(0, 2)}"]`);
  await page.waitForSelector(`#board [data-dest="${move.slice(2, 4)}"]`);
  await page.click(`#board .xq-hits [data-square="${move.slice(2, 4)}"]`);
}

const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

/** Clicks a copy button and waits for its "copied". */
async function copyWith(page, selector) {
  await page.evaluate(() => { document.querySelector('#export-said').textContent = ''; });
  await page.click(selector);
  await page.waitForFunction(() => /Copied|已复制/.test(document.querySelector('#export-said').textContent));
  return clipboard(page);
}

/** Width and height of a PNG, from its header (and that it is one). */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
  assert.equal(bytes.toString('ascii', 12, 16), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * Saves the board as a PNG with the page's button and checks the file:
 * its name, a PNG twice the size of what the board draws on the screen
 * (Xiangqi and chess: exactly twice their SVG; shogi's hands are
 * around its board), and a picture (many colours, not a blank).
 * Kept as docs/screenshots/look-board-NAME.png.
 */
async function boardPng(p, id, ply, name, { exact = true } = {}) {
  const [download] = await Promise.all([p.page.waitForEvent('download'), p.page.click('#board-png')]);
  assert.equal(download.suggestedFilename(), `qiju-${id}-${ply}.png`);
  const bytes = fs.readFileSync(await download.path());
  const size = pngSize(bytes);
  const box = await p.page.evaluate(() => {
    const twice = (r) => ({ width: Math.round(r.width * 2), height: Math.round(r.height * 2) });
    const svgs = [...document.querySelectorAll('#board svg')].filter((s) => !s.parentElement.closest('svg'));
    const main = svgs.map((s) => s.getBoundingClientRect()).sort((a, b) => b.width * b.height - a.width * a.height)[0];
    return { board: twice(main), all: twice(document.querySelector('#board').getBoundingClientRect()) };
  });
  if (exact) {
    assert.deepEqual(size, box.board, `${name}: the image has the board's size (×2)`);
  } else {
    for (const k of ['width', 'height']) {
      assert.ok(size[k] >= box.board[k] && size[k] <= box.all[k] + 1, `${name}: ${k} ${size[k]} not in ${JSON.stringify(box)}`);
    }
  }
  const colours = await p.page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, bytes.toString('base64'));
  assert.ok(colours > 20, `${name}: the image is a picture, not a blank (${colours} colours)`);
  fs.writeFileSync(path.join(shots, `look-board-${name}.png`), bytes);
}

/** Sets one setting on the settings page and waits until it is applied. */
async function setSetting(p, selector, value) {
  await p.page.goto(`${base}/settings`);
  await p.page.waitForSelector(selector);
  await p.page.selectOption(selector, value);
  await p.page.waitForFunction(() => document.querySelector('#settings-status').textContent.length > 0);
}

/** The text shown on a piece (the one glyph the stylesheet leaves visible). */
const shownGlyph = (page, piece) => page.evaluate((pc) => {
  const g = document.querySelector(`#board [data-piece="${pc}"]`);
  return [...g.querySelectorAll('text')].filter((t) => getComputedStyle(t).display !== 'none').map((t) => t.textContent);
}, piece);

const fillOf = (page, selector) => page.evaluate((s) => getComputedStyle(document.querySelector(s)).fill, selector);
const boardWidth = (page) => page.evaluate(() => document.querySelector('#board').getBoundingClientRect().width);

/** Switches the page's language (as the header's switch does) and reloads. */
async function language(p, lang) {
  await p.page.evaluate((l) => localStorage.setItem('qiju.lang', l), lang);
  await p.page.reload();
}

const stamp = Date.now().toString(36).slice(-5);
const nameA = `lka${stamp}`;
const nameB = `lkb${stamp}`;
let game = null;

try {
  const A = await person('A (en, desktop)', 'en-US');
  const B = await person('B (zh, phone)', 'zh-CN', PHONE);
  for (const p of [A, B]) await p.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });

  await step('two players register; a Xiangqi game between them', async () => {
    await register(A, nameA);
    await register(B, nameB);
    game = await newGame(A, B, nameB, 'xiangqi/cxa');
    await openGame(A, game);
    await openGame(B, game);
  });

  await step('sound is on by default, switched in the header, and the switch is remembered', async () => {
    const inHeader = await A.page.evaluate(() => !!document.querySelector('header #sound-switch'));
    assert.ok(inHeader, 'the switch is in the header');
    assert.equal(await A.page.getAttribute('#sound-switch', 'aria-pressed'), 'true', 'on by default');
    await A.page.click('#sound-switch');
    assert.equal(await A.page.getAttribute('#sound-switch', 'aria-pressed'), 'false');
    await A.page.reload();
    await A.page.waitForSelector('#sound-switch');
    assert.equal(await A.page.getAttribute('#sound-switch', 'aria-pressed'), 'false', 'still off after a reload');
    assert.equal(await A.page.evaluate(() => localStorage.getItem('qiju.sound')), 'off');
    await A.page.click('#sound-switch');
    assert.equal(await A.page.getAttribute('#sound-switch', 'aria-pressed'), 'true');
    assert.equal(await B.page.isVisible('header #sound-switch'), true, 'visible on a phone too');
  });

  await step('copy FEN and copy link: the clipboard holds the server\'s FEN and the page\'s address', async () => {
    await openGame(A, game);
    await clickMove(A.page, 'h2e2');
    await waitPly(A.page, 1);
    await B.page.fill('#move-input', 'h9g7');
    await B.page.press('#move-input', 'Enter');
    await waitPly(A.page, 2);
    const server = await call(A.page, 'GET', `/api/games/${game}`);
    assert.equal(server.ply, 2);
    assert.equal(await copyWith(A.page, '#copy-fen'), server.fen);
    assert.equal(await copyWith(A.page, '#copy-link'), A.page.url());
    assert.equal(await copyWith(B.page, '#copy-fen'), server.fen, 'on the phone too');
    await checkLabels(A.page, 'game page with the export controls');
  });

  await step('the board as a PNG: a picture of the board\'s size, named by game and ply (Xiangqi)', async () => {
    await boardPng(A, game, 2, 'xiangqi');
  });

  await step('move confirmation on: a move made on the board is not sent until ✓', async () => {
    await setSetting(A, '#setting-confirm', 'on');
    await openGame(A, game);
    await clickMove(A.page, 'h0g2');
    await A.page.waitForSelector('#confirm-move:not([hidden])');
    assert.match(await A.page.textContent('#confirm-text'), /Play/);
    // The move is shown on the board but the server has not had it.
    await A.page.waitForSelector('#board [data-square="g2"][data-piece="N"]');
    await A.page.waitForTimeout(600);
    assert.equal((await call(A.page, 'GET', `/api/games/${game}`)).ply, 2, 'not sent before ✓');
    await shot(A, 'look-confirm-en');
    // ✗ takes it back.
    await A.page.click('#confirm-no');
    await A.page.waitForSelector('#confirm-move[hidden]', { state: 'attached' });
    await A.page.waitForSelector('#board [data-square="h0"][data-piece="N"]');
    assert.equal((await call(A.page, 'GET', `/api/games/${game}`)).ply, 2);
    // ✓ sends it.
    await clickMove(A.page, 'h0g2');
    await A.page.click('#confirm-yes');
    await waitPly(A.page, 3);
    assert.equal((await call(A.page, 'GET', `/api/games/${game}`)).ply, 3, 'sent after ✓');
  });

  await step('move confirmation "phones only": asked on the phone, not on the desktop', async () => {
    await setSetting(B, '#setting-confirm', 'phones');
    await openGame(B, game);
    await clickMove(B.page, 'b9c7');
    await B.page.waitForSelector('#confirm-move:not([hidden])');
    await B.page.waitForTimeout(400);
    assert.equal((await call(B.page, 'GET', `/api/games/${game}`)).ply, 3, 'not sent before ✓');
    await shot(B, 'look-confirm-phone-zh');
    await B.page.click('#confirm-yes');
    await waitPly(B.page, 4);
    await setSetting(A, '#setting-confirm', 'phones');
    await openGame(A, game);
    await clickMove(A.page, 'b0c2');
    await waitPly(A.page, 5);
    assert.equal(await A.page.isVisible('#confirm-move'), false, 'a desktop is not asked');
    await setSetting(A, '#setting-confirm', 'off');
    await setSetting(B, '#setting-confirm', 'off');
  });

  await step('the replay: the PGN in Chinese, the shown position\'s FEN, its PNG', async () => {
    await call(B.page, 'POST', `/api/games/${game}/resign`);
    await A.page.goto(`${base}/replay/${game}`);
    await A.page.waitForSelector('#pgn-chinese');
    const [download] = await Promise.all([A.page.waitForEvent('download'), A.page.click('#pgn-chinese')]);
    assert.equal(download.suggestedFilename(), `qiju-${game}-chinese.pgn`);
    const pgn = fs.readFileSync(await download.path(), 'utf8');
    assert.match(pgn, /\[Format "Chinese"\]/);
    assert.match(pgn, /1\. 炮二平五 .*马８进７/s, pgn);
    assert.ok(pgn.includes('马二进三') && pgn.includes('马２进３') && pgn.includes('马八进七'), pgn);
    assert.ok(pgn.includes(`[Red "${nameA}"]`) && pgn.includes('1-0'), pgn);
    const [usual] = await Promise.all([A.page.waitForEvent('download'), A.page.click('#pgn')]);
    assert.equal(usual.suggestedFilename(), `qiju-${game}.pgn`);
    assert.match(fs.readFileSync(await usual.path(), 'utf8'), /1\. h2e2/);
    // Ply 1: the FEN is the server's for that position.
    await A.page.click('#first');
    await A.page.click('#next');
    const server = await call(A.page, 'POST', '/api/analysis/position', {
      variant: 'xiangqi/cxa', moves: ['h2e2'],
    });
    assert.equal(await copyWith(A.page, '#copy-fen'), server.fen);
    assert.equal(await copyWith(A.page, '#copy-link'), `${base}/replay/${game}`);
    await boardPng(A, game, 1, 'xiangqi-replay');
    await checkLabels(A.page, 'replay with the export controls');
    await shot(A, 'look-replay-en');
  });

  await step('board size: small, medium and large change the board\'s width; a phone never overflows', async () => {
    const widths = {};
    for (const size of ['small', 'medium', 'large']) {
      await setSetting(A, '#setting-size', size);
      await A.page.goto(`${base}/replay/${game}`);
      await A.page.waitForSelector('#board svg');
      widths[size] = await boardWidth(A.page);
    }
    assert.ok(widths.small < widths.medium && widths.medium < widths.large, `widths: ${JSON.stringify(widths)}`);
    await setSetting(B, '#setting-size', 'large');
    await B.page.goto(`${base}/replay/${game}`);
    await B.page.waitForSelector('#board svg');
    const phone = await B.page.evaluate(() => ({
      board: document.querySelector('#board').getBoundingClientRect().right,
      screen: window.innerWidth,
      scrolls: document.documentElement.scrollWidth > window.innerWidth,
    }));
    assert.ok(phone.board <= phone.screen && !phone.scrolls, `the phone's board overflows: ${JSON.stringify(phone)}`);
    await setSetting(A, '#setting-size', 'medium');
    await setSetting(B, '#setting-size', 'medium');
  });

  await step('Xiangqi themes and piece sets change the colours and the glyphs drawn', async () => {
    const look = async () => {
      await A.page.goto(`${base}/replay/${game}`);
      await A.page.waitForSelector('#board [data-piece="K"]');
      return {
        wood: await fillOf(A.page, '#board .xq-wood'),
        disc: await fillOf(A.page, '#board [data-piece="K"] .xq-disc'),
        king: await shownGlyph(A.page, 'K'),
        rook: await shownGlyph(A.page, 'r'),
      };
    };
    const wood = await look();
    assert.deepEqual([wood.king, wood.rook], [['帅'], ['车']]);
    await setSetting(A, '#setting-theme', 'green');
    const green = await look();
    await setSetting(A, '#setting-theme', 'paper');
    const paper = await look();
    const woods = new Set([wood.wood, green.wood, paper.wood]);
    assert.equal(woods.size, 3, `three board colours: ${[...woods]}`);
    assert.equal(paper.wood, 'rgb(253, 252, 247)');
    await setSetting(A, '#setting-pieces', 'traditional');
    const trad = await look();
    assert.deepEqual([trad.king, trad.rook], [['帥'], ['車']]);
    await shot(A, 'look-traditional-paper-en');
    await setSetting(A, '#setting-theme', 'wood');
    await setSetting(A, '#setting-pieces', 'outlined');
    const outlined = await look();
    assert.deepEqual(outlined.king, ['帅']);
    assert.equal(outlined.disc, 'rgb(255, 255, 255)', 'white discs');
    assert.notEqual(wood.disc, outlined.disc);
    const glyph = await A.page.evaluate(() => {
      const t = document.querySelector('#board [data-piece="K"] .xq-glyph');
      return [getComputedStyle(t).fill, getComputedStyle(t).stroke];
    });
    assert.deepEqual(glyph, ['rgb(255, 255, 255)', 'rgb(179, 38, 30)'], 'red characters outlined');
    await boardPng(A, game, 5, 'xiangqi-outlined');
    await setSetting(A, '#setting-pieces', 'letters');
    assert.deepEqual((await look()).king, ['K']);
    await setSetting(A, '#setting-pieces', 'chinese');
  });

  await step('chess: the letter set replaces the drawings; the green theme colours the squares; its PNG', async () => {
    const chess = await newGame(A, B, nameB, 'chess/standard');
    await openGame(A, chess);
    const cburnett = await A.page.evaluate(() => {
      const k = document.querySelector('#board [data-piece="K"]');
      return [getComputedStyle(k.querySelector('image')).display, getComputedStyle(k.querySelector('.ch-letter')).display];
    });
    assert.deepEqual(cburnett, ['inline', 'none']);
    const brown = await fillOf(A.page, '#board .ch-dark');
    await boardPng(A, chess, 0, 'chess');
    await setSetting(A, '#setting-chess-pieces', 'letters');
    await setSetting(A, '#setting-theme', 'green');
    await openGame(A, chess);
    const letters = await A.page.evaluate(() => {
      const k = document.querySelector('#board [data-piece="K"]');
      return [getComputedStyle(k.querySelector('image')).display, getComputedStyle(k.querySelector('.ch-letter')).display,
        k.querySelector('.ch-letter text').textContent];
    });
    assert.deepEqual(letters, ['none', 'inline', 'K']);
    const green = await fillOf(A.page, '#board .ch-dark');
    assert.notEqual(brown, green);
    assert.equal(green, 'rgb(118, 150, 86)');
    await boardPng(A, chess, 0, 'chess-letters');
    await setSetting(A, '#setting-chess-pieces', 'cburnett');
    await setSetting(A, '#setting-theme', 'wood');
    await call(A.page, 'POST', `/api/games/${chess}/abort`);
  });

  await step('shogi and renju boards save as PNGs too', async () => {
    for (const [variant, name] of [['shogi/standard', 'shogi'], ['renju/rif', 'renju']]) {
      const id = await newGame(A, B, nameB, variant);
      await openGame(A, id);
      await boardPng(A, id, 0, name, { exact: name === 'renju' });
      await call(A.page, 'POST', `/api/games/${id}/abort`);
    }
  });

  await step('settings are kept with the account: a fresh browser reads them back', async () => {
    await setSetting(A, '#setting-size', 'large');
    const saved = await call(A.page, 'GET', '/api/account/settings');
    assert.equal(saved.board_size, 'large');
    assert.equal(saved.move_confirmation, 'off');
    await setSetting(A, '#setting-size', 'medium');
  });

  await step('screenshots: the game page and the settings page, desktop and phone, English and Chinese', async () => {
    for (const [p, where] of [[A, ''], [B, '-phone']]) {
      for (const lang of ['en', 'zh']) {
        await p.page.goto(`${base}/replay/${game}`);
        await language(p, lang);
        await p.page.waitForSelector('#board svg');
        await p.page.evaluate(() => document.querySelector('.export-tools')?.scrollIntoView({ block: 'center' }));
        await shot(p, `look-replay${where}-${lang}`);
        await p.page.goto(`${base}/settings`);
        await p.page.waitForSelector('#setting-confirm');
        await checkLabels(p.page, `settings ${where} ${lang}`);
        await shot(p, `look-settings${where}-${lang}`);
      }
    }
    const g = await newGame(A, B, nameB, 'xiangqi/cxa');
    await openGame(A, g);
    await clickMove(A.page, 'h2e2');
    await waitPly(A.page, 1);
    for (const [p, where] of [[A, ''], [B, '-phone']]) {
      for (const lang of ['en', 'zh']) {
        await p.page.goto(`${base}/game/${g}`);
        await language(p, lang);
        await p.page.waitForSelector('#board svg');
        await p.page.waitForSelector('#copy-fen');
        // On a phone the sharing buttons are under the board: show them.
        if (where) await p.page.evaluate(() => document.querySelector('.export-tools').scrollIntoView({ block: 'center' }));
        await shot(p, `look-game${where}-${lang}`);
      }
    }
    await call(A.page, 'POST', `/api/games/${g}/abort`);
  });

  await A.context.close();
  await B.context.close();
} finally {
  await browser.close();
}

finish('look');
