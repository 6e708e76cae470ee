//! Substitutes (docs/seats.md): a seat whose player left a game that goes
//! on (resigned, out on a timeout, out after `abandon_after` timeouts in a
//! row) is *vacant*: the server plays it meanwhile, as it plays every seat
//! that is out (`record::out`), and another player may take it over.
//!
//! - A game takes substitutes unless its `substitutes` option is false;
//!   unset, a rated two-player game takes none and every other game does.
//! - A public game's vacant seats are listed in the lobby
//!   ([`vacant_seats`]; one anyone may watch: `spectators: public`); a
//!   private game's are taken with the game's code or
//!   by an invitee, as its open seats are: the players hand the code to whom
//!   they choose.
//! - Taking one is a seat like any other: the table's `min_reliability`
//!   and rating range, blocks (with each other player of the game) and the
//!   cap on games at once apply; a player seated in the game already may
//!   not take a second seat. The seat's view, hand and clock are the
//!   substitute's from then on, never more than the seat could see.
//! - The takeover is the event `seat_substituted` `{seat, from, to,
//!   username}`: the seat is in again, and every later command of it is the
//!   substitute's (`verify` checks it). The other players are told
//!   (`seat_substituted`).
//! - The leaver's record counts the game, at the takeover, as played, lost
//!   and left, with their timeouts and vacation in it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::clock::ServerOptions;
use super::invite::check_may_join;
use super::open_game::{OpenChange, OpenTx};
use super::read::parse_cursor;
use super::status;
use crate::auth::Caller;
use crate::context::Context;
use crate::db::games::{GameRow, LoadedGame, SeatRow};
use crate::db::substitutes::{self, Takeover};
use crate::db::{Conn, blocks, users};
use crate::error::{ErrorCode, Failure};
use crate::notifications::{Note, Notification};
use crate::record::chain::Actor;
use crate::record::server_event::{ServerEvent, Substituted};

/// Whether `game` takes substitutes: its `substitutes` option, else all but
/// a rated two-player game (`has_bot`: a bot sits at it, which makes an
/// unset `rated` casual).
#[must_use]
pub fn allowed(game: &GameRow, has_bot: bool) -> bool {
    ServerOptions::of(&game.server_options)
        .substitutes
        .unwrap_or_else(|| {
            let rated = crate::ratings::eligibility::rated_option(
                &game.server_options,
                game.private,
                has_bot,
            );
            !(rated && game.players == 2)
        })
}

/// Whether `game`'s vacant seats are listed in the lobby: it takes
/// substitutes, is public and listed (anyone may watch it).
#[must_use]
pub fn listed(game: &GameRow, has_bot: bool) -> bool {
    !game.private
        && super::watchers::Spectators::of(game) == super::watchers::Spectators::Public
        && allowed(game, has_bot)
}

/// PostgreSQL's earliest `timestamptz`, where a first page starts.
const EARLIEST_MICROS: i64 = -210_866_803_200_000_000;

/// The vacant seat `seat` of `loaded`, for `user` to take.
///
/// # Errors
/// `no_such_seat`, `seat_not_vacant` (the game not on, or the seat not
/// out), `substitutes_forbidden`, `already_joined`.
pub fn vacancy(loaded: &LoadedGame, seat: u8, user: Uuid) -> Result<&SeatRow, Failure> {
    let game = &loaded.game;
    if i16::from(seat) >= game.players {
        return Err(Failure::new(
            ErrorCode::NoSuchSeat,
            format!(
                "seat {seat} does not exist: seats are 0 to {}",
                game.players - 1
            ),
        ));
    }
    if game.status != status::ACTIVE {
        return Err(Failure::new(
            ErrorCode::SeatNotVacant,
            format!(
                "the game is {}: only a game on has vacant seats",
                game.status
            ),
        ));
    }
    let row = loaded
        .seats
        .iter()
        .find(|s| s.seat == i16::from(seat))
        .filter(|s| s.resigned)
        .ok_or_else(|| {
            Failure::new(
                ErrorCode::SeatNotVacant,
                format!("seat {seat} is held by its player"),
            )
        })?;
    if !allowed(game, loaded.has_bots()) {
        return Err(Failure::new(
            ErrorCode::SubstitutesForbidden,
            "this game takes no substitutes (its `substitutes` option)",
        ));
    }
    if loaded.seat_of(user).is_some() {
        return Err(Failure::new(
            ErrorCode::AlreadyJoined,
            "you already have a seat in this game",
        ));
    }
    Ok(row)
}

