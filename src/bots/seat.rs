//! Seating built-in bots: at creation (`bots` in the create request) or in
//! an open game (`POST /v1/games/{id}/bots`).

use hatstand_engine::bots::Level;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::db::games::{self, GameRow, LoadedGame};
use crate::error::{ErrorCode, Failure};
use crate::games::clock::ServerOptions;
use crate::games::join::take_seat;
use crate::games::kind_of;
use crate::games::open_game::{OpenChange, OpenTx};
use crate::games::status;
use crate::games::step::notifications;
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
    super::builtin_caller(level, &seated).ok_or_else(|| {
        Failure::bad_request(format!(
            "at most {} bots of one level per game",
            super::INSTANCES
        ))
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
        let row = take_seat(kind, tx.loaded, tx.chain, &bot, self.seat, true)?;
        games::insert_seats(
            tx.conn,
            tx.loaded.game.id,
            std::slice::from_ref(&row),
            tx.now,
        )
        .await?;
        let game = &mut tx.loaded.game;
        if game.status == status::ACTIVE && !game.to_act.is_empty() {
            game.deadline = ServerOptions::of(&game.server_options).deadline_from(tx.now);
        }
        Ok(())
    }

    fn tell(&self, before: &GameRow, after: &LoadedGame, _: &Caller) -> Vec<Note> {
        notifications(before, &after.game, &after.seats)
    }
}
