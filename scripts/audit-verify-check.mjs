#!/usr/bin/env node
// Holds the web client's audit verifier (web/js/audit/verify.js) to what it
// promises, on real audit files:
//
//   node scripts/audit-verify-check.mjs tests/records/*.json tests/records/legacy/*.json
//
// Each file (one audit document, or JSON Lines of them) must verify, both as
// text and as a parsed object. Then each document is tampered with in a few
// ways, each of which must fail, at the event it breaks (or, for the seed,
// at the document): a changed card, a removed event, a removed event with
// the later ones renumbered, two events swapped, a changed command, a
// changed actor, a changed time, a changed hash, a changed seed, a changed
// commitment, a seed and commitment both replaced (event 1 published
// another), the wrong format, a missing field, a document cut short.
// A record whose seats salted the shuffle must give back every salt and the
// deal seed, which is recomputed here independently (Node's own SHA-256 over
// the bytes docs/audits.md lists).
// Records in a signed/ or salted/ folder are checked with the keys.json beside them:
// each verifies, naming its key, and each tampering is refused for its
// signature first. Exits non-zero on any disagreement. Needs Node 18 or later (WebCrypto);
// no dependencies.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash, webcrypto } from 'node:crypto';

// The verifier uses the browser's global `crypto`, global in Node 20 but not in 18.
globalThis.crypto ??= webcrypto;
const { auditTexts, verifyAudit } = await import('../web/js/audit/verify.js');

let failures = 0;
let checks = 0;

function report(where, what, outcome, expected) {
  checks += 1;
  const wanted = expected === 'ok' ? 'ok' : `a failure at ${expected === null ? 'the document' : `event ${expected}`}`;
  const got = outcome.ok ? 'ok' : `a failure at ${outcome.seq === null ? 'the document' : `event ${outcome.seq}`}`;
  if (wanted !== got) {
    failures += 1;
    const why = outcome.ok ? '' : ` (${outcome.reason})`;
    console.log(`MISMATCH ${where}: ${what}: expected ${wanted}, got ${got}${why}`);
  }
  return wanted === got;
}

/** A path to the first string (else number) inside `value`, e.g. ['hands', 0, 3]. */
function leafPath(value, kind) {
  if (typeof value === kind) return [];
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const inner = leafPath(value[key], kind);
      if (inner) return [key, ...inner];
    }
  }
  return null;
}

/** Changes the leaf at `path` of `value`: another card, another number. */
function alterAt(value, path) {
  const parent = path.slice(0, -1).reduce((node, key) => node[key], value);
  const last = path.at(-1);
  const old = parent[last];
  parent[last] = typeof old === 'string' ? (old === 'H1' ? 'S1' : 'H1') : old + 1;
}

/** Whether an event is the engine's (a card dealt or played), not the server's. */
const isEngineEvent = (event) => !/^(game_|player_|seat_|turn_|deadline_)/.test(event.type);

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Buffer.from(digest).toString('hex');
}

/** The ways of tampering with a parsed document: [name, change, expected seq]. */
async function tamperings(doc) {
  const events = doc.events;
  const n = events.length;
  const middle = Math.max(1, Math.floor(n / 2)) - 1;
  const ways = [];
  const leafOf = (data) => leafPath(data, 'string') || leafPath(data, 'number');
  const withCard = events.findIndex((e) => isEngineEvent(e) && leafOf(e.data));
  if (withCard >= 0) {
    ways.push(['changed card', (d) => {
      const data = d.events[withCard].data;
      alterAt(data, leafOf(data));
    }, withCard + 1]);
  }
  if (n >= 2) {
    ways.push(['removed event', (d) => d.events.splice(middle, 1), middle + 1]);
    ways.push(['removed event, renumbered', (d) => {
      d.events.splice(middle, 1);
      d.events.forEach((e, k) => { e.seq = k + 1; });
    }, middle + 1]);
    ways.push(['swapped events', (d) => {
      [d.events[middle], d.events[middle + 1]] = [d.events[middle + 1], d.events[middle]];
    }, middle + 1]);
  }
  const withCommand = events.findIndex((e) => e.command);
  if (withCommand >= 0) {
    ways.push(['changed command', (d) => {
      const command = d.events[withCommand].command;
      command.tampered = true;
    }, withCommand + 1]);
  }
  const withSeat = events.findIndex((e) => e.actor && e.actor.seat !== null);
  if (withSeat >= 0) {
    ways.push(['changed actor', (d) => {
      d.events[withSeat].actor.seat = d.events[withSeat].actor.seat === 0 ? 1 : 0;
    }, withSeat + 1]);
  }
  ways.push(['changed time of the last event', (d) => {
    d.events[n - 1].at = d.events[n - 1].at.replace(/\d(?=Z$)/, (digit) => String((Number(digit) + 1) % 10));
  }, n]);
  ways.push(['changed hash of the last event', (d) => {
    d.events[n - 1].hash = d.events[n - 1].hash.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  }, n]);
  ways.push(['changed seed', (d) => { d.seed += 'x'; }, null]);
  ways.push(['changed commitment', (d) => { d.seed_commitment = '0'.repeat(64); }, null]);
  const otherCommitment = await sha256Hex('another seed');
  ways.push(['seed and commitment replaced together', (d) => {
    d.seed = 'another seed';
    d.seed_commitment = otherCommitment;
  }, 1]);
  ways.push(['wrong format', (d) => { d.format = 'hatstand-audit/2'; }, null]);
  ways.push(['event with no hash', (d) => { delete d.events[n - 1].hash; }, null]);
  return ways;
}

