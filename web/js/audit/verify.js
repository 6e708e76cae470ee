// Checks an audit document (`hatstand-audit/1`) the way `hatstand verify`
// begins: the document's shape, its hash chain and its seed. Everything runs
// here, on the document's own bytes, with WebCrypto's SHA-256: nothing is
// asked of the server.
//
// The chain: each event's `hash` is the hex SHA-256 of its `prev_hash` (64
// zeros for the first event) followed by the canonical JSON of
// `{"actor", "at", "command", "data", "seq", "type"}`, which is keys sorted
// at every depth (by code point), no whitespace, strings escaped as
// serde_json escapes them and numbers written as serde_json writes the value
// it read (integers as read, other numbers in shortest round-trip form:
// `2.0`, `1e+21`). `actor` is `{"seat", "user_id"}` (the UUID written in
// lowercase hyphenated form), or null when both are absent.
// The seed: the hex SHA-256 of the revealed seed's UTF-8 bytes is the
// commitment, and the commitment is the one `game_created` (event 1, inside
// the chain) published.
//
// The signature (with the server's keys given): an Ed25519 signature by one
// of the keys, over "hatstand/audit-signature/v1", a zero byte, and the
// canonical JSON of every member but `signature`; checked before anything
// else, so that a changed document is refused for that first.
//
// The log proof (with the keys, when the document carries one): the game's
// leaf, its RFC 9162 inclusion path to the root of a tree head, and the
// head's Ed25519 signature (see docs/audits.md).
//
// The talk (docs/talk.md), when the document has a `talk` section: every
// table and spectators' message shown hashes to its `hash` (the hex SHA-256
// of the canonical JSON of `{"at", "author", "id", "room", "salt", "seat",
// "text", "to"}`), or is hidden (its hash alone, with who hid it); no press
// is listed in public; the press commitment is SHA-256 hex and, when the
// press is revealed, is the hex SHA-256 of the key, `:`, and the revealed
// messages' hashes (each checked the same way) joined by `,`.
//
// The salts (docs/audits.md): in a game whose seats salt the shuffle,
// every `player_joined` carries its seat's salt (64 lowercase hex digits),
// and the deal seed is the hex SHA-256 of "hatstand/deal-seed/v1", a zero
// byte, the seed's UTF-8 length (u32 big-endian), the seed, the number of
// seats (one byte) and each seat's 32 salt bytes in seat order. It is
// recomputed here and given back with the salts, so that a player can see
// their own salt in it; the shuffles drawn from it are `hatstand verify`'s.
//
// Replaying the commands through the rules, the shuffles and the final
// state are the rest of `hatstand verify`'s work; they need the engines.

const FORMAT = 'hatstand-audit/1';
const GENESIS_HASH = '0'.repeat(64);
/** The newest schema of the server's events (older ones are upcast when read). */
const SCHEMA = 2;
/** serde_json refuses documents nested this deep. */
const DEPTH_LIMIT = 128;
const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

/**
 * Verifies an audit document: its text (read exactly as the server's
 * verifier reads it) or an already parsed object (written back as JSON
 * first, which is exact for the server's documents: their numbers are all
 * integers). With `keys` (the server's `/.well-known/hatstand-keys.json`),
 * the signature is checked first. Resolves to `{ok: true, events, seed:
 * 'matches', signedBy, talk}` (the key id, null without keys; `talk`: null
 * without a talk section, else `{messages, press}`, `press` being null,
 * `'committed'` or `'revealed'`), or
 * to `{ok: false, seq, reason}`: `seq` is the first event whose link breaks,
 * null when the fault is the document's (malformed, the wrong format, a seed
 * that does not match its commitment).
 */
