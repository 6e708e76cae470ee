//! The engine contract every ruleset implements.
//!
//! A game is a fold: `new_game` builds the initial state from the options,
//! `start` produces the opening events (the first deal), and from then on every
//! command a seat sends is turned into events by `decide` and applied by
//! `evolve`. Randomness is drawn only in `start` and `decide`, and whatever it
//! produced is written into the events, so replaying a log never needs the seed.

use std::fmt;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::random::Randomness;

/// A seat at the table, numbered 0..n-1 clockwise; "left" of seat `s` is `s + 1 (mod n)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's number as an index into per-seat vectors.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat to the left (the next one clockwise) at a table of `players`.
    #[must_use]
    pub fn left(self, players: usize) -> Seat {
        seat((self.index() + 1) % players)
    }
}

/// The seat with number `index`. Tables have at most six seats, so the
/// conversion never truncates in practice.
#[must_use]
pub fn seat(index: usize) -> Seat {
    Seat(u8::try_from(index).unwrap_or(u8::MAX))
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Who is looking at a game. Redaction depends on nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// A player: sees the public table and what their own seat may see.
    Seat(Seat),
    /// Anyone not seated: sees the public table only.
    Spectator,
    /// The audit of a finished game: sees everything.
    Auditor,
}

impl Viewer {
    /// Whether this viewer may see what only `seat` may see.
    #[must_use]
    pub fn sees_seat(self, seat: Seat) -> bool {
        match self {
            Viewer::Seat(own) => own == seat,
            Viewer::Spectator => false,
            Viewer::Auditor => true,
        }
    }

    /// Whether this viewer sees everything (the audit).
    #[must_use]
    pub fn is_auditor(self) -> bool {
        matches!(self, Viewer::Auditor)
    }
}

/// A well-formed command that the rules forbid now. The message says why, in
/// words a player understands ("card H5 is not in your hand").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleViolation(pub String);

impl RuleViolation {
    /// A violation with the given explanation.
    pub fn new(message: impl Into<String>) -> Self {
        RuleViolation(message.into())
    }
}

/// Options (or an explicit deal, or a player count) that the ruleset cannot play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OptionsError(pub String);

impl OptionsError {
    /// An options error with the given explanation.
    pub fn new(message: impl Into<String>) -> Self {
        OptionsError(message.into())
    }
}

/// The final result of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct GameResult<R> {
    /// One integer per seat: the match total.
    pub scores: Vec<i32>,
    /// The winning seats (several when the win is shared; empty for a draw).
    pub winners: Vec<Seat>,
    /// The teams and their totals, for rulesets played in teams.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub teams: Option<Vec<TeamResult>>,
    /// The tie-break that decided the winner, when one was needed
    /// (a stable snake_case code such as `black_hats`, `cookie`, `shared`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tie_break: Option<String>,
    /// How the game ended when that is not the usual way (`draw`, ...).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub outcome: Option<String>,
    /// A per-round breakdown (one entry for single-round games).
    pub rounds: Vec<R>,
}

/// A team's seats and summed score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct TeamResult {
    pub seats: Vec<Seat>,
    pub score: i32,
}

/// The engine of one ruleset: pure, synchronous and deterministic.
///
/// Laws every implementation keeps (the property tests check them):
/// - `legal_commands(s, seat)` is empty unless `seat` is in `to_act(s)`;
/// - every command it lists is accepted by `decide`, and `decide` refuses every
///   command it does not list;
/// - `decide` returns at least one event when it accepts;
/// - `evolve` never fails and never draws randomness;
/// - a game reaches a state with a `result` and an empty `to_act`.
pub trait Ruleset: 'static {
    /// The ruleset id used in the API (`hats`, `goathead`, ...).
    const ID: &'static str;
    /// A human name.
    const NAME: &'static str;
    /// Fewest seats.
    const MIN_PLAYERS: usize;
    /// Most seats.
    const MAX_PLAYERS: usize;
    /// Every version of these rules, oldest first; new games get the last
    /// (see [`crate::rules_version`]). Bump it, with a summary, whenever a
    /// change could alter any legal command, view, random draw, score or
    /// result of a recorded game.
    const RULES_VERSIONS: &'static [crate::RulesVersion];

    /// Fills in, among the options a new table left unset, what `version`
    /// decides differently from other versions (a default that changed).
    /// The filled options are recorded, so the game keeps them to the end.
    fn version_defaults(
        _version: u16,
        _players: usize,
        _options: &mut serde_json::Map<String, serde_json::Value>,
    ) {
    }

    /// The ruleset's options, as clients send them (unknown fields refused).
    type Options: Clone + std::fmt::Debug + Default + Serialize + DeserializeOwned;
    /// Everything the rules need to know about a game in progress.
    type State: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// One action of one seat, as clients send it (`{"type": ..., ...}`).
    type Command: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// A fact of the game, serialized as `{"type": ..., "data": {...}}`.
    type Event: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// What a viewer sees of the state.
    type View: Serialize;
    /// What a viewer sees of an event, serialized as `{"type": ..., "data": {...}}`.
    type EventView: Serialize;
    /// One round's line in the result's breakdown.
    type Round: Clone + std::fmt::Debug + Serialize;

    /// A JSON Schema (draft 2020-12 subset, as OpenAPI 3.1 uses) of `Options`.
    fn options_schema() -> serde_json::Value;

    /// The state before the first event, or why these options cannot be played
    /// with this many players (explicit deals are checked here).
    fn new_game(players: usize, options: Self::Options) -> Result<Self::State, OptionsError>;

    /// The events that open the game (the first deal, ...), drawing any
    /// randomness from `rng`.
    fn start(state: &Self::State, rng: &Randomness) -> Vec<Self::Event>;

    /// Applies one event. Never fails, never draws randomness.
    fn evolve(state: &mut Self::State, event: &Self::Event);

    /// The seats the game waits for, in seat order (empty once finished).
    fn to_act(state: &Self::State) -> Vec<Seat>;

    /// The exact list of commands `seat` may send now.
    fn legal_commands(state: &Self::State, seat: Seat) -> Vec<Self::Command>;

    /// Validates `command` from `seat` and returns the events it causes.
    /// The state is untouched; on error nothing happened.
    fn decide(
        state: &Self::State,
        seat: Seat,
        command: &Self::Command,
        rng: &Randomness,
    ) -> Result<Vec<Self::Event>, RuleViolation>;

    /// What `viewer` may see of the state. Redaction lives here and in `redact`.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    /// What `viewer` may see of an event.
    fn redact(event: &Self::Event, viewer: Viewer) -> Self::EventView;

    /// The result, once the game is over.
    fn result(state: &Self::State) -> Option<GameResult<Self::Round>>;

    /// Whether `event` shows some seat something hidden it had not seen: a
    /// card dealt, drawn, taken or played from a hand, a kitty looked at.
    /// The rule for takebacks: a command may be taken back only while none
    /// of its events (nor any since) reveals anything, so that taking it
    /// back leaves no seat knowing more than at the earlier version. Each
    /// ruleset states its own list; a new event kind must be placed.
    fn reveals(event: &Self::Event) -> bool;
}

/// Runs `events` through `evolve`, in order.
pub fn apply_all<R: Ruleset>(state: &mut R::State, events: &[R::Event]) {
    for event in events {
        R::evolve(state, event);
    }
}
