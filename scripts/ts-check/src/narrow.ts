// Every event a client reads, narrowed by one field to one schema: each
// `case` reads a part of `data` only that event has, so this compiles only
// while the document tells every event apart. The `never` defaults make a
// new event in the document a compile error here until it is read.

import type { components } from "./hatstand.js";

type Schemas = components["schemas"];

/** Fails to compile when a switch misses a case; fails at run time when the
 * server sends what the document does not name. */
function unknown(value: never): never {
  throw new Error(`not in the document: ${JSON.stringify(value)}`);
}

const cards = (value: readonly unknown[] | number): string =>
  typeof value === "number" ? `${value} hidden` : `${value.length}`;

/** One event of the feed or a game's stream, narrowed by `kind`. */
export function narrowEvent(e: Schemas["EventOut"]): string {
  switch (e.kind) {
    // The server's events, the same in every ruleset.
    case "game_created":
      switch (e.data.ruleset) {
        case "hats":
          return `${e.kind}: first seat ${e.data.options.first_seat ?? 0}`;
        case "goathead":
          return `${e.kind}: ${e.data.options.rounds ?? "default"} rounds`;
        case "hat-trick":
          return `${e.kind}: ${e.data.options.rounds ?? "default"} rounds`;
        case "top-hats":
          return `${e.kind}: quiet turn limit ${e.data.options.quiet_turn_limit ?? "default"}`;
      }
      return unknown(e.data);
    case "player_invited":
    case "player_declined":
      return `${e.kind}: ${e.data.username}`;
    case "player_joined":
      return `${e.kind}: ${e.data.username} at ${e.data.seat}`;
    case "game_started":
      return e.kind;
    case "game_cancelled":
      return `${e.kind}: by ${e.data.by}`;
    case "turn_timed_out":
    case "turn_forced":
    case "turn_takeback_accepted":
    case "turn_takeback_declined":
      return `${e.kind}: ${e.data.seat}`;
    case "turn_takeback_offered":
    case "turn_taken_back":
      return `${e.kind}: ${e.data.seat} back to version ${e.data.to_version}`;
    case "game_clock_started":
      return `${e.kind}: zones ${e.data.zones.join(",")}`;
    case "seat_bank_changed":
      return `${e.kind}: ${e.data.seat} has ${e.data.bank_ms} ms`;
    case "seat_substituted":
      return `${e.kind}: ${e.data.username} takes seat ${e.data.seat}`;
    case "game_pause_proposed":
      return `${e.kind}: ${e.data.seat} until ${e.data.until ?? "a resume"}`;
    case "game_pause_voted":
      return `${e.kind}: ${e.data.seat} ${e.data.yes ? "yes" : "no"}`;
    case "game_paused":
      return `${e.kind}: until ${e.data.until ?? "a resume"}`;
    case "game_resumed":
      return `${e.kind}: by ${e.data.seat ?? "its end"}`;
    case "seat_vacation":
      return `${e.kind}: ${e.data.seat} until ${e.data.until}`;
    case "player_resigned":
      return `${e.kind}: ${e.data.seat} (${e.data.reason})`;
    case "game_forfeited":
      return `${e.kind}: ${e.data.winners.join(",")}`;
    // Hats.
    case "hats.dealt":
      return `${e.kind}: line ${e.data.line.join(" ")}, deck ${cards(e.data.deck)}`;
    case "hats.discarded":
    case "hats.drew":
    case "hats.swap_offered":
    case "hats.black_hat_made":
      return `${e.kind}: ${e.data.seat} ${e.data.card ?? "hidden"}`;
    case "hats.reshuffled":
      return `${e.kind}: ${cards(e.data.deck)}`;
    case "hats.swapped":
      return `${e.kind}: ${e.data.seat} and ${e.data.partner}`;
    case "hats.exchanged":
      return `${e.kind}: ${e.data.card} for ${e.data.taken} at ${e.data.position}`;
    case "hats.favourites_revealed":
      return `${e.kind}: ${e.data.favourites.join(" ")}`;
    // Goathead.
    case "goathead.dealt":
      return `${e.kind}: round ${e.data.round}, kitty ${cards(e.data.kitty)}`;
    case "goathead.bid":
    case "goathead.stole":
    case "goathead.contract_kept":
    case "goathead.contract_upgraded":
      return `${e.kind}: ${e.data.seat} ${e.data.contract}`;
    case "goathead.passed":
    case "goathead.kitty_left":
    case "goathead.kitty_skipped":
      return `${e.kind}: ${e.data.seat}`;
    case "goathead.contract_set":
      return `${e.kind}: ${e.data.contract} by ${e.data.declarer ?? "nobody"}`;
    case "goathead.kitty_taken":
      return `${e.kind}: ${cards(e.data.cards)}`;
    case "goathead.buried":
    case "goathead.card_played":
      return `${e.kind}: ${e.data.seat} ${e.data.card ?? "hidden"}`;
    case "goathead.kitty_swapped":
      return `${e.kind}: ${e.data.hand_card ?? "hidden"} for ${e.data.kitty_card ?? "hidden"}`;
    case "goathead.announced":
      return `${e.kind}: partner ${e.data.partner_card}`;
    case "goathead.play_started":
      return `${e.kind}: ${e.data.leader} leads, side ${e.data.declaring_side?.join(",") ?? "hidden"}`;
    case "goathead.trick_won":
      return `${e.kind}: ${e.data.seat} +${e.data.points}`;
    case "goathead.round_scored":
      return `${e.kind}: ${e.data.contract} made ${e.data.made}`;
    case "goathead.match_ended":
      return `${e.kind}: ${e.data.winners.join(",")}`;
    // Hat Trick.
    case "hat-trick.dealt":
      return `${e.kind}: trump ${e.data.trump}, ${e.data.left.length} left over`;
    case "hat-trick.played":
      return `${e.kind}: ${e.data.seat} ${e.data.card}`;
    case "hat-trick.trick_won":
      return `${e.kind}: ${e.data.winner} took trick ${e.data.trick}`;
    case "hat-trick.round_scored":
      return `${e.kind}: totals ${e.data.totals.join(",")}`;
    case "hat-trick.match_ended":
      return `${e.kind}: ${e.data.winners.join(",")}`;
    // Top Hats: `stack_built` and `position_set` as the feed shows them,
    // redacted (a height; `under` for the builder only).
    case "top-hats.building_started":
      return `${e.kind}: ${e.data.pools.length} pools`;
    case "top-hats.position_set":
      return `${e.kind}: ${e.data.stacks.length} stacks, ${e.data.to_move} to move`;
    case "top-hats.stack_built":
      return `${e.kind}: ${e.data.seat} #${e.data.stack} of height ${e.data.height}, under ${e.data.under?.join("/") ?? "hidden"}`;
    case "top-hats.stack_placed":
      return `${e.kind}: ${e.data.seat} #${e.data.stack} on ${e.data.cell}`;
    case "top-hats.moved":
      return `${e.kind}: ${e.data.from}-${e.data.to}`;
    case "top-hats.jumped":
      return `${e.kind}: ${e.data.from}x${e.data.over}-${e.data.to}`;
    case "top-hats.chain_ended":
      return `${e.kind}: ${e.data.voluntary ? "by choice" : "no jump left"}`;
    case "top-hats.edge_zone_grew":
      return `${e.kind}: ${e.data.cells.length} cells`;
    case "top-hats.skipped":
      return `${e.kind}: ${e.data.seat} (${e.data.reason})`;
    case "top-hats.won":
      return `${e.kind}: ${e.data.seat}`;
    case "top-hats.drawn":
      return `${e.kind}: ${e.data.reason}`;
  }
  return unknown(e);
}