export async function verifyAudit(doc, keys = null) {
  let audit;
  let parsed;
  let signedBy = null;
  try {
    parsed = parseJson(typeof doc === 'string' ? doc : JSON.stringify(doc));
    if (keys && parsed instanceof JsonObject) {
      // The signature first: a document changed after it was issued is
      // refused for that, whatever else is wrong with it.
      const signature = await checkSignature(parsed, keys);
      if (!signature.ok) return broken(null, `signature: ${signature.reason}`);
      signedBy = signature.keyId;
    }
    audit = readDocument(parsed);
  } catch (error) {
    if (error instanceof Malformed) return broken(null, `not an audit document: ${error.message}`);
    throw error;
  }
  if (audit.format !== FORMAT) return broken(null, `not a ${FORMAT} document`);
  let prev = GENESIS_HASH;
  for (const [i, event] of audit.events.entries()) {
    const position = i + 1;
    if (event.seq !== BigInt(position)) {
      return broken(position,
        `event at position ${position} has seq ${event.seq}: events are missing or out of order`);
    }
    if (event.prevHash !== prev) {
      return broken(position,
        `event ${position}: prev_hash does not match the previous event's hash (reordered or removed events)`);
    }
    if (await sha256Hex(event.prevHash + canonicalEvent(event)) !== event.hash) {
      return broken(position, `event ${position}: hash mismatch, the event was altered`);
    }
    prev = event.hash;
  }
  if (await sha256Hex(audit.seed) !== audit.seedCommitment) {
    return broken(null, 'the seed does not match the seed commitment');
  }
  if (!audit.events.length) return broken(null, 'the log is empty');
  const why = creationMismatch(audit, audit.events[0]);
  if (why) return broken(1, why);
  let talk = null;
  if (parsed.has('talk') && parsed.get('talk') !== null) {
    try {
      talk = await checkTalk(parsed.get('talk'));
    } catch (error) {
      if (error instanceof Malformed) return broken(null, `talk: ${error.message}`);
      throw error;
    }
    if (talk.reason) return broken(null, `talk: ${talk.reason}`);
  }
  const salted = await dealSeedOf(audit);
  if (salted.error) return broken(salted.error.seq, salted.error.reason);
  let logged = null;
  if (keys && parsed.get('log') instanceof JsonObject) {
    const log = await checkLogProof(parsed.get('log'), parsed.get('game_id'), audit.events.at(-1).hash, keys);
    if (!log.ok) return broken(null, `log: ${log.reason}`);
    logged = { index: log.index, size: log.size };
  }
  return { ok: true, events: audit.events.length, seed: 'matches', signedBy, logged, talk,
    seedCommitment: audit.seedCommitment, salts: salted.salts, dealSeed: salted.dealSeed };
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/**
 * Checks an audit's `talk` section (see the top of this file). Resolves to
 * `{messages, press}` or `{reason}`; throws Malformed for a section that
 * does not read.
 */
async function checkTalk(section) {
  const talk = readStruct(section, 'talk', {
    messages: required(list),
    press: optional((v, where) => readStruct(v, where, {
      commitment: required(text),
      revealed: optional((r, at) => readStruct(r, at, { key: required(text), messages: required(list) })),
    })),
  });
  for (const [k, message] of talk.messages.entries()) {
    const why = await checkMessage(message, `messages[${k}]`, ['table', 'spectators']);
    if (why) return { reason: why };
  }
  let press = null;
  if (talk.press) {
    if (!HEX64.test(talk.press.commitment)) return { reason: 'the press commitment is not SHA-256 hex' };
    press = 'committed';
    const revealed = talk.press.revealed;
    if (revealed) {
      const hashes = [];
      for (const [k, message] of revealed.messages.entries()) {
        const why = await checkMessage(message, `press.revealed.messages[${k}]`, ['press']);
        if (why) return { reason: why };
        hashes.push(message.get('hash'));
      }
      if (await sha256Hex(`${revealed.key}:${hashes.join(',')}`) !== talk.press.commitment) {
        return { reason: 'the press revealed does not match its commitment' };
      }
      press = 'revealed';
    }
  }
  return { messages: talk.messages.length, press };
}

const list = (v, where) => {
  if (!Array.isArray(v)) throw new Malformed(`${where} is not an array`);
  return v;
};

/** Why one recorded message does not verify (null when it does). */
async function checkMessage(value, where, rooms) {
  const m = readStruct(value, where, {
    id: required(uuid),
    room: required(text),
    author: required(uuid),
    seat: optional(integer(0n, 255n)),
    to: optional((v, at) => list(v, at).map((seat, k) => integer(0n, 255n)(seat, `${at}[${k}]`))),
    at: required(text),
    text: optional(text),
    salt: optional(text),
    hash: required(text),
    hidden: optional(anyValue),
  });
  const what = `message ${m.id}`;
  if (!rooms.includes(m.room)) return `${what}: room ${m.room} is not listed here`;
  if (!HEX64.test(m.hash)) return `${what}: the hash is not SHA-256 hex`;
  if (m.text !== null && m.salt !== null && m.hidden === null) {
    const to = (m.to ?? []).join(',');
    const canonicalMessage = `{"at":${JSON.stringify(m.at)},"author":${JSON.stringify(m.author)},`
      + `"id":${JSON.stringify(m.id)},"room":${JSON.stringify(m.room)},"salt":${JSON.stringify(m.salt)},`
      + `"seat":${m.seat === null ? 'null' : m.seat},"text":${JSON.stringify(m.text)},"to":[${to}]}`;
    if (await sha256Hex(canonicalMessage) !== m.hash) return `${what}: the text does not match its hash`;
    return null;
  }
  if (m.text === null && m.salt === null && m.hidden !== null) return null;
  return `${what}: a message shows its text and salt, or is hidden`;
}

/** What the deal seed's hash starts with. */
const DEAL_SEED_CONTEXT = 'hatstand/deal-seed/v1\u0000';

/**
 * The seats' salts (`{seq, seat, salt, byServer}` per `player_joined`, in
 * seat order) and the deal seed they make with the revealed seed; no salts
 * and a null deal seed for a game that takes none (no join carries one),
 * and a null deal seed for a table that never filled. `{error}` when a join
 * lacks the salt the others carry or carries a malformed one.
 */
async function dealSeedOf(audit) {
  const number = (v) => (v instanceof JsonNumber && /^\d+$/.test(v.text) ? Number(v.text) : null);
  const salts = audit.events
    .filter((e) => e.type === 'player_joined' && e.data instanceof JsonObject)
    .map((e) => ({ seq: Number(e.seq), seat: number(e.data.get('seat')),
      salt: e.data.has('salt') ? e.data.get('salt') : null, byServer: e.data.get('salt_by_server') === true }))
    .sort((a, b) => a.seat - b.seat);
  if (!salts.some((s) => s.salt !== null)) return { salts: [], dealSeed: null };
  for (const s of salts) {
    if (typeof s.salt !== 'string' || !/^[0-9a-f]{64}$/.test(s.salt)) {
      return { error: { seq: s.seq,
        reason: `event ${s.seq}: seat ${s.seat}'s salt is missing or not 64 lowercase hex digits` } };
    }
  }
  const created = audit.events[0].data;
  const players = created instanceof JsonObject ? number(created.get('players')) : null;
  if (players === null || salts.length !== players) return { salts, dealSeed: null };
  const encoder = new TextEncoder();
  const seed = encoder.encode(audit.seed);
  const context = encoder.encode(DEAL_SEED_CONTEXT);
  const bytes = new Uint8Array(context.length + 4 + seed.length + 1 + 32 * salts.length);
  bytes.set(context, 0);
  let at = context.length;
  new DataView(bytes.buffer).setUint32(at, seed.length);
  at += 4;
  bytes.set(seed, at);
  at += seed.length;
  bytes[at] = salts.length;
  at += 1;
  for (const s of salts) {
    bytes.set(fromHex(s.salt), at);
    at += 32;
  }
  const dealSeed = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
  return { salts, dealSeed };
}

/** What a tree head's signature is over, before its fields. */
const TREE_HEAD_CONTEXT = 'hatstand/tree-head/v1\u0000';

/**
 * Checks an audit's `log` member: the game's leaf (`H(0x00 ‖ game id's 16
 * bytes ‖ last event hash's 32)`), its RFC 9162 inclusion path (2.1.3.2) to
 * the root of the tree head, and the head's Ed25519 signature over
 * `"hatstand/tree-head/v1" ‖ 0x00 ‖ size (u64 BE) ‖ timestamp (u64 BE) ‖
 * root`. Resolves to `{ok: true, index, size}` or `{ok: false, reason}`.
 */
async function checkLogProof(log, gameId, lastHash, keys) {
  const head = log.get('tree_head');
  const signature = head instanceof JsonObject ? head.get('signature') : null;
  const number = (v) => (v instanceof JsonNumber && /^\d+$/.test(v.text) ? BigInt(v.text) : null);
  const index = number(log.get('leaf_index'));
  const size = head instanceof JsonObject ? number(head.get('tree_size')) : null;
  const timestamp = head instanceof JsonObject ? number(head.get('timestamp')) : null;
  const path = log.get('audit_path');
  const isHash = (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
  if (index === null || size === null || timestamp === null || !Array.isArray(path) || !path.every(isHash)
    || !isHash(head.get('root_hash')) || !(signature instanceof JsonObject)) {
    return { ok: false, reason: 'the log proof is malformed' };
  }
  if (log.get('game_id') !== gameId) return { ok: false, reason: "the log proof is another game's" };
  if (log.get('final_hash') !== lastHash) {
    return { ok: false, reason: 'the log holds another last event for this game: the record was rewritten after it was logged' };
  }
  const sha = async (...parts) => {
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) { bytes.set(part, at); at += part.length; }
    return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  };
  const uuidBytes = fromHex(gameId.replaceAll('-', ''));
  let r = await sha(Uint8Array.of(0), uuidBytes, fromHex(lastHash));
  let fn = index;
  let sn = size - 1n;
  if (index >= size) return { ok: false, reason: 'the leaf is outside the tree' };
  for (const p of path.map(fromHex)) {
    if (sn === 0n) return { ok: false, reason: 'the inclusion path is too long' };
    if ((fn & 1n) === 1n || fn === sn) {
      r = await sha(Uint8Array.of(1), p, r);
      while ((fn & 1n) === 0n && fn !== 0n) { fn >>= 1n; sn >>= 1n; }
    } else {
      r = await sha(Uint8Array.of(1), r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  if (sn !== 0n || toHex(r) !== head.get('root_hash')) {
    return { ok: false, reason: `the inclusion path does not lead to the root of the signed head of size ${size}` };
  }
  const fields = new Uint8Array(16);
  const view = new DataView(fields.buffer);
  view.setBigUint64(0, size);
  view.setBigUint64(8, timestamp);
  const context = new TextEncoder().encode(TREE_HEAD_CONTEXT);
  const signed = new Uint8Array([...context, ...fields, ...fromHex(head.get('root_hash'))]);
  const good = await checkBytes(signature, signed, keys);
  return good.ok ? { ok: true, index: Number(index), size: Number(size) } : { ok: false, reason: `the tree head: ${good.reason}` };
}

/** What an audit's signature is over, before the document's canonical JSON. */
const AUDIT_CONTEXT = 'hatstand/audit-signature/v1\u0000';

/**
 * Checks a parsed document's detached Ed25519 signature (its `signature`
 * member: `alg`, `key_id`, `value`) over `"hatstand/audit-signature/v1" ‖
 * 0x00 ‖` the canonical JSON of every other member, exactly as read,
 * against `keys` (the server's `/.well-known/hatstand-keys.json`): a key's
 * id is the first 16 hex characters of SHA-256 of its 32 bytes. Resolves to
 * `{ok: true, keyId}` or `{ok: false, reason}`.
 */
async function checkSignature(parsed, keys) {
  const signature = parsed.get('signature');
  if (!(signature instanceof Map)) return { ok: false, reason: 'the document is not signed' };
  const rest = new JsonObject();
  for (const [name, member] of parsed) if (name !== 'signature') rest.set(name, member);
  return checkBytes(signature, new TextEncoder().encode(AUDIT_CONTEXT + canonical(rest)), keys);
}

/** Checks a parsed `{alg, key_id, value}` signature over `signed` with one of `keys`. */
async function checkBytes(signature, signed, keys) {
  const keyId = signature.get('key_id');
  const value = signature.get('value');
  if (signature.get('alg') !== 'Ed25519' || typeof keyId !== 'string' || typeof value !== 'string'
    || !/^[0-9a-f]{128}$/.test(value)) {
    return { ok: false, reason: 'the signature is malformed' };
  }
  const key = (keys.keys ?? []).find((k) => k.key_id === keyId && k.alg === 'Ed25519');
  if (!key || !/^[0-9a-f]{64}$/.test(key.public_key)) {
    return { ok: false, reason: `signed by key ${keyId}, which is not among the server's keys` };
  }
  const publicKey = fromHex(key.public_key);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', publicKey));
  if (toHex(digest.slice(0, 8)) !== keyId) return { ok: false, reason: `key ${keyId} does not hash to its id` };
  let good;
  try {
    const imported = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    good = await crypto.subtle.verify({ name: 'Ed25519' }, imported, fromHex(value), signed);
  } catch (error) {
    return { ok: false, reason: `this browser cannot check Ed25519 signatures (${error.message})` };
  }
  return good
    ? { ok: true, keyId }
    : { ok: false, reason: 'the signature does not match: the document was altered after it was signed' };
}

function fromHex(text) {
  return new Uint8Array(text.match(/../g).map((pair) => parseInt(pair, 16)));
}

function toHex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The audit documents in a file, as texts: the whole file when it is one
 * JSON value, else each non-blank line (JSON Lines, as `hatstand export`
 * and the export of one's games write them).
 */
export function auditTexts(text) {
  try {
    parseJson(text);
    return [text];
  } catch (error) {
    if (!(error instanceof Malformed)) throw error;
  }
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''))
    .filter((line) => !/^\p{White_Space}*$/u.test(line));
  return lines.length < 2 ? [text] : lines;
}

function broken(seq, reason) {
  return { ok: false, seq, reason };
}

/** What makes a document unreadable as an audit document. */
class Malformed extends Error {}

/** A JSON number, kept as the text serde_json writes for the value it reads. */
class JsonNumber {
  constructor(text) {
    this.text = text;
  }
}

/** A JSON object: its members (a repeated key keeps its last value) and the keys given twice. */
class JsonObject extends Map {
  constructor() {
    super();
    this.repeated = new Set();
  }
}

/**
 * Parses JSON as serde_json does: strict grammar, no byte order mark, at
 * most 127 levels deep, no lone surrogate in a string, numbers kept exact.
 */
function parseJson(text) {
  const plain = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;
  const numeral = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  let i = 0;
  let depth = 0;
  const fail = (what) => {
    const before = text.slice(0, i).split('\n');
    throw new Malformed(`${what} at line ${before.length} column ${before.at(-1).length + 1}`);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i += 1;
  };
  const literal = (word, value) => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return fail('expected a value');
  };
  const string = () => {
    i += 1;
    let out = '';
    for (;;) {
      plain.lastIndex = i;
      out += plain.exec(text)[0];
      i = plain.lastIndex;
      const c = text[i];
      if (c === undefined) fail('unterminated string');
      if (c === '"') {
        i += 1;
        return out;
      }
      if (c < ' ') fail('control character in a string');
      if (c !== '\\') {
        const pair = text.codePointAt(i);
        if (pair <= 0xffff) fail('text that is not UTF-8');
        out += String.fromCodePoint(pair);
        i += 2;
        continue;
      }
      const e = text[i + 1];
      const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
        continue;
      }
      if (e !== 'u') fail('invalid escape');
      const unit = hex4(i + 2);
      i += 6;
      if (unit >= 0xdc00 && unit <= 0xdfff) fail('lone trailing surrogate in a \\u escape');
      if (unit >= 0xd800 && unit <= 0xdbff) {
        if (text[i] !== '\\' || text[i + 1] !== 'u') fail('lone leading surrogate in a \\u escape');
        const low = hex4(i + 2);
        if (low < 0xdc00 || low > 0xdfff) fail('lone leading surrogate in a \\u escape');
        i += 6;
        out += String.fromCharCode(unit, low);
      } else {
        out += String.fromCharCode(unit);
      }
    }
  };
  const hex4 = (at) => {
    const digits = text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) fail('invalid \\u escape');
    return parseInt(digits, 16);
  };
  const number = () => {
    numeral.lastIndex = i;
    const token = numeral.exec(text)?.[0];
    if (!token || /[0-9.eE]/.test(text[i + token.length] ?? '')) fail('invalid number');
    i += token.length;
    try {
      return new JsonNumber(numberText(token));
    } catch (error) {
      if (error instanceof RangeError) fail('number out of range');
      throw error;
    }
  };
  const nested = (close, member) => {
    depth += 1;
    if (depth >= DEPTH_LIMIT) fail('recursion limit exceeded');
    i += 1;
    space();
    if (text[i] === close) {
      i += 1;
    } else {
      for (;;) {
        member();
        space();
        if (text[i] === close) {
          i += 1;
          break;
        }
        if (text[i] !== ',') fail(`expected , or ${close}`);
        i += 1;
        space();
      }
    }
    depth -= 1;
  };
  const value = () => {
    space();
    const c = text[i];
    if (c === '{') {
      const object = new JsonObject();
      nested('}', () => {
        if (text[i] !== '"') fail('expected a key');
        const key = string();
        space();
        if (text[i] !== ':') fail('expected :');
        i += 1;
        if (object.has(key)) object.repeated.add(key);
        object.set(key, value());
      });
      return object;
    }
    if (c === '[') {
      const array = [];
      nested(']', () => array.push(value()));
      return array;
    }
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    return fail(c === undefined ? 'unexpected end' : 'expected a value');
  };
  const result = value();
  space();
  if (i < text.length) fail('trailing characters');
  return result;
}

