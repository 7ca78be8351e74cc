// How the boards look and behave: theme, size, Xiangqi and chess piece
// sets, coordinates, move confirmation. Kept in this browser and, for a
// logged-in player, with the account (so they follow the player to every
// browser: GET/PUT /api/account/settings; the server's `Settings` is the
// list of what there is). Applied as classes and a CSS variable on
// <html>, which the stylesheet reads; the boards draw every piece set
// and the class shows one, so a change needs no redraw.

import { api } from './api.js';

const KEY = 'qiju.settings';
export const DEFAULTS = {
  board_theme: 'wood',
  piece_set: 'chinese',
  coordinates: true,
  board_size: 'medium',
  chess_pieces: 'cburnett',
  move_confirmation: 'off',
  takebacks: true,
};
/** Each choice's values, the default first where it has one. */
export const CHOICES = {
  board_theme: ['wood', 'slate', 'green', 'paper'],
  piece_set: ['chinese', 'traditional', 'outlined', 'letters'],
  board_size: ['small', 'medium', 'large'],
  chess_pieces: ['cburnett', 'letters'],
  move_confirmation: ['off', 'on', 'phones'],
};
export const THEMES = CHOICES.board_theme;
export const PIECE_SETS = CHOICES.piece_set;
/** The board's largest width as a share of the medium one. */
const SCALE = { small: 0.75, medium: 1, large: 1.25 };

/** Fills what an older version of these settings lacks with defaults;
 *  null for anything that is not settings. */
function valid(s) {
  if (!s || typeof s !== 'object') return null;
  const out = { ...DEFAULTS, ...s };
  const ok = Object.entries(CHOICES).every(([k, values]) => values.includes(out[k]))
    && typeof out.coordinates === 'boolean';
  return ok ? out : null;
}

/** The settings this browser knows. */
export function current() {
  try {
    return valid(JSON.parse(localStorage.getItem(KEY) || 'null')) || { ...DEFAULTS };
  } catch {
    return { ...DEFAULTS };
  }
}

export function apply(s) {
  const root = document.documentElement;
  for (const theme of THEMES) root.classList.toggle(`theme-${theme}`, s.board_theme === theme && theme !== 'wood');
  for (const set of PIECE_SETS) root.classList.toggle(`pieces-${set}`, s.piece_set === set && set !== 'chinese');
  root.classList.toggle('chess-letters', s.chess_pieces === 'letters');
  root.classList.toggle('no-coords', !s.coordinates);
  root.style.setProperty('--board-scale', String(SCALE[s.board_size] || 1));
}

/** Whether a move made on the board waits for a ✓ before it is sent:
 *  `phones` asks on a touch screen only (a coarse pointer). */
export function confirmMoves(s = current()) {
  if (s.move_confirmation === 'on') return true;
  if (s.move_confirmation !== 'phones') return false;
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}

function remember(s) {
  try {
    localStorage.setItem(KEY, JSON.stringify(s));
  } catch {
    /* private mode: this page only */
  }
  apply(s);
}

/** Takes the account's settings (after logging in or on load). */
export async function loadFor(account) {
  if (!account) return;
  try {
    const s = valid(await api.settings());
    if (s) remember(s);
  } catch {
    /* keep this browser's */
  }
}

/** Changes the settings: here at once, with the account when there is one. */
export async function change(s, account) {
  remember(s);
  if (account) await api.putSettings(s);
}