/** The server's events as an audit shows them: the same in every ruleset. */
type ServerAudited = Extract<Schemas["HatsAuditEvent"], { command?: null }>;

function serverAudited(e: ServerAudited): string {
  switch (e.type) {
    case "game_created":
      return `${e.type}: ${e.data.ruleset}, seed committed ${e.data.seed_commitment.slice(0, 8)}`;
    case "player_invited":
    case "player_declined":
    case "player_joined":
      return `${e.type}: ${e.data.username}`;
    case "game_started":
      return e.type;
    case "game_cancelled":
      return `${e.type}: ${e.data.by}`;
    case "turn_timed_out":
    case "turn_forced":
    case "seat_vacation":
    case "player_resigned":
    case "turn_takeback_accepted":
    case "turn_takeback_declined":
      return `${e.type}: ${e.data.seat}`;
    case "turn_takeback_offered":
    case "turn_taken_back":
      return `${e.type}: ${e.data.seat} back to version ${e.data.to_version}`;
    case "game_clock_started":
      return `${e.type}: zones ${e.data.zones.join(",")}`;
    case "seat_bank_changed":
      return `${e.type}: ${e.data.seat} has ${e.data.bank_ms} ms`;
    case "seat_substituted":
      return `${e.type}: ${e.data.to} takes seat ${e.data.seat} from ${e.data.from}`;
    case "game_pause_proposed":
      return `${e.type}: ${e.data.seat} until ${e.data.until ?? "a resume"}`;
    case "game_pause_voted":
      return `${e.type}: ${e.data.seat} ${e.data.yes ? "yes" : "no"}`;
    case "game_paused":
      return `${e.type}: until ${e.data.until ?? "a resume"}`;
    case "game_resumed":
      return `${e.type}: by ${e.data.seat ?? "its end"}`;
    case "game_forfeited":
      return `${e.type}: ${e.data.outcome}`;
  }
  return unknown(e);
}

