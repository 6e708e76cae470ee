//! Rematch (docs/ratings.md): a player of a finished game offers the same
//! table again, to the same players; the new game starts when all accept.
//!
//! Rules:
//! - Only a seated player of a `finished` game may offer (`not_a_player`,
//!   `game_not_finished`), once per game (`rematch_already_offered`, also
//!   after a decline).
//! - Offering is accepting. A bot seat (a built-in bot or a player's bot
//!   account) accepts at once, on the offer: a table of one person and bots
//!   starts its rematch when it is offered.
//! - The others answer `accept` or `decline`; one decline (the offerer's
//!   too: a withdrawal) closes the offer. Answering again as before is
//!   answered with the offer, nothing written; any other answer to a closed
//!   offer is `rematch_closed`.
//! - Every answer locks the offer's row: the last acceptance, and only it,
//!   creates the new game in its own transaction, so two players accepting
//!   at once start exactly one game.
//! - The new game: the same ruleset, table size, rules version, options and
//!   server options (clock, spectators, talk, rated, privacy), a fresh
//!   secret seed (a new deal), every player seated one seat further round
//!   the table (seat `s` takes `s + 1`, the last seat 0), so another player
//!   starts. It is created by the one who offered, counted against their
//!   limits (`limit_reached` on the last acceptance, nothing written).

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use hatstand_engine::Rules;
use hatstand_engine::bots::Level;
use uuid::Uuid;

use super::seated::{Player, Seated};
use super::{kind_of, status};
use crate::auth::Caller;
use crate::context::Context;
use crate::db::Conn;
use crate::db::games::LoadedGame;
use crate::db::notifications::Noted;
use crate::db::rematches::{self, RematchRow};
use crate::error::{ErrorCode, Failure};

pub use super::rematch_offer::{Answer, Rematch, RematchSeat, RematchState, rotated, shown};

/// The finished game `id` and the caller's place at it.
///
/// # Errors
/// `not_found` (also for a game the caller may not watch), `not_a_player`,
/// `game_not_finished`.
async fn finished_game(conn: &mut Conn, caller: &Caller, id: Uuid) -> Result<LoadedGame, Failure> {
    let loaded = super::stored(conn, id).await?;
    super::watchers::check(conn, &loaded, Some(caller.user_id)).await?;
    if loaded.seat_of(caller.user_id).is_none() {
        return Err(Failure::not_a_player());
    }
    if loaded.game.status != status::FINISHED {
        return Err(Failure::new(
            ErrorCode::GameNotFinished,
            format!(
                "the game is {}: a rematch is offered once it is finished",
                loaded.game.status
            ),
        ));
    }
    Ok(loaded)
}

/// Offers a rematch of finished game `id` (see the module documentation).
///
/// # Errors
/// `not_found`, `not_a_player`, `game_not_finished`,
/// `rematch_already_offered`; on a table of bots, as [`accept`].
pub async fn offer(state: &Context, caller: &Caller, id: Uuid) -> Result<Rematch, Failure> {
    let mut conn = state.pool.get().await?;
    let loaded = finished_game(&mut conn, caller, id).await?;
    let now = crate::record::chain::now();
    let mut accepted = vec![caller.user_id];
    accepted.extend(
        loaded
            .seats
            .iter()
            .filter(|s| s.bot && s.user_id != caller.user_id)
            .map(|s| s.user_id),
    );
    let row = RematchRow {
        game_id: id,
        offered_by: caller.user_id,
        offered_at: now,
        state: "offered".to_owned(),
        accepted,
        declined_by: None,
        answered_at: None,
        new_game_id: None,
    };
    let limits = state.cost_limits;
    let (row, started) = conn
        .transaction::<_, Failure, _>(async |conn| {
            if !rematches::insert(conn, &row).await? {
                return Err(Failure::new(
                    ErrorCode::RematchAlreadyOffered,
                    "a rematch has been offered on this game already",
                ));
            }
            let mut row = row.clone();
            let started = start_when_all_accepted(conn, &loaded, &mut row, &limits, now).await?;
            Ok((row, started))
        })
        .await?;
    announce(state, started);
    Ok(shown(&row, &loaded))
}

/// An answer to a rematch offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    Accept,
    Decline,
}