/**
 * The text serde_json writes back for the number it reads as `token`: an
 * integer that fits u64 or i64 as written; anything else as the double
 * serde_json's parser makes of it (its quick way, not always the nearest
 * double: the significand's first 19 or 20 digits, then one multiplication
 * or division by a power of ten), in shortest form. Throws RangeError where
 * serde_json finds the number out of range.
 */
function numberText(token) {
  const [, minus, whole, fraction, exponentSign, exponentDigits] =
    /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?)([0-9]+))?$/.exec(token);
  const positive = !minus;
  let significand = 0n;
  let exponent = 0;
  let dropped = false;
  for (const digit of whole) {
    if (!dropped && !overflows(significand, digit)) significand = significand * 10n + BigInt(digit);
    else {
      dropped = true;
      exponent += 1;
    }
  }
  if (fraction === undefined && exponentDigits === undefined && !dropped) {
    if (positive) return significand.toString();
    if (significand > 0n && -significand >= I64_MIN) return `-${significand}`;
    return shortestDouble(-Number(significand));
  }
  for (const digit of fraction ?? '') {
    if (overflows(significand, digit)) break;
    significand = significand * 10n + BigInt(digit);
    exponent -= 1;
  }
  if (exponentDigits !== undefined) {
    const up = exponentSign !== '-';
    let e = 0;
    for (const digit of exponentDigits) {
      if (e > 214748364 || (e === 214748364 && Number(digit) > 7)) {
        if (significand !== 0n && up) throw new RangeError(token);
        return shortestDouble(positive ? 0 : -0);
      }
      e = e * 10 + Number(digit);
    }
    exponent = Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, up ? exponent + e : exponent - e));
  }
  let f = Number(significand);
  for (;;) {
    const size = Math.abs(exponent);
    if (size < POW10.length) {
      if (exponent >= 0) f *= POW10[size];
      else f /= POW10[size];
      if (!Number.isFinite(f)) throw new RangeError(token);
      break;
    }
    if (f === 0) break;
    if (exponent >= 0) throw new RangeError(token);
    f /= 1e308;
    exponent += 308;
  }
  return shortestDouble(positive ? f : -f);
}

