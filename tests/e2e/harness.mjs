// What every browser script (run.mjs, shogi.mjs, renju.mjs, players2.mjs)
// shares: the server's address from the command line, the screenshot
// folder, Debian's Chromium started headless, named steps counted and
// reported in TAP-like lines, people (a browser context each) whose console
// errors are collected, and the page checks they all make.

import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
const TIMEOUT = 20000;

function findChromium() {
  if (process.env.QIJU_CHROMIUM) return process.env.QIJU_CHROMIUM;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      /* try the next */
    }
  }
  throw new Error('no Chromium: install Debian\'s chromium or set QIJU_CHROMIUM');
}

/**
 * Starts a script: `script` names it in the usage line. Options:
 * `acceptDownloads` for every context; `emulatePhones` (a phone-sized
 * viewport gets touch and a mobile user agent); `keepGoing` (a failed step
 * does not stop the script: to see which later steps fail on an old build).
 */
export async function setUp(script, { acceptDownloads = false, emulatePhones = false, keepGoing = false } = {}) {
  const base = (process.argv[2] || process.env.QIJU_BASE_URL || '').replace(/\/$/, '');
  if (!base) {
    console.error(`usage: node ${script} BASE_URL`);
    process.exit(2);
  }
  const shots = path.resolve(root, process.env.QIJU_SCREENSHOTS || 'docs/screenshots');
  fs.mkdirSync(shots, { recursive: true });
  // playwright-core gives each launch a fresh, temporary --user-data-dir.
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    timeout: 60000,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
      '--no-first-run', '--disable-component-update', '--disable-sync',
    ],
  });
  const tally = { passed: 0, failed: 0 };
  /** Console errors of every page, as `LABEL: …`. */
  const problems = [];
  /** Console errors a step expects (patterns), not counted as problems. */
  const expected = [];

  async function step(name, fn) {
    const t0 = Date.now();
    try {
      await fn();
      tally.passed += 1;
      console.log(`ok - ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      tally.failed += 1;
      console.log(`not ok - ${name}\n  ${String(e.stack || e).split('\n').slice(0, 12).join('\n  ')}`);
      if (!keepGoing) throw e;
    }
  }

  /** A fresh browser context (its own cookies: a separate person). */
  async function person(label, locale, viewport = DESKTOP) {
    const phone = emulatePhones && viewport.width < 600;
    const context = await browser.newContext({
      locale,
      viewport,
      ...(acceptDownloads ? { acceptDownloads: true } : {}),
      ...(phone ? { isMobile: true, hasTouch: true } : {}),
    });
    context.setDefaultTimeout(TIMEOUT);
    const page = await context.newPage();
    // A failed load's console error does not name the resource: the
    // answers with an error status do, so a problem says which one.
    const failed = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.request().method()} ${new URL(r.url()).pathname} → ${r.status()}`);
    });
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      if (expected.some((re) => re.test(m.text()))) return;
      const which = /Failed to load resource/.test(m.text()) && failed.length ? ` (${failed[failed.length - 1]})` : '';
      problems.push(`${label}: console error: ${m.text()}${which}`);
    });
    page.on('pageerror', (e) => problems.push(`${label}: page error: ${e.message}`));
    return { context, page, label };
  }

  /** Registers `name` and waits until the header names them. */
  async function register(p, name, { checkForm = false } = {}) {
    await p.page.goto(`${base}/register`);
    await p.page.fill('#login-name', name);
    await p.page.fill('#login-password', 'correct horse battery');
    if (checkForm) await checkLabels(p.page, `${p.label} register`);
    await p.page.click('#login-submit');
    await p.page.waitForSelector('#seek-form');
    await p.page.waitForFunction((n) => document.querySelector('#nav .me')?.textContent === n, name);
  }

  /** A screenshot of `p`'s page, `NAME.png` in the screenshot folder. */
  async function shot(p, name) {
    await p.page.screenshot({ path: path.join(shots, `${name}.png`) });
  }

  /** Ends a script that ran its steps to the end: the pages' console
   *  problems fail it, then the tally decides the exit status. */
  function finish(script) {
    if (problems.length) {
      console.log(`not ok - the pages logged problems:\n  ${problems.join('\n  ')}`);
      process.exit(1);
    }
    console.log(`# ${script}: ${tally.passed} passed, ${tally.failed} failed`);
    process.exit(tally.failed ? 1 : 0);
  }

  return { base, shots, browser, tally, problems, expected, step, person, register, shot, finish };
}

/** A request to the API from inside the page (its cookie, the CSRF header
 *  the app sends): `{ status, body }`, the body read as JSON (null when
 *  there is none). */
export function call(page, method, url, body) {
  return page.evaluate(async ([m, u, b]) => {
    const r = await fetch(u, {
      method: m,
      headers: { 'content-type': 'application/json', 'x-qiju-csrf': '1' },
      body: b === undefined ? undefined : JSON.stringify(b),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  }, [method, url, body]);
}

const xiangqi = await import(path.join(root, 'crates/web/assets/js/rules/xiangqi.js'));

/** The Xiangqi position the board shows, read from its pieces (the
 *  browser rules module's 90-square array). */
export async function boardPosition(page) {
  const pieces = await page.$$eval('#board [data-piece]', (els) => els.map((e) => [e.dataset.square, e.dataset.piece]));
  const board = new Array(90).fill(null);
  for (const [sq, p] of pieces) board[xiangqi.parseSquare(sq)] = p;
  return board;
}

/** Plays a move by typing it into the move field. */
export async function typeMove(page, move) {
  await page.fill('#move-input', move);
  await page.press('#move-input', 'Enter');
}

/** Every visible control has an accessible name. */
export async function checkLabels(page, where) {
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('button, a[href], select, input:not([type=hidden])')]
    .filter((e) => e.offsetParent !== null || e.closest('dialog[open]'))
    .filter((e) => {
      const label = e.getAttribute('aria-label') || e.textContent.trim() || e.getAttribute('title')
        || (e.id && document.querySelector(`label[for="${e.id}"]`)) || e.closest('label');
      return !label;
    })
    .map((e) => e.outerHTML.slice(0, 120)));
  assert.deepEqual(unnamed, [], `${where}: controls without an accessible name`);
}

/** Waits until the move list's last move is ply `n`. */
export async function waitPly(page, n) {
  await page.waitForFunction((k) => {
    const mvs = document.querySelectorAll('#moves [data-ply]');
    return mvs.length >= k && mvs[mvs.length - 1].dataset.ply === String(k);
  }, n);
}
