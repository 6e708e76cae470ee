// Words and times as the pages show them.

import { language, t } from './i18n.js';

// A ruleset's name comes from its board (games/index.js, the one list).
export { rulesetName } from './games/index.js';

/** A seat's display name: its username (with "bot" for bots) or "seat n". */
export function seatName(game, seat) {
  const taken = game.seats.find((s) => s.seat === seat);
  return taken ? taken.username : t('seat.n', { n: seat + 1 });
}

/** Display names for every seat of `game`. */
export function seatNames(game) {
  return Array.from({ length: game.players }, (_, seat) => seatName(game, seat));
}

/** "3 h 12 min", "45 s": the time from now until `iso` (negative: "overdue"). */
export function timeLeft(iso, now = Date.now()) {
  const ms = Date.parse(iso) - now;
  if (ms <= 0) return t('time.overdue');
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const hrs = Math.floor((s % 86400) / 3600);
  const min = Math.floor((s % 3600) / 60);
  if (d) return t('time.d_h', { d, h: hrs });
  if (hrs) return t('time.h_min', { h: hrs, min });
  if (min) return t('time.min_s', { min, s: s % 60 });
  return t('time.s', { s });
}

/** "5 min ago", "2 d ago". */
export function ago(iso, now = Date.now()) {
  const s = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (s < 60) return t('time.just_now');
  if (s < 3600) return t('time.min_ago', { n: Math.floor(s / 60) });
  if (s < 86400) return t('time.h_ago', { n: Math.floor(s / 3600) });
  return t('time.d_ago', { n: Math.floor(s / 86400) });
}

/** A local date and time for `iso`. */
export function when(iso) {
  return new Date(iso).toLocaleString(language() === 'en' ? undefined : language(), { dateStyle: 'medium', timeStyle: 'short' });
}
