// What this browser remembers for its user, beside the account: whether a
// move is confirmed before it is sent, and whether a browser notification
// says it is your turn while the page is open in another tab. Kept in
// localStorage per account, and dropped with nothing else on sign-out (they
// are choices, not game data).

import { identity } from './api.js';

const KEY = 'hatstand.device';

function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

/** This account's choices on this device: `{confirmMoves, notify}`. */
export function preferences() {
  const mine = all()[identity() ?? ''] || {};
  return { confirmMoves: mine.confirmMoves === true, notify: mine.notify === true };
}

/** Changes some of this account's choices on this device. */
export function choose(changes) {
  const every = all();
  const who = identity() ?? '';
  every[who] = { ...preferences(), ...changes };
  localStorage.setItem(KEY, JSON.stringify(every));
}

/** Whether the browser may show notifications at all (and has been allowed to). */
export function notificationsAllowed() {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}
