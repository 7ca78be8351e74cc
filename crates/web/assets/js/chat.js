// A chat line as every chat shows it (the game's two rooms, the lobby):
// the speaker's name, linking to their profile, the text, and — for a
// logged-in reader and someone else's line — a button that reports it to
// the operators (POST /api/reports; `qiju admin reports` lists them).

import { api } from './api.js';
import { h } from './dom.js';
import { errorText, shownName } from './i18n.js';

/** Why a line may be reported (`lobby::chat::ReportReason`). */
const REASONS = ['abuse', 'spam', 'cheating', 'other'];

/** `context`: `lobby` or the game's id, for the report. */
export function chatLine(msg, ctx, context) {
  const me = ctx.account && ctx.account.name;
  let li = null;
  // The flag opens a small form under the line: the reason, then a second
  // click to send — a report is never filed by a stray tap.
  const report = me && msg.from !== me ? h('button', {
    type: 'button', class: 'link report', title: ctx.t('chat.report', { name: msg.from }),
    'aria-label': ctx.t('chat.report', { name: msg.from }),
    'aria-expanded': 'false',
    onclick: (e) => {
      const open = li.querySelector('.report-form');
      if (open) {
        open.remove();
        e.currentTarget.setAttribute('aria-expanded', 'false');
        return;
      }
      e.currentTarget.setAttribute('aria-expanded', 'true');
      li.append(reportForm(msg, ctx, context, e.currentTarget));
    },
  }, '⚑') : null;
  li = h('li', {},
    h('a', { href: `/@/${encodeURIComponent(msg.from)}`, 'data-link': '', class: 'chat-from' }, shownName(msg.from)), ': ',
    h('span', { class: 'chat-text' }, msg.text), report);
  return li;
}

function reportForm(msg, ctx, context, flag) {
  const reason = h('select', { class: 'report-reason', 'aria-label': ctx.t('chat.reportWhy') },
    ...REASONS.map((r) => h('option', { value: r }, ctx.t(`chat.reason.${r}`))));
  const form = h('form', {
    class: 'report-form',
    onsubmit: async (e) => {
      e.preventDefault();
      const send = form.querySelector('button[type=submit]');
      send.disabled = true;
      try {
        await api.report({ name: msg.from, text: msg.text, context, reason: reason.value });
        form.remove();
        flag.disabled = true;
        flag.setAttribute('aria-expanded', 'false');
        ctx.toast(ctx.t('chat.reported'));
      } catch (err) {
        send.disabled = false;
        ctx.toast(errorText(err));
      }
    },
  },
  h('label', {}, ctx.t('chat.reportWhy'), ' ', reason), ' ',
  h('button', { type: 'submit' }, ctx.t('chat.reportSend')), ' ',
  h('button', { type: 'button', class: 'link', onclick: () => { form.remove(); flag.setAttribute('aria-expanded', 'false'); } }, ctx.t('chat.reportCancel')));
  return form;
}