/// A request to take a vacant seat.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TakeSeat {
    /// The invite code of a private game (its invitees need none).
    #[serde(default)]
    pub code: Option<String>,
}

/// Takes vacant seat `.0` (see the module documentation).
///
/// Fails with `no_such_seat`, `seat_not_vacant`, `substitutes_forbidden`,
/// `already_joined`, `not_invited` (a private game, without its code or an
/// invitation), `humans_only`, `reliability_too_low`,
/// `rating_out_of_range`, `seat_refused` (the caller and another player of
/// the game block one another) and `too_many_games`.
pub struct Take(pub u8, pub TakeSeat);

impl OpenChange for Take {
    const NAME: &'static str = "take_seat";

    async fn apply(&self, tx: OpenTx<'_>) -> Result<(), Failure> {
        let seat = self.0;
        let who = tx.who;
        let leaver = vacancy(tx.loaded, seat, who.user_id)?.clone();
        check_may_join(tx.conn, tx.loaded, who, self.1.code.as_deref()).await?;
        let game = &tx.loaded.game;
        let options = ServerOptions::of(&game.server_options);
        let bot = users::is_bot(tx.conn, who.user_id).await?;
        if bot && options.humans_only {
            return Err(Failure::new(
                ErrorCode::HumansOnly,
                "this game is for humans only: no bots may sit",
            ));
        }
        let range = (options.rating_min, options.rating_max);
        crate::ratings::seek::check(tx.conn, game, range, who.user_id).await?;
        crate::ratings::reliability::check(tx.conn, options.min_reliability, who.user_id).await?;
        check_blocks(tx.conn, tx.loaded, seat, who.user_id).await?;
        let event = ServerEvent::SeatSubstituted(Substituted {
            seat,
            from: leaver.user_id,
            to: who.user_id,
            username: who.username.clone(),
        });
        let actor = Actor {
            user: Some(who.user_id),
            seat: Some(seat),
        };
        tx.chain
            .push_server(&event, actor)
            .map_err(Failure::internal)?;
        let takeover = Takeover {
            game: game.id,
            seat: i16::from(seat),
            version: tx.chain.version(),
            from: leaver.user_id,
            to: who.user_id,
            timeouts: leaver.timeouts,
            vacation_secs: leaver.vacation_used_secs,
            at: tx.now,
        };
        // The write checks the seat again: a taker who waited on the
        // game's lock may have loaded its seats as they were before the
        // first taker's commit.
        if !substitutes::take(tx.conn, &takeover).await? {
            return Err(Failure::new(
                ErrorCode::SeatNotVacant,
                format!("seat {seat} was just taken"),
            ));
        }
        let row = tx
            .loaded
            .seats
            .iter_mut()
            .find(|s| s.seat == i16::from(seat))
            .ok_or_else(|| Failure::internal("the seat went away"))?;
        *row = SeatRow {
            bot,
            salt: row.salt.take(),
            clock: row.clock.take(),
            ..SeatRow::new(row.seat, who.user_id, who.username.clone())
        };
        if !bot {
            // After the seat is written, under the user's lock (`seat_cap`).
            super::seat_cap::check(tx.conn, who.user_id, tx.seats_at_once).await?;
        }
        Ok(())
    }

