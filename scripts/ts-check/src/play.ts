// Plays one game of every ruleset to its end through openapi-fetch, typed
// by openapi-typescript from the committed OpenAPI document, and reads each
// game's feed, its stream and its audit with every event narrowed by one
// field (`kind` in the feed and stream, `type` in a ruleset's audit), with
// no cast and no `any` (scripts/ts-check.sh checks both, and compiles this
// under --strict). Run by scripts/ts-check.sh:
//
//     node out/play.js BASE_URL

import createClient from "openapi-fetch";
import type { Client } from "openapi-fetch";

import type { components, paths } from "./hatstand.js";
import { narrowAudit, narrowEvent, narrowNotification } from "./narrow.js";
import { eventsOf } from "./stream.js";

type Schemas = components["schemas"];
type Api = Client<paths>;
type Game = Schemas["Game"];
type RulesetId = Schemas["RulesetId"];
type Problem = Schemas["Problem"];

declare const process: { argv: string[]; exitCode?: number };

const base = process.argv[2] ?? "http://127.0.0.1:8080";

/** Fails the check with what the server said. */
function fail(what: string, problem?: Problem | string): never {
  const said = typeof problem === "string" ? problem : JSON.stringify(problem);
  throw new Error(`${what}: ${said ?? "no answer"}`);
}

/** A player signed up and in: a client that sends its token, and the token. */
async function player(name: string): Promise<{ api: Api; token: string }> {
  const anonymous = createClient<paths>({ baseUrl: base });
  const credentials = { username: name, password: "ts-check-password" };
  await anonymous.POST("/v1/auth/register", { body: credentials });
  const { data, error } = await anonymous.POST("/v1/auth/login", { body: credentials });
  if (!data) fail(`sign in ${name}`, error);
  const api = createClient<paths>({
    baseUrl: base,
    headers: { Authorization: `Bearer ${data.access_token}` },
  });
  return { api, token: data.access_token };
}

/** A game as `api` sees it. */
async function read(api: Api, id: string): Promise<Game> {
  const { data, error } = await api.GET("/v1/games/{id}", { params: { path: { id } } });
  if (!data) fail(`read ${id}`, error);
  return data;
}

/** A pseudo-random choice, the same every run. */
let seed = 1;
function pick<T>(items: readonly T[]): T {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  const item = items[seed % Math.max(items.length, 1)];
  if (item === undefined) fail("nothing to pick from");
  return item;
}

/** Each ruleset's smallest table, with short games where it has a length
 * option: a request to create a game, narrowed by its `ruleset` to that
 * ruleset's request, whose options are the ruleset's options as sent. */
const tables: { [R in RulesetId]: Extract<Schemas["CreateGame"], { ruleset: R }> } = {
  hats: { ruleset: "hats", players: 2, options: { turn_timeout: "PT24H" } satisfies Schemas["HatsGameOptions"] },
  goathead: { ruleset: "goathead", players: 3, options: { rounds: 1 } satisfies Schemas["GoatheadGameOptions"] },
  "hat-trick": { ruleset: "hat-trick", players: 2, options: { rounds: 2 } satisfies Schemas["HatTrickGameOptions"] },
  "top-hats": { ruleset: "top-hats", players: 2, options: {} satisfies Schemas["TopHatsGameOptions"] },
};

/** What a finished game says, read as its ruleset's types. */
function outcome(game: Game): string {
  switch (game.ruleset) {
    case "hats": {
      const explicit: number | undefined = game.options.explicit_deals;
      const result = game.result;
      if (result === null) return fail("a finished game has a result");
      return "outcome" in result
        ? `forfeit, winners ${result.winners.join(",")}`
        : `scores ${result.scores.join(",")} over ${result.rounds.length} round(s), ${explicit ?? 0} explicit deals`;
    }
    case "goathead": {
      const result = game.result;
      if (result === null) return fail("a finished game has a result");
      return "outcome" in result
        ? `forfeit, winners ${result.winners.join(",")}`
        : `scores ${result.scores.join(",")}, first round's contract ${result.rounds[0]?.contract ?? "none"}`;
    }
    case "hat-trick": {
      const result = game.result;
      if (result === null) return fail("a finished game has a result");
      return "outcome" in result
        ? `forfeit, winners ${result.winners.join(",")}`
        : `scores ${result.scores.join(",")}, trumps ${result.rounds.map((r) => r.trump).join(",")}`;
    }
    case "top-hats": {
      const result = game.result;
      if (result === null) return fail("a finished game has a result");
      return `winners ${result.winners.join(",")}, quiet turn limit ${game.options.quiet_turn_limit ?? "default"}`;
    }
  }
}

/** Checks that `If-None-Match` with the game's `ETag` answers 304, without
 * a body: `data` and `error` are both to be ignored then; `response.status`
 * tells. */
async function notModified(api: Api, id: string): Promise<void> {
  const first = await api.GET("/v1/games/{id}", { params: { path: { id } } });
  const etag = first.response.headers.get("ETag");
  if (!first.data || etag === null) return fail("a game has an ETag", first.error);
  const again = await api.GET("/v1/games/{id}", {
    params: { path: { id }, header: { "If-None-Match": etag } },
  });
  if (again.response.status !== 304) fail(`If-None-Match ${etag}: ${again.response.status}`);
  // A 304 has no body: openapi-fetch leaves `data` undefined (and `error`
  // an empty string, which the document does not type: read the status
  // first, as here).
  if (again.data !== undefined) fail("a 304 with a body");
}

