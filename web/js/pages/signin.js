// Sign in and sign up: one form, two modes.

import { h } from '../dom.js';
import { signIn, signUp } from '../api.js';
import { explain, flash, go } from '../ui.js';
import { t } from '../i18n.js';

export function show(root, { mode }) {
  const signingUp = mode === 'signup';
  const username = h('input', { type: 'text', name: 'username', id: 'username', required: true,
    autocomplete: 'username', minlength: 3, maxlength: 32, pattern: '[A-Za-z0-9_\\-]{3,32}', autocapitalize: 'off' });
  const password = h('input', { type: 'password', name: 'password', id: 'password', required: true, minlength: 8,
    maxlength: 128, autocomplete: signingUp ? 'new-password' : 'current-password' });
  const submit = h('button', { type: 'submit' }, signingUp ? t('signin.create') : t('nav.sign_in'));
  const form = h('form', { class: 'panel', novalidate: false },
    h('label', { for: 'username' }, t('signin.username')), username,
    signingUp ? h('p', { class: 'hint' }, t('signin.username_hint')) : null,
    h('label', { for: 'password' }, t('signin.password')), password,
    signingUp ? h('p', { class: 'hint' }, t('signin.password_hint')) : null,
    h('div', { class: 'actions' }, submit),
    h('p', {}, signingUp
      ? [t('signin.have_account'), h('a', { href: '#/signin' }, t('nav.sign_in'))]
      : [t('signin.new_here'), h('a', { href: '#/signup' }, t('welcome.create'))]));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      await (signingUp ? signUp : signIn)(username.value.trim(), password.value);
      flash('');
      go(sessionStorage.getItem('hatstand.next') || '#/');
      sessionStorage.removeItem('hatstand.next');
    } catch (error) {
      flash(error.code === 'unauthenticated' ? t('signin.wrong') : explain(error));
      submit.disabled = false;
    }
  });
  root.append(h('h1', {}, signingUp ? t('welcome.create') : t('nav.sign_in')), form);
  username.focus();
}

/** Sends a signed-out visitor to sign in, coming back to `hash` after. */
export function requireSignIn(hash) {
  sessionStorage.setItem('hatstand.next', hash);
  go('#/signin');
}
