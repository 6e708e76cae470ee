//! `/v1/users`: public profiles; `/v1/me/bot`: becoming a bot account.

use actix_web::web::Query;
use actix_web::{get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::problem::problems;
use super::strict_json::NoBody;
use super::{Reply, State};
use crate::accounts::profile::{self, UserProfile};
use crate::auth::{Caller, MaybeCaller};
use crate::ratings_read::{self as read, RecentGames};

/// A user's public profile: whether a person or a bot plays the account,
/// member since, ratings per pool, games over by outcome, and the latest
/// games over (to others than the player, only games listed to everyone).
#[utoipa::path(
    operation_id = "get_user", tag = "users", security((), ("bearer" = [])),
    params(("username" = String, Path, description = "The username (any case)")),
    responses((status = 200, description = "The profile", body = UserProfile), GetUserProblems)
)]
#[get("/users/{username}")]
pub async fn get(
    state: State,
    caller: MaybeCaller,
    username: web::Path<String>,
) -> Reply<UserProfile> {
    let viewer = caller.0.map(|c| c.user_id);
    Ok(web::Json(
        profile::profile(&state, &username, viewer).await?,
    ))
}

/// A page of a user's games over.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RecentQuery {
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page (or of the profile's `recent_games`).
    #[param(
        pattern = "^-?[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    pub cursor: Option<String>,
}

/// A user's games over (finished or abandoned), the latest ended first,
/// cursor-paginated. The player sees all of theirs; anyone else only the
/// games listed to everyone (public, watched by anyone), so a page may hold
/// fewer games than asked before the end (`next_cursor` null: the end).
#[utoipa::path(
    operation_id = "list_user_games", tag = "users", security((), ("bearer" = [])),
    params(("username" = String, Path, description = "The username (any case)"), RecentQuery),
    responses((status = 200, description = "A page of the user's games over", body = RecentGames), ListUserGamesProblems)
)]
#[get("/users/{username}/games")]
pub async fn games(
    state: State,
    caller: MaybeCaller,
    username: web::Path<String>,
    query: Query<RecentQuery>,
) -> Reply<RecentGames> {
    let q = query.into_inner();
    Ok(web::Json(
        read::recent_of(
            &state,
            &username,
            caller.0.map(|c| c.user_id),
            q.cursor.as_deref(),
            q.limit,
        )
        .await?,
    ))
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
    /// What `list_user_games` answers besides the common problems.
    ListUserGamesProblems {
        NotFound: "no user of that name",
        BadRequest: "limit or cursor out of range",
    }
    /// What `become_bot` answers besides the common problems.
    BecomeBotProblems { BotAccountRefused: "the account has taken a seat before, or is a bot already" }
}
