//! Bots on the server: the built-in bot accounts, seating them in games,
//! thinking off the HTTP threads, and the worker that plays their turns.
//!
//! - Every level of [`hatstand_engine::bots`] has one built-in account
//!   (`bot.random`, `bot.greedy`, `bot.ismcts`; users of kind `bot`, written
//!   by a migration). Nobody can sign in as them.
//! - A game gets bot seats when it is created (`bots`) or later, while it is
//!   open (`POST /v1/games/{id}/bots`, [`seat::AddBot`]).
//! - The [`worker`] of every server process plays the turns of built-in
//!   bots through the same command path as a player: the move is an
//!   ordinary event with the bot as its actor.
//! - A bot is shown its seat's view and legal commands, nothing else
//!   ([`think`]).
//! - Accounts of players' own bots are users of kind `bot` too (`POST
//!   /v1/me/bot`): they play through the API like anyone, labelled as bots,
//!   and games created with `humans_only` refuse them.

pub mod seat;
pub mod think;
pub mod worker;

use hatstand_engine::bots::Level;
use uuid::Uuid;

use crate::auth::Caller;

/// How many built-in accounts each level has: a table seats at most five
/// bots beside one player.
pub const INSTANCES: u8 = 5;

/// The `n`th (1-based) built-in bot of `level`: its user id,
/// `00000000-0000-4000-8000-00000000b<level><0><n>` (levels 1–3 weakest first).
#[must_use]
pub fn builtin_id(level: Level, n: u8) -> Uuid {
    let l: u128 = match level {
        Level::Random => 1,
        Level::Greedy => 2,
        Level::Ismcts => 3,
    };
    Uuid::from_u128(0x0000_0000_0000_4000_8000_0000_0000_b000 | l << 8 | u128::from(n))
}

/// The `n`th built-in bot of `level`: its username (`bot.ismcts`,
/// `bot.ismcts.2`, ...).
#[must_use]
pub fn builtin_name(level: Level, n: u8) -> String {
    if n <= 1 {
        format!("bot.{}", level.id())
    } else {
        format!("bot.{}.{n}", level.id())
    }
}

/// The first built-in bot of `level` not yet seated among `seated`, as the
/// one taking a seat (`None` when all five are).
#[must_use]
pub fn builtin_caller(level: Level, seated: &[Uuid]) -> Option<Caller> {
    (1..=INSTANCES)
        .find(|&n| !seated.contains(&builtin_id(level, n)))
        .map(|n| Caller {
            user_id: builtin_id(level, n),
            username: builtin_name(level, n),
            session: Uuid::nil(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_ids_are_the_ones_the_migration_writes() {
        assert_eq!(
            builtin_id(Level::Random, 1).to_string(),
            "00000000-0000-4000-8000-00000000b101"
        );
        assert_eq!(
            builtin_id(Level::Ismcts, 5).to_string(),
            "00000000-0000-4000-8000-00000000b305"
        );
        assert_eq!(builtin_name(Level::Greedy, 1), "bot.greedy");
        assert_eq!(builtin_name(Level::Greedy, 3), "bot.greedy.3");
    }

    #[test]
    fn a_level_seats_its_first_free_account() {
        let first = builtin_id(Level::Ismcts, 1);
        let caller = builtin_caller(Level::Ismcts, &[first]).unwrap();
        assert_eq!(caller.username, "bot.ismcts.2");
        let all: Vec<Uuid> = (1..=5).map(|n| builtin_id(Level::Ismcts, n)).collect();
        assert!(builtin_caller(Level::Ismcts, &all).is_none());
    }
}
