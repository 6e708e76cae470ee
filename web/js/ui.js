// What every page shares: the message strip, errors in words, navigation.

/** Shows `message` in the strip under the bar (`kind` "error" or "info"); empty clears it. */
export function flash(message, kind = 'error') {
  const strip = document.getElementById('flash');
  strip.className = kind === 'info' ? 'info' : '';
  strip.textContent = message || '';
}

/** Words for an error from the API or the page. */
export function explain(error) {
  if (error?.code === 'network') return 'The server cannot be reached. Check the connection and try again.';
  if (error?.detail) return `${error.detail}${error.code ? ` (${error.code})` : ''}`;
  return error?.message || String(error);
}

/** Goes to `hash` (e.g. `#/games/…`). */
export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}
