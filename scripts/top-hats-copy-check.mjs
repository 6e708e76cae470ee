// The copy of a Top Hats board the conditional-move editor plays on
// (web/js/games/top-hats-copy.js) against the engine, through a running
// server: games of two and three players are played with random legal
// moves; at every turn of the play the copy, made from the mover's own
// view, must offer exactly the server's `legal_commands`, and after each
// command the copy must show the board the server shows (stacks, tops,
// owners, whose turn, edge zone, chain), unless the command uncovered a
// hat the viewer had not seen (then the copy says it cannot tell).
//
//   node scripts/top-hats-copy-check.mjs BASE_URL [GAMES]
//
// Run by scripts/browser-check.sh against its fresh server.

import { canCopy, copyOf, legal, play } from '../web/js/games/top-hats-copy.js';

const base = process.argv[2];
const games = Number(process.argv[3] ?? 6);
if (!base) {
  console.error('usage: node scripts/top-hats-copy-check.mjs BASE_URL [GAMES]');
  process.exit(2);
}

async function call(method, path, token, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function user(name) {
  const password = 'copy-check-password';
  await call('POST', '/v1/auth/register', null, { username: name, password });
  return (await call('POST', '/v1/auth/login', null, { username: name, password })).access_token;
}

/** A seeded random number generator (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const key = (command) => JSON.stringify(Object.keys(command).sort().map((k) => [k, command[k]]));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** What the copy and the server must agree on after a command. */
function shown(view) {
  return {
    board: view.board.map((st) => [st.cell, st.height, st.top, st.owner ?? null]).sort(),
    to_act: view.to_act,
    edge: [...view.edge_zone].sort(),
    chain: view.chain ? [view.chain.cell, [...view.chain.jumped].sort()] : null,
    phase: view.phase === 'over' ? 'over' : view.phase,
  };
}

let turns = 0;
let compared = 0;
let unknown = 0;
for (let g = 0; g < games; g += 1) {
  const players = g % 3 === 2 ? 3 : 2;
  const rng = random(1000 + g);
  const tag = Math.random().toString(16).slice(2, 8);
  const tokens = [];
  for (let s = 0; s < players; s += 1) tokens.push(await user(`copy${tag}${s}`));
  const created = await call('POST', '/v1/games', tokens[0], {
    ruleset: 'top-hats', players, options: { seed: `copy-check-${g}`, rated: false, quiet_turn_limit: 40 },
  });
  const id = created.id;
  for (let s = 1; s < players; s += 1) await call('POST', `/v1/games/${id}/join`, tokens[s], {});
  for (let step = 0; step < 400; step += 1) {
    const game = await call('GET', `/v1/games/${id}`, null);
    if (game.status !== 'active') break;
    const seat = game.to_act[Math.floor(rng() * game.to_act.length)];
    const mine = await call('GET', `/v1/games/${id}`, tokens[seat]);
    const commands = mine.legal_commands;
    const command = commands[Math.floor(rng() * commands.length)];
    let expected = null;
    if (canCopy(mine.view)) {
      turns += 1;
      const copy = copyOf(mine.view);
      const offered = legal(copy, seat).map(key).sort();
      const served = commands.map(key).sort();
      if (!same(offered, served)) {
        throw new Error(`game ${id} version ${mine.version}, seat ${seat}: the copy offers\n${offered.join('\n')}\nthe server\n${served.join('\n')}`);
      }
      expected = play(copy, seat, command);
    }
    await call('POST', `/v1/games/${id}/commands`, tokens[seat], { expected_version: mine.version, command });
    if (!expected) continue;
    if (expected.unknown) {
      unknown += 1;
      continue;
    }
    const after = await call('GET', `/v1/games/${id}`, tokens[seat]);
    // A drawn game (the quiet-turn limit) is not followed by the copy.
    if (after.view.end === 'quiet_turns') break;
    const want = shown(after.view);
    const got = shown(expected);
    if (!same(got, want)) {
      throw new Error(`game ${id} after ${JSON.stringify(command)} by seat ${seat}: the copy shows\n${JSON.stringify(got)}\nthe server\n${JSON.stringify(want)}`);
    }
    compared += 1;
  }
}
console.log(`top-hats copy: ${turns} turns offered the server's moves; ${compared} boards after a move agreed, ${unknown} stopped at a hidden hat`);