async function play(ruleset: RulesetId, run: number): Promise<void> {
  const table = tables[ruleset];
  const players = [];
  for (let seat = 0; seat < table.players; seat++) {
    players.push(await player(`ts-${ruleset}-${run}-${seat}-${Date.now() % 100000}`));
  }
  const seats = players.map((p) => p.api);
  const [creator, ...others] = seats;
  const token = players[0]?.token;
  if (!creator || token === undefined) return fail("no players");
  const created = await creator.POST("/v1/games", {
    body: table,
  });
  if (!created.data) return fail(`create ${ruleset}`, created.error);
  const id = created.data.id;
  for (const other of others) {
    const joined = await other.POST("/v1/games/{id}/join", { params: { path: { id } }, body: {} });
    if (!joined.data) fail(`join ${id}`, joined.error);
  }
  // Table talk: the creator speaks at the table; the others are told and
  // read it, each message and page typed.
  const said = await creator.POST("/v1/games/{id}/talk", {
    params: { path: { id } },
    body: { room: "table", to: [], text: `good luck, ${ruleset}` },
  });
  if (!said.data) return fail(`say in ${id}`, said.error);
  const heard = await (others[0] ?? creator).GET("/v1/games/{id}/talk", {
    params: { path: { id }, query: { limit: 10 } },
  });
  if (!heard.data) return fail(`talk of ${id}`, heard.error);
  if (!heard.data.messages.some((m) => m.id === said.data.id && m.text === said.data.text)) {
    fail("the table's message is not read by the table");
  }
  const muted = await creator.GET("/v1/me/mutes", {});
  if (!muted.data) return fail("mutes", muted.error);
  let commands = 0;
  for (;;) {
    const game = await read(creator, id);
    if (game.ruleset !== ruleset) fail(`a ${ruleset} game read as ${game.ruleset}`);
    if (game.status === "finished") break;
    if (game.status !== "active") fail(`game ${id} is ${game.status}`);
    const seat = pick(game.to_act);
    const api = seats[seat];
    if (!api) return fail(`no player at seat ${seat}`);
    const mine = await read(api, id);
    if (mine.my_seat !== seat) fail(`seat ${seat} reads as ${mine.my_seat}`);
    if (commands === 0) await notModified(api, id);
    const command = pick<Schemas["Command"]>(mine.legal_commands);
    const sent = await api.POST("/v1/games/{id}/commands", {
      params: { path: { id } },
      body: { command, expected_version: mine.version },
    });
    if (!sent.data) fail(`command ${JSON.stringify(command)}`, sent.error);
    commands++;
  }
  const game = await read(creator, id);

  // The feed, each event narrowed by `kind`.
  const feed = await creator.GET("/v1/games/{id}/events", {
    params: { path: { id }, query: { limit: 1000 } },
  });
  if (!feed.data) return fail(`events of ${id}`, feed.error);
  const kinds = new Set(feed.data.events.map((e) => narrowEvent(e).split(":")[0]));
  feed.data.events.forEach((e, i) => {
    if (e.seq !== i + 1) fail(`event ${i + 1} has seq ${e.seq}`);
  });

  // The stream: the same events, parsed from its frames.
  const streamed = await eventsOf(base, id, token, feed.data.events.length);
  if (JSON.stringify(streamed) !== JSON.stringify(feed.data.events)) {
    fail("the stream's events differ from the feed's");
  }
  streamed.forEach(narrowEvent);

  // The audit, each event narrowed by `type` within its ruleset.
  const audit = await creator.GET("/v1/games/{id}/audit", { params: { path: { id } } });
  if (!audit.data) return fail(`audit of ${id}`, audit.error);
  if (audit.data.events.length !== feed.data.events.length) fail("the audit and the feed differ");
  const audited = narrowAudit(audit.data);

  // A replayed state, as its ruleset's view.
  const replayed = await creator.GET("/v1/games/{id}/state", {
    params: { path: { id }, query: { at: feed.data.version } },
  });
  if (!replayed.data) return fail(`state of ${id}`, replayed.error);
  if (replayed.data.ruleset !== ruleset || replayed.data.view === null) fail("a replayed state");

  // The notifications: each narrowed by `type`.
  const notes = await creator.GET("/v1/me/notifications", {});
  if (!notes.data) return fail("notifications", notes.error);
  const told = notes.data.notifications.map(narrowNotification);
  if (!told.some((note) => note.startsWith("game_finished"))) fail("no game_finished notification");
  // Another seat was told of the creator's message, narrowed as talk.
  const listener = others[0];
  if (listener) {
    const theirs = await listener.GET("/v1/me/notifications", {});
    if (!theirs.data) return fail("notifications", theirs.error);
    if (!theirs.data.notifications.map(narrowNotification).some((note) => note.startsWith("talk"))) {
      fail("no talk notification");
    }
  }

  console.log(
    `${ruleset}: ${table.players} players, ${commands} commands, ${outcome(game)}; ` +
      `feed and stream of ${feed.data.events.length} events (${kinds.size} kinds), ` +
      `${audited}, ${told.length} notification(s)`,
  );
}

/** The rulesets, each with its defaults typed as its sent options. */
async function rulesets(): Promise<RulesetId[]> {
  const { data, error } = await createClient<paths>({ baseUrl: base }).GET("/v1/rulesets");
  if (!data) return fail("rulesets", error);
  return data.map((info) => {
    switch (info.id) {
      case "hats":
        return info.defaults.deals !== undefined ? info.id : fail("hats defaults");
      case "goathead":
        return info.defaults.rounds !== undefined ? info.id : fail("goathead defaults");
      case "hat-trick":
        return info.defaults.rounds !== undefined ? info.id : fail("hat-trick defaults");
      case "top-hats":
        return info.id;
    }
  });
}

const all = await rulesets();
for (const [run, ruleset] of all.entries()) {
  await play(ruleset, run);
}
console.log(`ts-check: ${all.length} rulesets played to the end, every event narrowed`);
