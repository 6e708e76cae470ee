//! Registering for a tournament and withdrawing, until registration closes.
//!
//! Rules, checked in this order under the tournament's row lock (so the cap
//! holds however many register at once), each refusal writing nothing:
//! - an unknown tournament: `not_found`;
//! - outside the registration window, or once the tournament is no longer
//!   registering: `registration_closed`;
//! - registering: a bot account is refused (`bot_account_refused`); twice:
//!   `already_registered`; at the cap: `tournament_full`; a rating in the
//!   ruleset at the table size (a newcomer's: the rating method's start)
//!   below `min_rating`: `below_min_rating`; a reliability below
//!   `min_reliability`: `reliability_too_low`;
//! - withdrawing without a registration: `not_registered`.
//!
//! Each change appends `registered` or `withdrew` to the tournament's record.

use diesel_async::AsyncConnection;
use uuid::Uuid;

use super::read::{self, TournamentWithField};
use super::record::TournamentEvent;
use crate::auth::Caller;
use crate::context::Context;
use crate::db::tournaments::{self, EntryRow, TournamentRow};
use crate::db::{self, Conn};
use crate::error::{ErrorCode, Failure};
use crate::ratings::maths::Method;
use crate::record::chain::{Actor, Chain, now};

fn closed() -> Failure {
    Failure::new(
        ErrorCode::RegistrationClosed,
        "registration for this tournament is not open",
    )
}

/// The tournament locked, refused unless its registration is open now.
async fn open_for_registration(conn: &mut Conn, id: Uuid) -> Result<TournamentRow, Failure> {
    let row = tournaments::locked(conn, id)
        .await?
        .ok_or_else(|| Failure::not_found("no such tournament"))?;
    let at = now();
    if row.status != "registering" || at < row.registration_opens || at >= row.registration_closes {
        return Err(closed());
    }
    Ok(row)
}

/// Appends `event` by `caller` to the locked tournament's record.
async fn append(
    conn: &mut Conn,
    row: &TournamentRow,
    caller: &Caller,
    event: &TournamentEvent,
) -> Result<(), Failure> {
    let mut chain = Chain::after(row.version, &hex::encode(&row.last_hash), now());
    event
        .push_to(
            &mut chain,
            Actor {
                user: Some(caller.user_id),
                seat: None,
            },
        )
        .map_err(Failure::internal)?;
    tournaments::append(conn, row.id, &chain.events).await?;
    Ok(())
}

/// Registers `caller` for tournament `id`.
///
/// # Errors
/// As the module says; database errors.
pub async fn register(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
) -> Result<TournamentWithField, Failure> {
    let mut conn = ctx.pool.get().await?;
    conn.transaction::<_, Failure, _>(async |conn| {
        let row = open_for_registration(conn, id).await?;
        if db::users::is_bot(conn, caller.user_id).await? {
            return Err(Failure::new(
                ErrorCode::BotAccountRefused,
                "bot accounts do not register for tournaments",
            ));
        }
        let entries = tournaments::entries(conn, id).await?;
        if entries.iter().any(|e| e.user_id == caller.user_id) {
            return Err(Failure::new(
                ErrorCode::AlreadyRegistered,
                "you are registered for this tournament",
            ));
        }
        if entries.len() >= usize::try_from(row.player_cap).unwrap_or(0) {
            return Err(Failure::new(
                ErrorCode::TournamentFull,
                format!("this tournament takes {} players", row.player_cap),
            ));
        }
        if let Some(min) = row.min_rating {
            let method = Method::of(usize::try_from(row.table_size).unwrap_or(0));
            let rating = db::ratings::of_users(conn, &[caller.user_id])
                .await?
                .into_iter()
                .find(|r| r.ruleset == row.ruleset && r.players == row.table_size)
                .map_or(method.start().rating, |r| r.rating);
            if rating < min {
                return Err(Failure::new(
                    ErrorCode::BelowMinRating,
                    format!("this tournament asks a rating of {min} or more; yours is {rating:.1}"),
                ));
            }
        }
        crate::ratings::reliability::check(
            conn,
            row.min_reliability.and_then(|r| u8::try_from(r).ok()),
            caller.user_id,
        )
        .await?;
        tournaments::register(
            conn,
            &EntryRow {
                tournament_id: id,
                user_id: caller.user_id,
                registered_at: now(),
                entrant: None,
            },
        )
        .await?;
        append(
            conn,
            &row,
            caller,
            &TournamentEvent::Registered {
                user_id: caller.user_id,
            },
        )
        .await
    })
    .await?;
    read::get(ctx, id).await
}

/// Withdraws `caller` from tournament `id`.
///
/// # Errors
/// As the module says; database errors.
pub async fn withdraw(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
) -> Result<TournamentWithField, Failure> {
    let mut conn = ctx.pool.get().await?;
    conn.transaction::<_, Failure, _>(async |conn| {
        let row = open_for_registration(conn, id).await?;
        if !tournaments::withdraw(conn, id, caller.user_id).await? {
            return Err(Failure::new(
                ErrorCode::NotRegistered,
                "you are not registered for this tournament",
            ));
        }
        append(
            conn,
            &row,
            caller,
            &TournamentEvent::Withdrew {
                user_id: caller.user_id,
            },
        )
        .await
    })
    .await?;
    read::get(ctx, id).await
}
