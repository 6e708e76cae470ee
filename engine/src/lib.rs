//! The rules engines of hatstand: pure, synchronous and deterministic.
//!
//! Each ruleset implements [`Ruleset`]: a game is a fold of events, commands
//! are validated by `decide` (the only place randomness is drawn, from the
//! game's seeded [`Randomness`]), and every viewer's view is a redaction of the
//! state. Nothing here does I/O; the server crate stores and serves the events.

pub mod bots;
mod codes;
pub mod goathead;
pub mod hat_trick;
pub mod hats;
pub mod kind;
pub mod merkle;
pub mod random;
pub mod rules_version;
pub mod ruleset;
pub mod testing;
pub mod top_hats;

pub use kind::GameKind;
pub use random::Randomness;
pub use rules_version::{Rules, RulesError, RulesVersion};
pub use ruleset::{
    GameResult, OptionsError, RuleViolation, Ruleset, Seat, TeamResult, Viewer, apply_all, seat,
};