/** serde_json's powers of ten, 1e0 to 1e308 (each the double nearest to it). */
const POW10 = Array.from({ length: 309 }, (_, k) => Number(`1e${k}`));

/** Whether `significand * 10 + digit` leaves u64. */
function overflows(significand, digit) {
  return significand * 10n + BigInt(digit) > U64_MAX;
}

/**
 * A double as serde_json writes it (shortest round-trip digits, zmij's
 * layout): `0.0`, `-1.5`, `123.0`, `0.0001`, `1e+16`, `1.2e-7`.
 */
function shortestDouble(x) {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [, whole, fraction = '', exponent = '0'] = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(x)));
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  const leading = /^0*/.exec(digits)[0].length;
  digits = digits.slice(leading).replace(/0+$/, '');
  point -= leading;
  const length = digits.length;
  if (point >= length && point <= 16) return `${sign}${digits}${'0'.repeat(point - length)}.0`;
  if (point > 0 && point <= 16) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  if (point > -5 && point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  const mantissa = length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${mantissa}e${point > 0 ? '+' : ''}${point - 1}`;
}

/** The canonical JSON of a parsed value (see the top of this file). */
function canonical(value) {
  if (value === null || value === true || value === false) return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof JsonNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = [...value.keys()].sort(byCodePoint);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value.get(key))}`).join(',')}}`;
}

/** Orders strings by code point, as Rust orders them (by their UTF-8 bytes). */
function byCodePoint(a, b) {
  const x = [...a];
  const y = [...b];
  for (let k = 0; k < Math.min(x.length, y.length); k += 1) {
    const d = x[k].codePointAt(0) - y[k].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

/** The canonical JSON an event's hash is taken over. */
function canonicalEvent(event) {
  const { user, seat } = event.actor;
  const actor = user === null && seat === null
    ? 'null'
    : `{"seat":${seat === null ? 'null' : seat},"user_id":${user === null ? 'null' : JSON.stringify(user)}}`;
  return `{"actor":${actor},"at":${JSON.stringify(event.at)},"command":${canonical(event.command)},`
    + `"data":${canonical(event.data)},"seq":${event.seq},"type":${JSON.stringify(event.type)}}`;
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The fields of an object read as the server's structs read them: `fields`
 * maps each name to a reader of its value (`undefined` when absent), and a
 * field given twice is refused; other members are ignored.
 */
function readStruct(value, where, fields) {
  if (!(value instanceof JsonObject)) throw new Malformed(`${where} is not an object`);
  const out = {};
  for (const [name, read] of Object.entries(fields)) {
    if (value.repeated.has(name)) throw new Malformed(`${where}: duplicate field \`${name}\``);
    out[name] = read(value.has(name) ? value.get(name) : undefined, `${where}.${name}`);
  }
  return out;
}

