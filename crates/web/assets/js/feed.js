// The lobby feed: one WebSocket to /api/lobby/ws for the whole app. It
// carries the seek list (`seeks`, `seek_added`, `seek_removed`) and the
// player's own events (`game_start`, `challenge`, `challenge_declined`),
// so a challenge or a started game reaches the player on any page.

import { Socket } from './socket.js';

let socket = null;
const listeners = new Set();
let seeks = [];

function dispatch(msg) {
  if (msg.t === 'seeks') seeks = msg.seeks || [];
  else if (msg.t === 'seek_added' && msg.seek) seeks = [...seeks.filter((s) => s.id !== msg.seek.id), msg.seek];
  else if (msg.t === 'seek_removed') seeks = seeks.filter((s) => s.id !== msg.id);
  for (const f of listeners) f(msg);
}

/** (Re)opens the feed, e.g. after logging in or out (the server knows
 *  who listens by the session cookie at connection time). */
export function restartFeed() {
  if (socket) socket.stop();
  socket = new Socket('/api/lobby/ws', { onMessage: dispatch });
}

/** The open seeks as last heard. */
export function currentSeeks() {
  return seeks;
}

/** Calls `f(msg)` for every feed message; returns the unsubscriber. */
export function onFeed(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}
