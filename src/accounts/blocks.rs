//! Blocks (docs/seats.md): a user blocks another, who is never told.
//!
//! - The blocked user's invitations never reach the blocker: the game is
//!   made and the invitation stands as the inviter sees it, unanswered,
//!   but the blocker is not invited, told, mailed, nor shown the game.
//! - The two never sit at one table that has not started: whichever of
//!   them comes second is refused (`seat_refused`), and the refusal reads
//!   the same whoever blocked whom.
//! - The blocked user's talk reaches the blocker nowhere, as a mute's
//!   (docs/talk.md): not in a game's talk, its stream, notifications,
//!   webhooks or mail.
//!
//! Games already started are left as they are.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::context::Context;
use crate::db::{blocks as rows, users};
use crate::error::{ErrorCode, Failure};

/// The most users one account may block.
pub const MAX_BLOCKS: i64 = 1000;

/// The users the caller blocks.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"blocked": ["mallory"]}))]
pub struct Blocks {
    /// Usernames, in name order.
    pub blocked: Vec<String>,
}

/// A user to block.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"username": "mallory"}))]
pub struct BlockRequest {
    /// Their username (any case).
    #[schema(min_length = 1, max_length = 64)]
    pub username: String,
}

async fn user_named(conn: &mut crate::db::Conn, name: &str) -> Result<uuid::Uuid, Failure> {
    users::find_by_name(conn, name)
        .await?
        .map(|found| found.0)
        .ok_or_else(|| Failure::not_found(format!("there is no user {name:?}")))
}

/// The users the caller blocks.
///
/// # Errors
/// Database errors.
pub async fn list(ctx: &Context, caller: &Caller) -> Result<Blocks, Failure> {
    let mut conn = ctx.pool.get().await?;
    Ok(Blocks {
        blocked: rows::blocked_names(&mut conn, caller.user_id, MAX_BLOCKS).await?,
    })
}

/// The caller blocks (`on`) or unblocks the user named `name`; blocking
/// again, or unblocking a user not blocked, changes nothing.
///
/// # Errors
/// `not_found` (no such user), `forbidden` (oneself), `too_many_blocks`
/// (past [`MAX_BLOCKS`]).
pub async fn block(
    ctx: &Context,
    caller: &Caller,
    name: &str,
    on: bool,
) -> Result<Blocks, Failure> {
    let mut conn = ctx.pool.get().await?;
    let other = user_named(&mut conn, name).await?;
    if other == caller.user_id {
        return Err(Failure::new(
            ErrorCode::Forbidden,
            "you cannot block yourself",
        ));
    }
    if on {
        // At the most, blocking again still changes nothing and is answered.
        if rows::count(&mut conn, caller.user_id).await? >= MAX_BLOCKS
            && !rows::between(&mut conn, caller.user_id, &[other]).await?.0
        {
            return Err(Failure::new(
                ErrorCode::TooManyBlocks,
                format!("you block {MAX_BLOCKS} users, as many as you may: unblock one first"),
            ));
        }
        rows::block(
            &mut conn,
            caller.user_id,
            other,
            crate::record::chain::now(),
        )
        .await?;
    } else {
        rows::unblock(&mut conn, caller.user_id, other).await?;
    }
    Ok(Blocks {
        blocked: rows::blocked_names(&mut conn, caller.user_id, MAX_BLOCKS).await?,
    })
}