const required = (read) => (v, where) => {
  if (v === undefined) throw new Malformed(`missing field ${where}`);
  return read(v, where);
};
const optional = (read) => (v, where) => (v === undefined || v === null ? null : read(v, where));
const anyValue = (v) => v;
const flag = (v, where) => {
  if (v !== undefined && typeof v !== 'boolean') throw new Malformed(`${where} is not a boolean`);
  return v;
};
const text = (v, where) => {
  if (typeof v !== 'string') throw new Malformed(`${where} is not a string`);
  return v;
};
const integer = (min, max) => (v, where) => {
  const n = v instanceof JsonNumber && /^-?[0-9]+$/.test(v.text) ? BigInt(v.text) : null;
  if (n === null || n < min || n > max) throw new Malformed(`${where} is not an integer between ${min} and ${max}`);
  return n;
};
const uuid = (v, where) => {
  const hyphenated = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
  let s = text(v, where);
  if (s.length === 38 && s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  else if (s.length === 45 && s.startsWith('urn:uuid:')) s = s.slice(9);
  let hex;
  if (/^[0-9a-fA-F]{32}$/.test(s)) hex = s;
  else if (hyphenated.test(s)) hex = s.replace(/-/g, '');
  else throw new Malformed(`${where} is not a UUID`);
  hex = hex.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** The document as the server's `AuditDocument` reads it (the fields verification needs). */
function readDocument(root) {
  const doc = readStruct(root, 'the document', {
    format: required(text),
    game_id: required(uuid),
    ruleset: required(text),
    rules: optional(text),
    status: required(text),
    finished_at: optional(text),
    seed_commitment: required(text),
    seed: required(text),
    events: required((v, where) => {
      if (!Array.isArray(v)) throw new Malformed(`${where} is not an array`);
      return v.map((event, k) => readEvent(event, `events[${k}]`));
    }),
    final_state: required(anyValue),
    result: optional(anyValue),
  });
  return { format: doc.format, ruleset: doc.ruleset, rules: doc.rules, seed: doc.seed,
    seedCommitment: doc.seed_commitment, events: doc.events };
}

function readEvent(value, where) {
  const event = readStruct(value, where, {
    seq: required(integer(I64_MIN, I64_MAX)),
    type: required(text),
    data: required(anyValue),
    actor: optional((v, at) => readStruct(v, at, { user_id: optional(uuid), seat: optional(integer(0n, 255n)) })),
    command: optional(anyValue),
    at: required(text),
    prev_hash: required(text),
    hash: required(text),
    schema_version: optional(integer(-32768n, 32767n)),
  });
  return {
    seq: event.seq,
    type: event.type,
    data: event.data,
    actor: { user: event.actor?.user_id ?? null, seat: event.actor?.seat ?? null },
    command: event.command,
    at: event.at,
    prevHash: event.prev_hash,
    hash: event.hash,
    schema: event.schema_version ?? 1n,
  };
}

/**
 * Why event 1 does not publish this document's game (null when it does):
 * it must be `game_created`, readable under its schema (records from before
 * rules versions name no rules: version 1 of the ruleset), with the
 * document's seed commitment, ruleset and rules.
 */
function creationMismatch(audit, first) {
  if (first.type !== 'game_created') return 'event 1 is not game_created';
  if (first.schema > SCHEMA) {
    return `event 1: game_created is written in schema ${first.schema}, newer than this verifier's ${SCHEMA}`;
  }
  let created;
  try {
    created = readStruct(first.data, 'game_created', {
      ruleset: required(text),
      players: required(integer(0n, 255n)),
      options: required(anyValue),
      seed_commitment: required(text),
      seed: optional(text),
      created_by: required(uuid),
      server_options: optional(anyValue),
      private: flag,
      rules: (v, where) => (v === undefined && first.schema < 2
        ? `${first.data.get('ruleset')}@1`
        : required(text)(v, where)),
    });
    const unknown = [...first.data.keys()].find((key) => !(key in created));
    if (unknown !== undefined) return `event 1: game_created has an unknown field \`${unknown}\``;
  } catch (error) {
    if (error instanceof Malformed) return `event 1: ${error.message}`;
    throw error;
  }
  if (created.seed_commitment !== audit.seedCommitment) {
    return 'event 1: the commitment published at creation is not the document\'s';
  }
  if (created.ruleset !== audit.ruleset) return 'event 1: the ruleset is not the document\'s';
  if (audit.rules !== null && audit.rules !== created.rules) {
    return 'event 1: the rules recorded at creation are not the document\'s';
  }
  return null;
}
