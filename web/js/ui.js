// What every page shares: the message strip, errors in words, navigation.

import { h } from './dom.js';
import { t } from './i18n.js';

/** Shows `message` in the strip under the bar (`kind` "error" or "info"); empty clears it. */
export function flash(message, kind = 'error') {
  const strip = document.getElementById('flash');
  strip.className = kind === 'info' ? 'info' : '';
  strip.textContent = message || '';
}

/** Words for an error from the API or the page. */
export function explain(error) {
  if (error?.code === 'network') return t('error.network');
  if (error?.detail) return `${error.detail}${error.code ? ` (${error.code})` : ''}`;
  return error?.message || String(error);
}

/** Goes to `hash` (e.g. `#/games/…`). */
export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

/**
 * A refusal that must not go unseen: a toast (bottom of the screen, so in
 * view on a phone) that stays until it is dismissed, besides the strip.
 */
export function alertToast(message) {
  flash(message);
  const box = document.getElementById('toasts');
  const toast = h('div', { class: 'toast error', role: 'alert', 'data-error': '' },
    h('span', {}, message),
    h('button', { type: 'button', class: 'quiet', 'aria-label': t('common.dismiss'), onClick: () => toast.remove() }, '×'));
  box.append(toast);
  return toast;
}

/** Removes every error toast (a new page, or the error was put right). */
export function clearAlerts() {
  for (const toast of document.querySelectorAll('#toasts .toast.error')) toast.remove();
}
