//! Tournaments (docs/tournaments.md): the pure rules, no database.
//!
//! - [`points`]: what a table gives each of its players (by places, or by
//!   matchpoints in duplicate mode), in thousandths of a point;
//! - [`standings`]: the order of the field after some rounds (points, then
//!   Buchholz, then seed);
//! - [`round_robin`], [`swiss`], [`elimination`]: the pairings of each format;
//! - [`matchpoints`]: duplicate scoring, each result against the other
//!   tables that held the same cards;
//! - [`duplicate`]: the tournament's seed, its commitment, each round's seed
//!   and the deals drawn from it;
//! - [`record`]: the events of a tournament's hash-chained record;
//! - [`settings`]: what an organiser sets, and the rules it must keep;
//! - [`schedule`]: the next round's pairing from the rounds played (the
//!   worker's and `verify`'s one function);
//! - [`results`]: a finished table's places and deal results, and a
//!   round's points;
//! - [`replay`]: a tournament as its record tells it;
//! - [`seeding`]: the field's order at the start, by rating;
//! - [`verify`]: a tournament's audit checked offline, every step
//!   recomputed;
//! - [`told`]: the notifications of a round started and of the end.
//!
//! Those are pure. The use cases, which read and write the store:
//! [`create`], [`registration`] (register, withdraw), [`read`] (one
//! tournament, the lists, the record), [`progress`] (rounds, tables and
//! standings as a viewer may see them), [`audit`] (the record, seed and
//! games in one document, once over) and [`rounds`] (the worker that
//! starts, pairs, scores and finishes).
//!
//! Players are *entrants*: numbers `0..n` in seed order (the order the
//! field is seeded in when the tournament starts; entrant 0 is the top seed).

pub mod audit;
pub mod create;
pub mod duplicate;
pub mod elimination;
pub mod matchpoints;
pub mod pairing;
pub mod points;
pub mod progress;
pub mod read;
pub mod record;
pub mod registration;
pub mod replay;
pub mod results;
pub mod round_robin;
pub mod rounds;
pub mod schedule;
pub mod seeding;
pub mod settings;
pub mod standings;
pub mod swiss;
pub mod told;
pub mod verify;

/// An entrant: a player's number in seed order (0 is the top seed).
pub type Entrant = usize;
