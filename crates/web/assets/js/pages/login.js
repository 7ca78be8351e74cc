// Log in and register (one form, two modes), and play as a guest.

import { api } from '../api.js';
import { h } from '../dom.js';
import { errorText, t } from '../i18n.js';

export function mount(main, params, ctx) {
  const register = params.mode === 'register';
  const error = h('p', { class: 'error', role: 'alert', id: 'login-error' });
  const name = h('input', {
    id: 'login-name', name: 'name', autocomplete: 'username', required: true,
    minlength: 2, maxlength: 20, pattern: '[\\p{L}\\p{M}\\p{N}_\\-]+', 'aria-describedby': 'name-hint',
  });
  // The browser's own "Please match the requested format." says nothing
  // of what a name may hold: say our reason instead.
  name.addEventListener('invalid', () => {
    const v = name.validity;
    name.setCustomValidity(v.tooShort || v.tooLong ? t('login.nameLength') : v.patternMismatch ? t('login.badName') : '');
  });
  name.addEventListener('input', () => name.setCustomValidity(''));
  const password = h('input', {
    id: 'login-password', name: 'password', type: 'password', required: true, minlength: register ? 8 : 1,
    autocomplete: register ? 'new-password' : 'current-password', 'aria-describedby': 'password-hint',
  });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'login-submit' },
    register ? t('login.submitRegister') : t('login.submit'));
  const form = h('form', {
    class: 'card login',
    'aria-labelledby': 'login-title',
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = '';
      submit.disabled = true;
      try {
        const user = register
          ? await api.register(name.value.trim(), password.value)
          : await api.login(name.value.trim(), password.value);
        ctx.setAccount(user);
        ctx.navigate('/');
      } catch (err) {
        error.textContent = err.status === 401 ? t('login.failed') : errorText(err);
      } finally {
        submit.disabled = false;
      }
    },
  },
  h('h1', { id: 'login-title' }, register ? t('login.register') : t('login.title')),
  h('label', { class: 'field', for: 'login-name' }, h('span', {}, t('login.name')), name,
    h('small', { id: 'name-hint', class: 'muted' }, t('login.nameHint'))),
  h('label', { class: 'field', for: 'login-password' }, h('span', {}, t('login.password')), password,
    h('small', { id: 'password-hint', class: 'muted' }, register ? t('login.passwordHint') : '')),
  error,
  h('div', { class: 'row' },
    submit,
    h('a', { href: register ? '/login' : '/register', 'data-link': '' }, register ? t('login.toLogin') : t('login.toRegister'))),
  h('hr'),
  h('button', {
    type: 'button',
    id: 'guest',
    onclick: async () => {
      try {
        ctx.setAccount(await api.guest());
        ctx.navigate('/');
      } catch (err) {
        error.textContent = errorText(err);
      }
    },
  }, t('login.guest')));
  main.append(form);
  name.focus();
}