/// Answers the rematch offered on finished game `id`: the last acceptance
/// starts the new game (see the module documentation).
///
/// # Errors
/// `not_found`, `not_a_player`, `game_not_finished`, `rematch_not_offered`,
/// `rematch_closed`, `limit_reached` (the offerer's limits, on the last
/// acceptance).
pub async fn answer(
    state: &Context,
    caller: &Caller,
    id: Uuid,
    reply: Reply,
) -> Result<Rematch, Failure> {
    let mut conn = state.pool.get().await?;
    let loaded = finished_game(&mut conn, caller, id).await?;
    let now = crate::record::chain::now();
    let limits = state.cost_limits;
    let me = caller.user_id;
    let (row, started) = conn
        .transaction::<_, Failure, _>(async |conn| {
            let mut row = rematches::locked(conn, id).await?.ok_or_else(|| {
                Failure::new(
                    ErrorCode::RematchNotOffered,
                    "no rematch has been offered on this game: offer one",
                )
            })?;
            let already = match reply {
                Reply::Accept => row.accepted.contains(&me),
                Reply::Decline => row.declined_by == Some(me),
            };
            if already {
                // The same answer again: the offer as it stands.
                return Ok((row, None));
            }
            if row.state != "offered" {
                return Err(Failure::new(
                    ErrorCode::RematchClosed,
                    format!(
                        "the rematch offer is closed ({})",
                        if row.state == "declined" {
                            "declined"
                        } else {
                            "started"
                        }
                    ),
                ));
            }
            row.answered_at = Some(now);
            let started = match reply {
                Reply::Decline => {
                    row.state = "declined".to_owned();
                    row.declined_by = Some(me);
                    rematches::store(conn, &row).await?;
                    None
                }
                Reply::Accept => {
                    row.accepted.push(me);
                    start_when_all_accepted(conn, &loaded, &mut row, &limits, now).await?
                }
            };
            Ok((row, started))
        })
        .await?;
    announce(state, started);
    Ok(shown(&row, &loaded))
}

/// What to announce once a started rematch has committed.
type Started = Option<(LoadedGame, Vec<Noted>)>;

fn announce(state: &Context, started: Started) {
    if let Some((game, told)) = started {
        super::committed(state, &game, game.game.version, &told);
    }
}

/// In the offer's transaction (its row written or locked): when every
/// player of `old` has accepted, creates and starts the rematch and marks
/// the offer accepted; stores the offer either way.
async fn start_when_all_accepted(
    conn: &mut Conn,
    old: &LoadedGame,
    row: &mut RematchRow,
    limits: &crate::auth::limits::CostLimits,
    now: DateTime<Utc>,
) -> Result<Started, Failure> {
    let everyone = old.seats.iter().all(|s| row.accepted.contains(&s.user_id));
    if !everyone {
        rematches::store(conn, row).await?;
        return Ok(None);
    }
    let humans = old.seats.iter().any(|s| !s.bot);
    let strong_bots = (1..=super::bot_seats::INSTANCES)
        .filter(|n| {
            let id = super::bot_seats::builtin_id(Level::Ismcts, *n);
            old.seats.iter().any(|s| s.user_id == id)
        })
        .count();
    super::create::within_limits(
        conn,
        limits,
        row.offered_by,
        humans,
        i64::try_from(strong_bots).unwrap_or(i64::MAX),
        now,
    )
    .await?;
    let players: Vec<(Uuid, String)> = old
        .seats
        .iter()
        .filter(|s| !s.bot)
        .map(|s| (s.user_id, s.username.clone()))
        .collect();
    let (new, told) = create_rematch(conn, old, row.offered_by, now).await?;
    super::seat_cap::check_all(conn, &players, limits.seats_at_once).await?;
    row.state = "accepted".to_owned();
    row.new_game_id = Some(new.game.id);
    rematches::store(conn, row).await?;
    Ok(Some((new, told)))
}

/// Writes the rematch of `old`, created by `creator`, every seat taken
/// (rotated) and the game started, in the caller's transaction.
async fn create_rematch(
    conn: &mut Conn,
    old: &LoadedGame,
    creator: Uuid,
    now: DateTime<Utc>,
) -> Result<(LoadedGame, Vec<Noted>), Failure> {
    let kind = kind_of(&old.game)?;
    let rules = Rules::of(kind, u16::try_from(old.game.rules_version).unwrap_or(0))
        .map_err(|e| Failure::internal(e.to_string()))?;
    let players = u8::try_from(old.game.players).map_err(Failure::internal)?;
    let mut by_new_seat: Vec<_> = old
        .seats
        .iter()
        .map(|s| (rotated(u8::try_from(s.seat).unwrap_or(0), players), s))
        .collect();
    by_new_seat.sort_by_key(|(seat, _)| *seat);
    let seated = Seated {
        kind,
        rules,
        options: old.game.options.clone(),
        server_options: old.game.server_options.clone(),
        private: old.game.private,
        created_by: creator,
        players: by_new_seat
            .into_iter()
            .map(|(_, s)| Player {
                user_id: s.user_id,
                username: s.username.clone(),
                bot: s.bot,
            })
            .collect(),
    };
    super::seated::create(conn, seated, now).await
}
