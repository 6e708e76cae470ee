// Your part of the shuffle. In a game whose seats salt the shuffle (the
// game's `salted`), this browser makes the seat's salt with WebCrypto when
// you join or create the game: 32 random bytes, sent as 64 lowercase hex
// digits. A copy is kept here, in localStorage, with the seed commitment the
// server had published before it saw the salt, so that the audit page can
// show you, once the game is over, that this very salt went into the deal
// (docs/audits.md). Salts are public anyway: the copy is not a secret, and
// it is kept when you sign out.

import { t } from './i18n.js';

const KEY = 'hatstand.salts';
/** At most this many games' salts are kept (the oldest go first). */
const KEEP = 500;

function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

/** A fresh salt: 32 bytes from `crypto.getRandomValues`, as hex. */
export function makeSalt() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Keeps the salt this browser sent for `gameId`, with the seed commitment
 * the game showed before the salt was sent.
 */
export function keepSalt(gameId, salt, commitment) {
  const every = all();
  every[gameId] = { salt, commitment, at: Date.now() };
  const ids = Object.keys(every);
  if (ids.length > KEEP) {
    ids.sort((a, b) => (every[a].at ?? 0) - (every[b].at ?? 0));
    for (const old of ids.slice(0, ids.length - KEEP)) delete every[old];
  }
  try {
    localStorage.setItem(KEY, JSON.stringify(every));
  } catch {
    // A full store: the game is played all the same, without the copy.
  }
}

/** The kept `{salt, commitment}` of `gameId`, or null. */
export function keptSalt(gameId) {
  const kept = all()[gameId];
  return kept && typeof kept.salt === 'string' ? kept : null;
}

/**
 * What a checked audit says of the kept salt of `gameId` (`outcome` is
 * `verifyAudit`'s, whose `salts` lists each seat's): null when nothing is
 * kept here; else `{ok, seat, words}`.
 */
export function keptSaltVerdict(gameId, outcome) {
  const kept = keptSalt(gameId);
  if (!kept || !outcome?.ok) return null;
  const mine = (outcome.salts || []).find((s) => s.salt === kept.salt);
  if (!mine) {
    return { ok: false, seat: null,
      words: t('salts.missing') };
  }
  if (kept.commitment && kept.commitment !== outcome.seedCommitment) {
    return { ok: false, seat: mine.seat,
      words: t('salts.other_seed') };
  }
  return { ok: true, seat: mine.seat,
    words: t(kept.commitment ? 'salts.kept_shown' : 'salts.kept', { seat: mine.seat + 1, seq: mine.seq, seed: outcome.dealSeed }) };
}
