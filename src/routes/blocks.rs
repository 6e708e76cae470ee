//! `/v1/me/blocks`: the users the caller blocks (docs/seats.md).

use actix_web::{delete, get, post, web};

use super::problem::problems;
use super::{Reply, State};
use crate::accounts::blocks::{self, BlockRequest, Blocks};
use crate::auth::Caller;

/// The users the caller blocks, in name order.
#[utoipa::path(
    operation_id = "list_blocks", tag = "users", security(("bearer" = [])),
    responses((status = 200, description = "The usernames blocked", body = Blocks))
)]
#[get("/me/blocks")]
pub async fn list(state: State, caller: Caller) -> Reply<Blocks> {
    Ok(web::Json(blocks::list(&state, &caller).await?))
}

/// Blocks a user, who is not told: their invitations never reach the
/// caller (they read as unanswered), the two never sit at one table that
/// has not started (`seat_refused`, whoever comes second), and their talk
/// reaches the caller nowhere. Blocking again changes nothing.
#[utoipa::path(
    operation_id = "block_user", tag = "users", security(("bearer" = [])),
    request_body = BlockRequest,
    responses((status = 200, description = "The usernames blocked now", body = Blocks), BlockUserProblems)
)]
#[post("/me/blocks")]
pub async fn block(
    state: State,
    caller: Caller,
    body: super::strict_json::Json<BlockRequest>,
) -> Reply<Blocks> {
    let request = body.into_inner();
    Ok(web::Json(
        blocks::block(&state, &caller, &request.username, true).await?,
    ))
}

/// Unblocks a user (one not blocked: nothing changes).
#[utoipa::path(
    operation_id = "unblock_user", tag = "users",
    params(("username" = String, Path, description = "The username (any case)")),
    security(("bearer" = [])),
    responses((status = 200, description = "The usernames blocked now", body = Blocks), UnblockUserProblems)
)]
#[delete("/me/blocks/{username}")]
pub async fn unblock(state: State, caller: Caller, username: web::Path<String>) -> Reply<Blocks> {
    Ok(web::Json(
        blocks::block(&state, &caller, &username, false).await?,
    ))
}

problems! {
    /// What `block_user` answers besides the common problems.
    BlockUserProblems {
        BadRequest: "a malformed body",
        Forbidden: "blocking oneself",
        NotFound: "no user of that name",
        TooManyBlocks,
    }
    /// What `unblock_user` answers besides the common problems.
    UnblockUserProblems {
        BadRequest: "a malformed name",
        Forbidden: "unblocking oneself",
        NotFound: "no user of that name",
    }
}
