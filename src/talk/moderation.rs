//! Keeping talk civil: a user mutes another (their messages reach the muter
//! nowhere: not in a game's talk, its stream, notifications, webhooks or
//! mail), a reader reports a message, and an operator hides a reported
//! message from everyone (the row keeps when and by whom).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::messages::{TalkMessage, readable, watched};
use crate::auth::Caller;
use crate::context::Context;
use crate::db::talk as rows;
use crate::db::users;
use crate::error::{ErrorCode, Failure};

/// The most users one account may mute (the list's page).
pub const MAX_MUTES: i64 = 1000;

/// The users the caller muted.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"muted": ["bob"]}))]
pub struct Mutes {
    /// Usernames, in name order.
    pub muted: Vec<String>,
}

/// A report of a message.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"reason": "insults"}))]
pub struct ReportRequest {
    /// Why, for the operator (at most 500 characters).
    #[serde(default)]
    #[schema(max_length = 500)]
    pub reason: String,
}

/// The longest reason a report may give.
pub const MAX_REASON: usize = 500;

async fn user_named(conn: &mut crate::db::Conn, name: &str) -> Result<Uuid, Failure> {
    users::find_by_name(conn, name)
        .await?
        .map(|found| found.0)
        .ok_or_else(|| Failure::not_found(format!("there is no user {name:?}")))
}

/// The caller mutes (`on`) or unmutes the user named `name`.
///
/// # Errors
/// `not_found` (no such user), `bad_request` (oneself).
pub async fn mute(ctx: &Context, caller: &Caller, name: &str, on: bool) -> Result<Mutes, Failure> {
    let mut conn = ctx.pool.get().await?;
    let other = user_named(&mut conn, name).await?;
    if other == caller.user_id {
        return Err(Failure::new(
            ErrorCode::Forbidden,
            "you cannot mute yourself",
        ));
    }
    if on {
        rows::mute(
            &mut conn,
            caller.user_id,
            other,
            crate::record::chain::now(),
        )
        .await?;
    } else {
        rows::unmute(&mut conn, caller.user_id, other).await?;
    }
    Ok(Mutes {
        muted: rows::mutes(&mut conn, caller.user_id, MAX_MUTES).await?,
    })
}

/// The users the caller muted.
///
/// # Errors
/// Database errors.
pub async fn mutes(ctx: &Context, caller: &Caller) -> Result<Mutes, Failure> {
    let mut conn = ctx.pool.get().await?;
    Ok(Mutes {
        muted: rows::mutes(&mut conn, caller.user_id, MAX_MUTES).await?,
    })
}

/// The caller reports message `message` of game `game`, which they may read.
///
/// # Errors
/// `not_found` (no such message the caller reads), `bad_request`.
pub async fn report(
    ctx: &Context,
    caller: &Caller,
    game: Uuid,
    message: Uuid,
    request: &ReportRequest,
) -> Result<(), Failure> {
    if request.reason.chars().count() > MAX_REASON {
        return Err(Failure::bad_request(format!(
            "a reason is at most {MAX_REASON} characters"
        )));
    }
    let mut conn = ctx.pool.get().await?;
    let loaded = watched(&mut conn, game, Some(caller.user_id)).await?;
    let row = rows::find(&mut conn, game, message)
        .await?
        .filter(|row| readable(&loaded, Some(caller.user_id), row))
        .ok_or_else(no_such_message)?;
    rows::report(
        &mut conn,
        game,
        row.id,
        caller.user_id,
        &request.reason,
        crate::record::chain::now(),
    )
    .await?;
    Ok(())
}

/// An operator hides a reported message from everyone.
///
/// # Errors
/// `forbidden` (not an operator), `not_found`, `not_reported`.
pub async fn hide(
    ctx: &Context,
    caller: &Caller,
    game: Uuid,
    message: Uuid,
) -> Result<TalkMessage, Failure> {
    hide_by(ctx, caller.user_id, game, message, None).await
}

/// The operator named `operator` hides a reported message from everyone,
/// saying why (`hatstand talk hide`).
///
/// # Errors
/// `not_found` (no such user, game or message), `forbidden` (not an
/// operator), `not_reported`, `bad_request` (a reason over 500 characters).
pub async fn hide_as(
    ctx: &Context,
    operator: &str,
    game: Uuid,
    message: Uuid,
    reason: &str,
) -> Result<TalkMessage, Failure> {
    if reason.chars().count() > MAX_REASON {
        return Err(Failure::bad_request(format!(
            "a reason is at most {MAX_REASON} characters"
        )));
    }
    let mut conn = ctx.pool.get().await?;
    let user = user_named(&mut conn, operator).await?;
    drop(conn);
    hide_by(ctx, user, game, message, Some(reason)).await
}

async fn hide_by(
    ctx: &Context,
    operator: Uuid,
    game: Uuid,
    message: Uuid,
    reason: Option<&str>,
) -> Result<TalkMessage, Failure> {
    let mut conn = ctx.pool.get().await?;
    if !rows::is_operator(&mut conn, operator).await? {
        return Err(Failure::forbidden("only an operator may hide a message"));
    }
    rows::find(&mut conn, game, message)
        .await?
        .ok_or_else(no_such_message)?;
    if !rows::reported(&mut conn, game, message).await? {
        return Err(Failure::new(
            ErrorCode::NotReported,
            "nobody reported this message",
        ));
    }
    rows::hide(
        &mut conn,
        game,
        message,
        operator,
        crate::record::chain::now(),
        reason,
    )
    .await?;
    let row = rows::find(&mut conn, game, message)
        .await?
        .ok_or_else(no_such_message)?;
    Ok(TalkMessage::of(&row))
}

/// The most reported messages one listing shows.
pub const MAX_REPORTED: i64 = 1000;

/// The reported messages, the most recently reported first, at most
/// `limit` (1–1000); with `hidden`, also those already hidden
/// (`hatstand talk reported`).
///
/// # Errors
/// `bad_request` (a limit out of range); database errors.
pub async fn reported(
    ctx: &Context,
    hidden: bool,
    limit: i64,
) -> Result<Vec<rows::ReportedRow>, Failure> {
    if !(1..=MAX_REPORTED).contains(&limit) {
        return Err(Failure::bad_request(format!(
            "the limit is 1 to {MAX_REPORTED}"
        )));
    }
    let mut conn = ctx.pool.get().await?;
    Ok(rows::reported_messages(&mut conn, hidden, limit).await?)
}

fn no_such_message() -> Failure {
    Failure::not_found("there is no such message")
}