    fn tell(&self, _before: &GameRow, after: &LoadedGame, who: &Caller) -> Vec<Note> {
        let game = &after.game;
        after
            .seats
            .iter()
            .filter(|s| s.user_id != who.user_id && !s.bot)
            .map(|s| Note {
                user_id: s.user_id,
                notification: Notification::SeatSubstituted {
                    game_id: game.id,
                    ruleset: game.ruleset.clone(),
                    seat: self.0,
                    username: who.username.clone(),
                    version: game.version,
                },
            })
            .collect()
    }
}

/// `seat_refused` when `user` and a player of `loaded` other than the
/// leaver of `seat` block one another: the same words whoever blocked whom.
async fn check_blocks(
    conn: &mut Conn,
    loaded: &LoadedGame,
    seat: u8,
    user: Uuid,
) -> Result<(), Failure> {
    let others: Vec<Uuid> = loaded
        .seats
        .iter()
        .filter(|s| s.seat != i16::from(seat) && s.user_id != user)
        .map(|s| s.user_id)
        .collect();
    let (blocks, blocked) = blocks::between(conn, user, &others).await?;
    if blocks || blocked {
        return Err(Failure::new(
            ErrorCode::SeatRefused,
            "you cannot take a seat at this table with one of its players",
        ));
    }
    Ok(())
}

/// A vacant seat in the lobby.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VacantSeat {
    pub game_id: Uuid,
    /// The seat to take (`POST /v1/games/{id}/seats/{seat}/take`).
    pub seat: i16,
    #[schema(value_type = super::RulesetId)]
    pub ruleset: String,
    pub players: i16,
    /// The game's version now.
    pub version: i64,
    /// When its player left it (RFC 3339).
    pub vacant_since: DateTime<Utc>,
}

/// A page of vacant seats, oldest vacancy first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VacantPage {
    pub seats: Vec<VacantSeat>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// The shape of a vacant seats cursor: the last seat's vacancy in
/// microseconds, `_`, its game, `_`, its seat.
pub const VACANT_CURSOR_PATTERN: &str = "^-?[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}_[0-9]{1,2}$";

/// The seats to take in public games that take substitutes, oldest vacancy
/// first, `limit` (1–100, default 20) after `cursor`: each page reads its
/// own rows only (`db::substitutes::listed`).
///
/// # Errors
/// `bad_request` for a bad limit or cursor.
pub async fn vacant_seats(
    state: &Context,
    limit: Option<i64>,
    cursor: Option<&str>,
) -> Result<VacantPage, Failure> {
    let limit = limit.unwrap_or(super::read::DEFAULT_PAGE);
    if !(1..=100).contains(&limit) {
        return Err(Failure::bad_request("limit must be 1–100"));
    }
    let after = match cursor {
        None => (
            DateTime::from_timestamp_micros(EARLIEST_MICROS).unwrap_or_default(),
            Uuid::nil(),
            -1,
        ),
        Some(cursor) => {
            let bad = || Failure::bad_request("cursor is not one this server gave");
            let (rest, seat) = cursor.rsplit_once('_').ok_or_else(bad)?;
            let seat: i16 = seat
                .parse()
                .ok()
                .filter(|s| (0..100).contains(s))
                .ok_or_else(bad)?;
            let (at, game) = parse_cursor(rest)?;
            (at, game, seat)
        }
    };
    let mut conn = state.pool.get().await?;
    let rows = substitutes::listed(&mut conn, after, limit + 1).await?;
    let more = rows.len() > usize::try_from(limit).unwrap_or(0);
    let seats: Vec<VacantSeat> = rows
        .into_iter()
        .take(usize::try_from(limit).unwrap_or(0))
        .map(|r| VacantSeat {
            game_id: r.game_id,
            seat: r.seat,
            ruleset: r.ruleset,
            players: r.players,
            version: r.version,
            vacant_since: r.vacant_since,
        })
        .collect();
    let next_cursor = more.then(|| seats.last()).flatten().map(|s| {
        format!(
            "{}_{}_{}",
            s.vacant_since.timestamp_micros(),
            s.game_id,
            s.seat
        )
    });
    Ok(VacantPage { seats, next_cursor })
}
