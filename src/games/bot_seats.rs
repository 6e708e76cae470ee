//! Seating built-in bots: at creation (`bots` in the create request) or in
//! an open game (`POST /v1/games/{id}/bots`).

use hatstand_engine::bots::Level;
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::join::seat;
use super::kind_of;
use super::open_game::{OpenChange, OpenTx};
use super::step::notifications;
use crate::auth::Caller;
use crate::db::games::{GameRow, LoadedGame};
use crate::error::{ErrorCode, Failure};
use crate::notifications::Note;

/// A request to seat a built-in bot.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddBotRequest {
    /// `random`, `greedy` or `ismcts`.
    #[schema(example = "greedy", value_type = hatstand_engine::bots::Level)]
    pub level: String,
    /// The seat it takes; the lowest free seat when absent.
    #[serde(default)]
    #[schema(maximum = 5)]
    pub seat: Option<u8>,
}

/// The level named `name`.
///
/// # Errors
/// `unknown_bot_level`.
pub fn level(name: &str) -> Result<Level, Failure> {
    name.parse()
        .map_err(|e: hatstand_engine::bots::UnknownLevel| {
            Failure::new(ErrorCode::UnknownBotLevel, e.to_string())
        })
}

/// The levels named in a create request (at most five: a table has at most
/// six seats).
///
/// # Errors
/// `unknown_bot_level`, `bad_request` (more than five).
pub fn levels(names: &[String]) -> Result<Vec<Level>, Failure> {
    if names.len() > 5 {
        return Err(Failure::bad_request(
            "at most 5 bots: a table has at most six seats",
        ));
    }
    names.iter().map(|n| level(n)).collect()
}

/// The first built-in bot of `level` not seated at the game yet.
///
/// # Errors
/// `bad_request` when the five of that level all sit there.
pub fn free_bot(level: Level, loaded: &LoadedGame) -> Result<Caller, Failure> {
    let seated: Vec<_> = loaded.seats.iter().map(|s| s.user_id).collect();
    builtin_caller(level, &seated).ok_or_else(|| {
        Failure::bad_request(format!("at most {} bots of one level per game", INSTANCES))
    })
}

/// Seats a built-in bot in an open game; the game starts when the table is
/// full. Any player seated at the game, or its creator, may ask.
///
/// Fails with `not_a_player` (someone else asks), `unknown_bot_level`,
/// `humans_only` and the errors of taking a seat (`game_full`,
/// `seat_taken`, `game_not_open`).
pub struct AddBot {
    pub level: Level,
    pub seat: Option<u8>,
}

impl OpenChange for AddBot {
    const NAME: &'static str = "add_bot";

    async fn apply(&self, tx: OpenTx<'_>) -> Result<(), Failure> {
        let game = &tx.loaded.game;
        if game.created_by != tx.who.user_id && tx.loaded.seat_of(tx.who.user_id).is_none() {
            return Err(Failure::new(
                ErrorCode::NotAPlayer,
                "only the game's creator or its players may seat a bot",
            ));
        }
        let kind = kind_of(game)?;
        let bot = free_bot(self.level, tx.loaded)?;
        // A built-in bot's salt is the server's to make.
        seat(kind, tx, Some(&bot), self.seat, true, None).await
    }

    fn tell(&self, before: &GameRow, after: &LoadedGame, _: &Caller) -> Vec<Note> {
        notifications(before, &after.game, &after.seats)
    }
}

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
