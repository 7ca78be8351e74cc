// HTTP to the server's JSON API. Every state-changing request carries the
// `X-Qiju-Csrf` header the server demands of cookie-authenticated POSTs
// (crates/server/src/auth.rs: a page on another site cannot add a custom
// header without a CORS preflight, which the server never grants).
// Errors come back as ApiError with the server's `error` code and message.

export class ApiError extends Error {
  constructor(status, code, message, args = {}) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.args = args;
  }
}

async function request(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-Qiju-Csrf'] = '1';
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let resp;
  try {
    resp = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (e) {
    throw new ApiError(0, 'network', e.message);
  }
  if (resp.status === 204) return null;
  const text = await resp.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!resp.ok) {
    const args = {};
    const wait = resp.headers.get('Retry-After');
    if (wait) args.s = wait;
    throw new ApiError(resp.status, data && data.error, (data && data.message) || text || resp.statusText, args);
  }
  return data;
}

export const get = (path) => request('GET', path);
export const post = (path, body) => request('POST', path, body);
export const del = (path) => request('DELETE', path);
export const put = (path, body) => request('PUT', path, body);

const enc = encodeURIComponent;

export const api = {
  account: () => get('/api/account'),
  info: () => get('/api/info'),
  login: (name, password) => post('/api/auth/login', { name, password }),
  register: (name, password) => post('/api/auth/register', { name, password }),
  guest: () => post('/api/auth/guest'),
  logout: () => post('/api/auth/logout'),
  seeks: () => get('/api/seeks'),
  createSeek: (seek) => post('/api/seeks', seek),
  cancelSeek: (id) => del(`/api/seeks/${enc(id)}`),
  challenges: () => get('/api/challenges'),
  challenge: (c) => post('/api/challenges', c),
  acceptChallenge: (id) => post(`/api/challenges/${enc(id)}/accept`),
  declineChallenge: (id) => post(`/api/challenges/${enc(id)}/decline`),
  playComputer: (req) => post('/api/computer', req),
  follows: () => get('/api/follows'),
  follow: (name) => post(`/api/follows/${enc(name)}`),
  unfollow: (name) => del(`/api/follows/${enc(name)}`),
  events: (state) => get(`/api/events?state=${enc(state)}`),
  // `round`: only that round's boards (a number or 'latest'); left out, all.
  event: (id, round) => get(`/api/events/${enc(id)}${round ? `?round=${enc(round)}` : ''}`),
  eventStandings: (id) => get(`/api/events/${enc(id)}/standings`),
  eventCrosstable: (id) => get(`/api/events/${enc(id)}/crosstable`),
  createEvent: (e) => post('/api/events', e),
  joinEvent: (id, body) => post(`/api/events/${enc(id)}/join`, body),
  withdrawEvent: (id) => post(`/api/events/${enc(id)}/withdraw`),
  pairEvent: (id) => post(`/api/events/${enc(id)}/pair`),
  chooseArmageddon: (id, side) => post(`/api/events/${enc(id)}/armageddon`, { side }),
  eventLog: (id, last) => get(`/api/events/${enc(id)}/log${last ? `?last=${last}` : ''}`),
  eventResult: (id, body) => post(`/api/events/${enc(id)}/result`, body),
  eventPlayer: (id, body) => post(`/api/events/${enc(id)}/players`, body),
  eventArbiter: (id, body) => post(`/api/events/${enc(id)}/arbiter`, body),
  eventTeams: (id) => get(`/api/events/${enc(id)}/teams`),
  registerTeam: (id, body) => post(`/api/events/${enc(id)}/teams`, body),
  eventLineup: (id, body) => post(`/api/events/${enc(id)}/lineup`, body),
  eventFoul: (id, body) => post(`/api/events/${enc(id)}/fouls`, body),
  eventTeamForfeit: (id, body) => post(`/api/events/${enc(id)}/teams/forfeit`, body),
  eventTeamWithdraw: (id, body) => post(`/api/events/${enc(id)}/teams/withdraw`, body),
  eventTeamReadmit: (id, body) => post(`/api/events/${enc(id)}/teams/readmit`, body),
  berserk: (game) => post(`/api/board/game/${enc(game)}/berserk`),
  game: (id) => get(`/api/games/${enc(id)}`),
  liveGames: () => get('/api/games/live'),
  playing: () => get('/api/account/playing'),
  pgnUrl: (id) => `/api/games/${enc(id)}/pgn`,
  user: (name) => get(`/api/users/${enc(name)}`),
  settings: () => get('/api/account/settings'),
  putSettings: (s) => put('/api/account/settings', s),
  searchUsers: (q) => get(`/api/users?q=${enc(q)}`),
  leaderboard: (pool, page = 1) => get(`/api/leaderboard/${enc(pool)}?page=${page}`),
  record: (name, vs) => get(`/api/users/${enc(name)}/record${vs ? `?vs=${enc(vs)}` : ''}`),
  userGames: (name, query = '') => get(`/api/users/${enc(name)}/games${query ? `?${query}` : ''}`),
  ratingHistory: (name) => get(`/api/users/${enc(name)}/rating-history`),
  report: (r) => post('/api/reports', r),
  analysis: (id) => get(`/api/games/${enc(id)}/analysis`),
  requestAnalysis: (id) => post(`/api/games/${enc(id)}/analysis`),
  analysePosition: (line) => post('/api/analysis/position', line),
  evaluate: (line) => post('/api/analysis/eval', line),
  importRecord: (variant, text) => post('/api/analysis/import', { variant, text }),
};
