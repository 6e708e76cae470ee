//! `/v1/users`: public profiles; `/v1/me/bot`: becoming a bot account.

use actix_web::{get, post, web};

use super::problem::problems;
use super::strict_json::NoBody;
use super::{Reply, State};
use crate::accounts::profile::{self, UserProfile};
use crate::auth::Caller;

/// A user's public profile: whether a person or a bot plays the account.
#[utoipa::path(
    operation_id = "get_user", tag = "users",
    params(("username" = String, Path, description = "The username (any case)")),
    responses((status = 200, description = "The profile", body = UserProfile), GetUserProblems)
)]
#[get("/users/{username}")]
pub async fn get(state: State, username: web::Path<String>) -> Reply<UserProfile> {
    Ok(web::Json(profile::profile(&state, &username).await?))
}

/// Turns the caller's account into a bot account, for good: labelled a bot
/// everywhere (`kind: bot`, seats' `bot: true`), refused by `humans_only`
/// games. Only an account that has never taken a seat may.
#[utoipa::path(
    operation_id = "become_bot", tag = "users", security(("bearer" = [])),
    responses((status = 200, description = "The account, now a bot account", body = UserProfile), BecomeBotProblems)
)]
#[post("/me/bot")]
pub async fn become_bot(state: State, caller: Caller, _body: NoBody) -> Reply<UserProfile> {
    Ok(web::Json(profile::become_bot(&state, &caller).await?))
}

problems! {
    /// What `get_user` answers besides the common problems.
    GetUserProblems { NotFound: "no user of that name" }
    /// What `become_bot` answers besides the common problems.
    BecomeBotProblems { BotAccountRefused: "the account has taken a seat before, or is a bot already" }
}
