// Notifications wherever the user is: the bar's "your turn" count, and a
// note when a game newly waits for them, finishes or invites them, or a
// tournament's table is ready or the tournament ended (linking the
// tournament's page), from the notification stream (`/v1/me/stream`). Notifications older than the page
// are counted, not announced. Pages say `hatstand:moved` (a window event)
// after the user acts, and the count is taken again. The tab's title carries
// the count; a player who opted in (#/settings) also gets a browser
// notification while the page is open in a tab they are not looking at.

import { h } from './dom.js';
import { follow, get, session } from './api.js';
import { rulesetName } from './format.js';
import { notificationsAllowed, preferences } from './device.js';
import { t } from './i18n.js';

const WORDS = {
  your_turn: () => t('notes.your_turn'),
  game_finished: () => t('notes.game_finished'),
  invited: () => t('notes.invited'),
};

// A tournament's notes say it all themselves, and open the tournament.
const TOURNAMENT = {
  tournament_round: (d) => t('notes.tournament_round', { round: d.round + 1, name: d.name }),
  tournament_finished: (d) => (d.cancelled
    ? t('notes.tournament_cancelled', { name: d.name })
    : t('notes.tournament_finished', { name: d.name, place: d.place, field: d.field })),
};

let stop = null;
let count = 0;

/** How many games wait for the user, as last counted. */
export function waitingCount() {
  return count;
}

/** Starts (or restarts, after a sign-in or out) the notifier for the session. */
export function startNotifier() {
  stop?.();
  stop = null;
  const me = session();
  if (!me) return;
  const since = Date.now() - 5000;
  let pending = null;
  const recount = () => {
    clearTimeout(pending);
    pending = setTimeout(async () => {
      try {
        const page = await get('/v1/me/games?turn=mine&status=active&limit=100');
        drawBadge(page.games.length);
      } catch {
        // The count waits for the next notification.
      }
    }, 300);
  };
  recount();
  window.addEventListener('hatstand:moved', recount);
  const stopStream = follow('/v1/me/stream', (event) => {
    recount();
    let note;
    try {
      note = JSON.parse(event.data);
    } catch {
      return;
    }
    if (Date.parse(note.created_at) < since) return;
    if (!note.game_id && !TOURNAMENT[note.type]) return;
    if (note.game_id && location.hash.startsWith(`#/games/${note.game_id}`)) return;
    announce(note);
  });
  stop = () => {
    window.removeEventListener('hatstand:moved', recount);
    stopStream();
    clearTimeout(pending);
    drawBadge(0);
  };
}

/** Shows `waiting` on the bar's badge (the bar draws it again from `waitingCount`). */
export function drawBadge(waiting) {
  count = waiting;
  // The tab's title counts the games waiting: "(2) hatstand".
  document.title = `${count ? `(${count}) ` : ''}${document.title.replace(/^\(\d+\) /, '')}`;
  const badge = document.getElementById('turn-count');
  if (!badge) return;
  badge.textContent = count ? String(count) : '';
  badge.hidden = !count;
  badge.setAttribute('aria-label', t('notes.waiting', { n: count }));
}

function announce(note) {
  const box = document.getElementById('toasts');
  const tournament = TOURNAMENT[note.type];
  const text = tournament
    ? tournament(note.data || {})
    : `${WORDS[note.type]?.() || note.type}: ${rulesetName(note.data?.ruleset || '')}`;
  const href = tournament ? `#/tournaments/${note.data?.tournament_id}` : `#/games/${note.game_id}`;
  const toast = h('div', { class: 'toast', role: 'status', 'data-note': note.type },
    h('a', { href }, text, t('notes.open')),
    h('button', { type: 'button', class: 'quiet', 'aria-label': t('common.dismiss'), onClick: () => toast.remove() }, '×'));
  box.append(toast);
  setTimeout(() => toast.remove(), 15_000);
  // Opted in on #/settings, and looking at another tab: the browser says it too.
  if (document.hidden && preferences().notify && notificationsAllowed()) {
    const shown = new Notification(text, { tag: `hatstand-${note.game_id || note.data?.tournament_id}`, icon: '/img/hat.svg' });
    shown.onclick = () => {
      window.focus();
      location.hash = href;
    };
  }
}
