// A chat line as every chat shows it (the game's two rooms, the lobby):
// the speaker's name, linking to their profile, the text, and — for a
// logged-in reader and someone else's line — a button that reports it to
// the operators (POST /api/reports; `qiju admin reports` lists them).

import { api } from './api.js';
import { h } from './dom.js';
import { errorText, shownName } from './i18n.js';

/** `context`: `lobby` or the game's id, for the report. */
export function chatLine(msg, ctx, context) {
  const me = ctx.account && ctx.account.name;
  const report = me && msg.from !== me ? h('button', {
    type: 'button', class: 'link report', title: ctx.t('chat.report', { name: msg.from }),
    'aria-label': ctx.t('chat.report', { name: msg.from }),
    onclick: async (e) => {
      e.target.disabled = true;
      try {
        await api.report({ name: msg.from, text: msg.text, context });
        ctx.toast(ctx.t('chat.reported'));
      } catch (err) {
        e.target.disabled = false;
        ctx.toast(errorText(err));
      }
    },
  }, '⚑') : null;
  return h('li', {},
    h('a', { href: `/@/${encodeURIComponent(msg.from)}`, 'data-link': '', class: 'chat-from' }, shownName(msg.from)), ': ',
    h('span', { class: 'chat-text' }, msg.text), report);
}
