// The lobby feed: one WebSocket to /api/lobby/ws for the whole app. It
// carries the seek list (`seeks`, `seek_added`, `seek_removed`) and the
// player's own events (`game_start`, `challenge`, `challenge_declined`,
// `notice`), so a challenge, a notice or a started game reaches the player
// on any page — and
// the lobby chat (`chat_history` on connecting, then `chat`).

import { Socket } from './socket.js';

let socket = null;
const listeners = new Set();
let seeks = [];
let chat = [];

function dispatch(msg) {
  if (msg.t === 'chat_history') chat = msg.lines || [];
  else if (msg.t === 'chat' && msg.room === 'lobby') chat = [...chat.slice(-49), msg];
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

/** The lobby chat's lines as last heard, oldest first. */
export function lobbyChat() {
  return chat;
}

/** Sends a message on the feed (a lobby chat line: `{ t: 'chat', text }`). */
export function sendFeed(msg) {
  if (socket) socket.send(msg);
}

/** Calls `f(msg)` for every feed message; returns the unsubscriber. */
export function onFeed(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}