/** The deal seed of a salted record, by the bytes docs/audits.md lists. */
function dealSeed(doc) {
  const joins = doc.events.filter((e) => e.type === 'player_joined').sort((a, b) => a.data.seat - b.data.seat);
  if (!joins.some((e) => typeof e.data.salt === 'string')) return null;
  const seed = Buffer.from(doc.seed, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(seed.length);
  return createHash('sha256')
    .update(Buffer.from('hatstand/deal-seed/v1\0', 'utf8'))
    .update(length).update(seed).update(Buffer.from([joins.length]))
    .update(Buffer.concat(joins.map((e) => Buffer.from(e.data.salt, 'hex'))))
    .digest('hex');
}

function checkDealSeed(where, doc, outcome) {
  checks += 1;
  const expected = doc.events[0].data.players === doc.events.filter((e) => e.type === 'player_joined').length
    ? dealSeed(doc) : null;
  if ((outcome.dealSeed ?? null) !== expected) {
    failures += 1;
    console.log(`MISMATCH ${where}: deal seed ${outcome.dealSeed}, expected ${expected}`);
  }
}

for (const path of process.argv.slice(2)) {
  if (path.endsWith('/keys.json')) continue;
  const texts = auditTexts(readFileSync(path, 'utf8'));
  const keysPath = join(dirname(path), 'keys.json');
  const keys = /\/(signed|salted)\//.test(path) && existsSync(keysPath) ? JSON.parse(readFileSync(keysPath, 'utf8')) : null;
  for (const [k, text] of texts.entries()) {
    const where = texts.length > 1 ? `${path} line ${k + 1}` : path;
    if (!report(where, 'as written', await verifyAudit(text), 'ok')) continue;
    const doc = JSON.parse(text);
    report(where, 'as a parsed object', await verifyAudit(doc), 'ok');
    checkDealSeed(where, doc, await verifyAudit(text));
    report(where, 'cut short', await verifyAudit(text.slice(0, Math.floor(text.length / 2))), null);
    for (const [what, change, expected] of await tamperings(doc)) {
      const copy = structuredClone(doc);
      change(copy);
      report(where, what, await verifyAudit(JSON.stringify(copy)), expected);
      // A signed record (its server's keys beside it): every change is
      // refused for its signature, before anything else.
      if (keys && !(await verifyAudit(JSON.stringify(copy), keys)).reason?.startsWith('signature:')) {
        failures += 1;
        console.log(`MISMATCH ${where}: ${what}: not refused for its signature`);
      }
    }
    if (keys) {
      const signed = await verifyAudit(text, keys);
      report(where, 'its signature, with the keys beside it', signed, 'ok');
      if (signed.ok && (!signed.signedBy || !signed.logged)) {
        failures += 1;
        console.log(`MISMATCH ${where}: verified without naming its key and its place in the log`);
      }
    }
  }
}

if (!checks) {
  console.log('usage: node scripts/audit-verify-check.mjs AUDIT.json…');
  process.exit(2);
}
console.log(`${checks - failures} of ${checks} checks agree`);
process.exit(failures ? 1 : 0);