function hatsAudited(e: Schemas["HatsAuditEvent"]): string {
  switch (e.type) {
    case "dealt":
      // Unredacted: every hand and the deck as cards.
      return `${e.type}: ${e.data.hands.map((hand) => hand.length).join("+")} cards dealt, deck ${e.data.deck.length}`;
    case "discarded":
    case "drew":
    case "swap_offered":
    case "black_hat_made":
      return `${e.type}: ${e.data.card} by ${e.actor?.seat ?? e.data.seat}, answering ${e.command?.type ?? "no command"}`;
    case "reshuffled":
      return `${e.type}: ${e.data.deck.length}`;
    case "swapped":
      return `${e.type}: ${e.data.offered} for ${e.data.answered}`;
    case "exchanged":
      return `${e.type}: ${e.data.card} for ${e.data.taken}`;
    case "favourites_revealed":
      return `${e.type}: ${e.data.favourites.join(" ")}`;
    default:
      return serverAudited(e);
  }
}

function goatheadAudited(e: Schemas["GoatheadAuditEvent"]): string {
  switch (e.type) {
    case "dealt":
      return `${e.type}: kitty ${e.data.kitty.join(" ")}`;
    case "bid":
    case "stole":
    case "contract_kept":
    case "contract_upgraded":
      return `${e.type}: ${e.data.contract}`;
    case "passed":
    case "kitty_left":
    case "kitty_skipped":
      return `${e.type}: ${e.data.seat}`;
    case "contract_set":
      return `${e.type}: ${e.data.contract}`;
    case "kitty_taken":
      return `${e.type}: ${e.data.cards.join(" ")}`;
    case "buried":
    case "card_played":
      return `${e.type}: ${e.data.card}`;
    case "kitty_swapped":
      return `${e.type}: ${e.data.hand_card} for ${e.data.kitty_card}`;
    case "announced":
      return `${e.type}: ${e.data.partner_card}`;
    case "play_started":
      return `${e.type}: ${e.data.leader}`;
    case "trick_won":
      return `${e.type}: ${e.data.points}`;
    case "round_scored":
      return `${e.type}: ${e.data.value}`;
    case "match_ended":
      return `${e.type}: ${e.data.scores.join(",")}`;
    default:
      return serverAudited(e);
  }
}

