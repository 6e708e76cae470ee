//! Top Hats (seed 003): jump over the other colours' stacks to take their top
//! hats off, and be the last colour showing on the board. 2–3 players.
//!
//! # The game
//!
//! A 7 × 7 board, cells `a1`..`g7`; ring 0 is the outer row, ring 1 the 2nd
//! row, ring 2 the 3rd row, `d4` the centre where the neutral hat stands.
//! Seat 0 plays `red`, seat 1 `blue`, seat 2 `yellow`.
//!
//! - **Building** (everyone at once): each seat has 15 hats — nine of its own
//!   colour and the six it is given (two players: six of the opponent's; three
//!   players: three of each opponent's) — and builds five stacks of three, one
//!   `build_stack` at a time, naming the two hats under its own-colour top.
//! - **Placing** (seat 0 first, clockwise, one stack a turn): `place` a stack
//!   on an empty X cell (rings 1 and 2).
//! - **Play** (seat 0 first, clockwise): `move` a stack of one's colour to an
//!   adjacent empty cell outside the edge zone (the turn ends), or `jump` it
//!   over an adjacent stack to the empty cell just beyond, in one of the eight
//!   directions. Jumping a stack topped by another seat's colour takes that top
//!   hat off the board; the colour revealed owns the stack; a lone hat leaves
//!   the cell empty. Jumps chain (one command each) over any stacks — own,
//!   neutral or opposing — but never over the same cell twice in a turn; the
//!   chain ends with `end_turn` or by itself when no jump is left.
//! - **Forced capture**: when a stack of the player can jump an opposing
//!   stack, the turn's first action must be such a jump (the player chooses
//!   which). Later jumps of the chain are optional and free.
//! - **Edge zone**: ring 0, joined by ring 1 for the rest of the game once 5
//!   or fewer stacks (neutral included) stand at the start of a turn. Only a
//!   jump over an opposing stack lands there. With no capture available, a
//!   player with stacks in the edge zone must move or jump one of those; if
//!   none of them can, any stack may.
//! - **End**: after every removal, if one seat's colour alone shows on top,
//!   that seat wins (even mid-chain). At the start of every play turn, in this
//!   order: the ring-1 check; a seat with no colour on top or no legal action
//!   is skipped (with three players a colour can come back); if every seat is
//!   skipped in a row, or `quiet_turn_limit` played turns in a row removed no
//!   hat (skips do not count), the game is drawn.
//!
//! # Rulings (beyond the rules file)
//!
//! - The hidden hats of a stack are all the hats under its top. Its builder
//!   (and the audit) sees them; nobody else sees a hat until it is on top.
//!   Removed hats and revealed tops are public.
//! - The starting pools are public (the rules fix them): `building_started`
//!   lists them. What is left of a pool while building is private;
//!   `stack_built` shows other seats only the seat, the stack number and its
//!   height (`under: null`).
//! - A stack keeps its builder for the whole game, whoever owns it later.
//! - "Opposing stack" means a stack topped by another seat's colour; jumping
//!   one's own stacks or the neutral hat removes nothing. The neutral hat
//!   never moves and is never removed.
//! - A capture may land on any empty cell, edge zone included; every other
//!   landing (moves, non-capturing jumps, later jumps of a chain that are not
//!   captures) must be outside the edge zone.
//! - The edge obligation counts only edge stacks that have a legal move or
//!   non-capturing jump; if none has, any stack may move. A capture by any
//!   stack always satisfies the turn's first action.
//! - During a chain only the jumping stack acts; `move` is refused and
//!   `end_turn` is offered only while a further jump exists. When none is
//!   left the chain ends by itself (`chain_ended` with `voluntary: false`).
//! - A turn is quiet when its whole chain removed no hat; a removal anywhere
//!   in the chain resets the count. `quiet_turn_limit` is at least 1.
//! - The start-of-turn checks also run when play begins (after the last
//!   placement, or at once from a preset position).
//! - Preset positions: 1–3 hats per stack; the neutral hat at most once and
//!   alone; only colours of seats at the table; at least two seats' colours
//!   on top; `to_move` a seat. A stack's `builder` defaults to the seat of its
//!   top colour (nobody for the neutral hat). The preset is public in the
//!   options, but views and events still hide what is under the tops.
//! - A colour counts as "showing" only on top of a stack: hats hidden under
//!   other tops do not keep a seat in the game, and the win is checked only
//!   after a removal (the only thing that changes which colours show).
//! - The 2nd row joins the edge zone once, with an `edge_zone_grew` event
//!   listing its 16 cells, and stays edge zone even if no stack is removed later.
//! - Skips are events (`skipped` with `no_colour` or `no_action`); a win is
//!   `won`, a draw `drawn` with `quiet_turns` or `no_action`.
//! - Scores: each seat scores the stacks showing its colour at the end; the
//!   round lists stacks per seat, hats per colour still on the board and hats
//!   removed. A win has one winner; a draw has none and outcome `draw`.

