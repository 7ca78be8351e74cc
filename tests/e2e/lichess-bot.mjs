// A person in Chromium plays chess against lichess-bot (issue 32): the
// unchanged lichess-bot, connected to qiju with only its `url` changed and
// Stockfish as its engine, accepts the person's challenge and answers
// every move. Not part of CI (lichess-bot is fetched from its public
// repository, never committed): docs/BOTS.md, "lichess-bot against a
// person", gives the steps that start the server and the bot first.
//
//   node tests/e2e/lichess-bot.mjs http://127.0.0.1:18433 BOTNAME
import assert from 'node:assert/strict';
import { setUp, call, typeMove } from './harness.mjs';

const { base, step, person, register, shot, finish } = await setUp('lichess-bot.mjs');
const bot = process.argv[3] || process.env.QIJU_BOT_NAME;
if (!bot) {
  console.error('usage: node tests/e2e/lichess-bot.mjs BASE_URL BOTNAME');
  process.exit(2);
}
const name = `lbp${Date.now().toString(36).slice(-5)}`;
const MOVES = 8;

const P = await person('person (en, desktop)', 'en-US');
await register(P, name);
let game;

await step('the bot is online, and accepts a chess challenge', async () => {
  const status = await call(P.page, 'GET', `/api/users/status?ids=${bot}`);
  assert.equal(status.body[0]?.online, true, `lichess-bot is not online: ${JSON.stringify(status.body)}`);
  assert.equal(status.body[0]?.title, 'BOT');
  const made = await call(P.page, 'POST', '/api/challenges', { to: bot, variant: 'chess', time: '2+1', color: 'first', rated: false });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  // lichess-bot accepts on its event stream; the person is then playing.
  for (let i = 0; i < 100 && !game; i += 1) {
    const playing = await call(P.page, 'GET', '/api/account/playing');
    game = playing.body?.[0]?.id;
    if (!game) await P.page.waitForTimeout(200);
  }
  assert.ok(game, 'lichess-bot did not accept within 20 s');
});

await step(`the person plays ${MOVES} moves in the browser; Stockfish answers each`, async () => {
  await P.page.goto(`${base}/game/${game}`);
  await P.page.waitForSelector('#move-input');
  for (let n = 0; n < MOVES; n += 1) {
    const ply = 2 * n + 1;
    const view = await call(P.page, 'GET', `/api/games/${game}`);
    assert.equal(view.body.state, 'live', `the game ended early: ${view.body.reason}`);
    // A legal move, the one the server lists first that is not a king move
    // into trouble: the server is the authority, the browser only types it.
    const move = view.body.legal[0];
    await typeMove(P.page, move);
    // Stockfish thinks by its clock: seconds, not the harness's usual wait.
    await P.page.waitForFunction((k) => document.querySelectorAll('#moves [data-ply]').length >= k, ply + 1, { timeout: 90000 });
    if (n === 1) await shot(P, 'lichess-bot-playing');
  }
  const view = await call(P.page, 'GET', `/api/games/${game}`);
  const replies = view.body.moves.filter((m) => m.side === 'second').length;
  assert.equal(replies, MOVES, 'Stockfish answered every move');
});

await step('the person resigns; the bot wins and the board says so', async () => {
  assert.equal((await call(P.page, 'POST', `/api/games/${game}/resign`)).status, 200);
  await P.page.waitForFunction(() => /resign/i.test(document.body.innerText));
  await shot(P, 'lichess-bot-resigned');
  const view = await call(P.page, 'GET', `/api/games/${game}`);
  assert.equal(view.body.winner, 'second');
  const pgn = await P.page.evaluate(async (id) => (await fetch(`/game/export/${id}`)).text(), game);
  assert.match(pgn, /\[Black "[^"]+"\]/);
  console.log(pgn);
});

finish('lichess-bot.mjs');
