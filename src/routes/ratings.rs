//! Ratings (docs/ratings.md): a game's rating changes, a player's rating
//! history, and each pool's leaderboards.

use actix_web::get;
use actix_web::web::{self, Query};
use serde::Deserialize;
use utoipa::IntoParams;

use super::problem::problems;
use super::{GamePath, Id, Reply, State};
use crate::auth::MaybeCaller;
use crate::ratings_read::{self as read, BoardPage, GameRatings, HistoryPage};

/// The rating changes a game made: empty until it is over, and for a casual
/// game (see the game's `rated`). Readable by whoever may watch the game.
#[utoipa::path(
    operation_id = "get_game_ratings", tag = "ratings", params(GamePath), security((), ("bearer" = [])),
    responses((status = 200, description = "The game's rating changes, by seat", body = GameRatings,
        example = json!({"game_id": "0b6f5c1e-3f0a-4b59-9a57-2f1d8f7c1a10", "method": "glicko2", "finish_order": 42,
            "changes": [{"seat": 0, "user_id": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "username": "ada", "place": 1,
                "before": {"rating": 1500.0, "deviation": 350.0, "provisional": true},
                "after": {"rating": 1662.3, "deviation": 290.3, "provisional": true}}]})),
        GetGameRatingsProblems)
)]
#[get("/games/{id}/ratings")]
pub async fn game(state: State, caller: MaybeCaller, id: Id) -> Reply<GameRatings> {
    let user = caller.0.map(|c| c.user_id);
    Ok(web::Json(read::game(&state, user, id.into_inner()).await?))
}

/// A pool and a page.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PoolQuery {
    /// The table size (each size is its own pool): 2–6, default 2.
    #[param(minimum = 2, maximum = 6)]
    pub players: Option<i64>,
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[param(pattern = "^-?[0-9]{1,19}$")]
    pub cursor: Option<String>,
}

/// A leaderboard's query: a pool, a page, and which board.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// The table size (each size is its own pool): 2–6, default 2.
    #[param(minimum = 2, maximum = 6)]
    pub players: Option<i64>,
    /// The bots' board instead of the people's.
    #[serde(default)]
    pub bots: bool,
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[param(
        pattern = "^-?[0-9]{1,20}(\\.[0-9]{1,20})?_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    pub cursor: Option<String>,
}

/// A pool's leaderboard, best first: established ratings only (provisional
/// ones are left out), people and bots on separate boards.
#[utoipa::path(
    operation_id = "get_leaderboard", tag = "ratings",
    params(("id" = String, Path, description = "The ruleset id"), BoardQuery),
    responses((status = 200, description = "A page of the board", body = BoardPage,
        example = json!({"ruleset": "hats", "players": 2, "method": "glicko2", "bots": false,
            "items": [{"user_id": "6c1f0a4e-8d2b-4f7a-9c3e-1b2a3c4d5e6f", "username": "ada",
                "rating": 1712.4, "deviation": 82.1, "provisional": false, "games": 31}],
            "next_cursor": null})),
        GetLeaderboardProblems)
)]
#[get("/rulesets/{id}/leaderboard")]
pub async fn leaderboard(
    state: State,
    id: web::Path<String>,
    query: Query<BoardQuery>,
) -> Reply<BoardPage> {
    let q = query.into_inner();
    Ok(web::Json(
        read::leaderboard(&state, &id, q.players, q.bots, q.cursor.as_deref(), q.limit).await?,
    ))
}

/// A player's rating history in one pool, newest first. A game others
/// may not see (private, or watched by its players only) is a point without
/// its `game_id` to anyone but the player.
#[utoipa::path(
    operation_id = "get_rating_history", tag = "ratings", security((), ("bearer" = [])),
    params(("username" = String, Path, description = "The username (any case)"),
           ("ruleset" = String, Path, description = "The ruleset id"), PoolQuery),
    responses((status = 200, description = "A page of the history", body = HistoryPage,
        example = json!({"items": [{"game_id": "0b6f5c1e-3f0a-4b59-9a57-2f1d8f7c1a10", "finish_order": 42,
            "place": 1, "rating": 1662.3, "deviation": 290.3, "provisional": true}], "next_cursor": null})),
        GetRatingHistoryProblems)
)]
#[get("/users/{username}/ratings/{ruleset}")]
pub async fn history(
    state: State,
    caller: MaybeCaller,
    path: web::Path<(String, String)>,
    query: Query<PoolQuery>,
) -> Reply<HistoryPage> {
    let (name, ruleset) = path.into_inner();
    let q = query.into_inner();
    Ok(web::Json(
        read::history(
            &state,
            caller.0.map(|c| c.user_id),
            &name,
            &ruleset,
            q.players,
            q.cursor.as_deref(),
            q.limit,
        )
        .await?,
    ))
}

problems! {
    /// What `get_game_ratings` answers besides the common problems.
    GetGameRatingsProblems { BadRequest: "malformed id" }
    /// What `get_leaderboard` answers besides the common problems.
    GetLeaderboardProblems { BadRequest: "players, limit or cursor out of range" }
    /// What `get_rating_history` answers besides the common problems.
    GetRatingHistoryProblems { BadRequest: "players, limit or cursor out of range" }
}
