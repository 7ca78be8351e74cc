// TV: the strongest game being played now (the first of /api/games/live),
// watched as a spectator; when it ends the game page comes back here for
// the next one (`?tv` on its address).

import { api } from '../api.js';
import { h } from '../dom.js';
import { errorText, t } from '../i18n.js';

export async function mount(main, _params, ctx) {
  let live;
  try {
    live = await api.liveGames();
  } catch (e) {
    main.append(h('h1', {}, t('lobby.tv')), h('p', { class: 'error' }, errorText(e)));
    return null;
  }
  const top = live.games[0];
  if (top) {
    ctx.navigate(`/game/${top.id}?tv`, { replace: true });
    return null;
  }
  // Nothing on: look again every 10 s.
  main.append(h('h1', {}, t('lobby.tv')), h('p', { class: 'muted', id: 'tv-empty' }, t('lobby.noLiveGames')));
  const timer = setInterval(async () => {
    const again = await api.liveGames().catch(() => null);
    if (again && again.games[0]) ctx.navigate(`/game/${again.games[0].id}?tv`, { replace: true });
  }, 10000);
  return () => clearInterval(timer);
}