function hatTrickAudited(e: Schemas["HatTrickAuditEvent"]): string {
  switch (e.type) {
    case "dealt":
      return `${e.type}: ${e.data.hands.map((hand) => hand.length).join("+")} cards, left ${e.data.left.join(" ")}`;
    case "played":
      return `${e.type}: ${e.data.card}`;
    case "trick_won":
      return `${e.type}: ${e.data.winner}`;
    case "round_scored":
      return `${e.type}: ${e.data.points.join(",")}`;
    case "match_ended":
      return `${e.type}: ${e.data.winners.join(",")}`;
    default:
      return serverAudited(e);
  }
}

function topHatsAudited(e: Schemas["TopHatsAuditEvent"]): string {
  switch (e.type) {
    case "building_started":
      return `${e.type}: ${e.data.pools.length}`;
    case "position_set":
      // Unredacted: every hat of every stack.
      return `${e.type}: ${e.data.stacks.map((s) => s.hats.join("/")).join(" ")}`;
    case "stack_built":
      return `${e.type}: under ${e.data.under.join("/")}`;
    case "stack_placed":
      return `${e.type}: ${e.data.cell}`;
    case "moved":
    case "jumped":
      return `${e.type}: ${e.data.from}-${e.data.to}`;
    case "chain_ended":
      return `${e.type}: ${e.data.voluntary}`;
    case "edge_zone_grew":
      return `${e.type}: ${e.data.cells.join(",")}`;
    case "skipped":
    case "drawn":
      return `${e.type}: ${e.data.reason}`;
    case "won":
      return `${e.type}: ${e.data.seat}`;
    default:
      return serverAudited(e);
  }
}

/** An audit, narrowed by its `ruleset`, each event by its `type`; its final
 * state and result are the ruleset's. */
export function narrowAudit(audit: Schemas["AuditDocument"]): string {
  switch (audit.ruleset) {
    case "hats": {
      const read = audit.events.map(hatsAudited);
      const state = audit.final_state;
      return `audit of ${read.length} events, final line ${state?.line.length ?? 0} cards`;
    }
    case "goathead": {
      const read = audit.events.map(goatheadAudited);
      const state = audit.final_state;
      return `audit of ${read.length} events, final points ${state?.game_points.join(",") ?? "none"}`;
    }
    case "hat-trick": {
      const read = audit.events.map(hatTrickAudited);
      const state = audit.final_state;
      return `audit of ${read.length} events, final scores ${state?.scores.join(",") ?? "none"}`;
    }
    case "top-hats": {
      const read = audit.events.map(topHatsAudited);
      const state = audit.final_state;
      return `audit of ${read.length} events, final board of ${state?.board.length ?? 0} cells`;
    }
  }
  return unknown(audit);
}

/** A notification, narrowed by its `type`. */
export function narrowNotification(note: Schemas["WebhookPayload"]): string {
  switch (note.type) {
    case "your_turn":
      return `${note.type}: seat ${note.data.seat} at version ${note.data.version}`;
    case "game_finished":
      return `${note.type}: ${note.data.status} (${note.data.ruleset})`;
    case "invited":
      return `${note.type}: ${note.data.players} players`;
    case "talk":
      return `${note.type}: ${note.data.message.from.username} in ${note.data.message.room}: ${note.data.message.text ?? "(hidden)"}`;
    case "takeback_offered":
      return `${note.type}: seat ${note.data.seat} asks to go back to version ${note.data.to_version}`;
    case "seat_substituted":
      return `${note.type}: ${note.data.username} takes seat ${note.data.seat}`;
    case "tournament_round":
      return `${note.type}: round ${note.data.round + 1} of ${note.data.name}, table ${note.data.game_id}`;
    case "tournament_finished":
      return note.data.cancelled
        ? `${note.type}: ${note.data.name} cancelled (${note.data.field} registered)`
        : `${note.type}: ${note.data.name}, place ${note.data.place ?? "none"} of ${note.data.field}`;
  }
  return unknown(note);
}