mod board;
mod bot;
mod commands;
mod events;
mod options;
mod rules;
mod scoring;
mod state;
mod view;

#[cfg(test)]
mod tests;

pub use board::{Cell, Colour};
pub use commands::Command;
pub use events::{DrawReason, Event, EventView, HiddenEvent, SkipReason};
pub use options::{Options, Position, PresetStack};
pub use scoring::Round;
pub use state::{End, Phase, State};
pub use view::View;

use crate::random::Randomness;
use crate::ruleset::{GameResult, OptionsError, RuleViolation, Ruleset, Seat, Viewer};
use crate::testing::CommandSpace;

/// The Top Hats ruleset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TopHats;

impl Ruleset for TopHats {
    const ID: &'static str = "top-hats";
    const NAME: &'static str = "Top Hats";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 3;
    const RULES_VERSIONS: &'static [crate::RulesVersion] = &[
        crate::RulesVersion {
            number: 1,
            summary: "The rules of seed 003 with the rulings of the first release: a game with no removed hat for 60 played turns in a row is drawn, at any table size.",
            salted: false,
        },
        crate::RulesVersion {
            number: 2,
            summary: "The quiet-turn draw counts per player, as chess's fifty-move rule does: by default 50 played turns per player in a row with no removed hat (100 at two players, 150 at three).",
            salted: false,
        },
    ];

    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;
    type EventView = EventView;
    type Round = Round;

    fn options_schema() -> serde_json::Value {
        options::schema()
    }

    /// `top-hats@2`: an unset `quiet_turn_limit` is 50 played turns per player.
    fn version_defaults(
        version: u16,
        players: usize,
        options: &mut serde_json::Map<String, serde_json::Value>,
    ) {
        if version >= 2 && !options.contains_key("quiet_turn_limit") {
            let players = u32::try_from(players).unwrap_or(u32::MAX);
            options.insert(
                "quiet_turn_limit".to_owned(),
                options::QUIET_TURNS_PER_PLAYER
                    .saturating_mul(players)
                    .into(),
            );
        }
    }

    fn new_game(players: usize, options: Options) -> Result<State, OptionsError> {
        rules::new_game(players, options)
    }

    fn start(state: &State, _rng: &Randomness) -> Vec<Event> {
        rules::start(state)
    }

    fn evolve(state: &mut State, event: &Event) {
        rules::evolve(state, event);
    }

    fn to_act(state: &State) -> Vec<Seat> {
        rules::to_act(state)
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<Command> {
        rules::legal_commands(state, seat)
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &Command,
        _rng: &Randomness,
    ) -> Result<Vec<Event>, RuleViolation> {
        rules::decide(state, seat, command)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn redact(event: &Event, viewer: Viewer) -> EventView {
        events::redact(event, viewer)
    }

    fn result(state: &State) -> Option<GameResult<Round>> {
        scoring::result(state)
    }

    fn reveals(event: &Event) -> bool {
        events::reveals(event)
    }
}

impl CommandSpace for TopHats {
    fn candidate_commands(state: &State, _seat: Seat) -> Vec<Command> {
        rules::candidates(state)
    }
}
