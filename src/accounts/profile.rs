//! Public profiles, and turning an account into a bot account.

use chrono::{DateTime, Utc};
use hatstand_engine::bots::Level;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Caller;
use crate::context::Context;
use crate::db::users;
use crate::error::{ErrorCode, Failure};

/// An account as everyone sees it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct UserProfile {
    pub id: Uuid,
    pub username: String,
    /// `human`, or `bot`: one of the server's built-in bots (with its
    /// `bot_level`) or a player's bot account, which plays through the API.
    #[schema(example = "bot")]
    pub kind: UserKind,
    /// The level a built-in bot plays at (none for other accounts).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[schema(value_type = Option<Level>)]
    pub bot_level: Option<Level>,
    /// Member since.
    pub created_at: DateTime<Utc>,
    /// Ratings per pool (ruleset and table size; docs/ratings.md).
    #[serde(default)]
    pub ratings: Vec<crate::ratings_read::PoolRating>,
    /// Games over, by outcome (counters kept as games end).
    #[serde(default)]
    pub record: crate::ratings_read::GameRecord,
    /// How surely the player sees their games to the end (docs/seats.md).
    #[serde(default)]
    pub reliability: crate::ratings::reliability::Reliability,
    /// The latest games over (finished or abandoned), the latest ended
    /// first: the first page of `GET /v1/users/{username}/games`. To others
    /// than the player, only the games listed to everyone.
    #[serde(default)]
    pub recent_games: crate::ratings_read::RecentGames,
}

/// Whether a person or a program plays an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum UserKind {
    Human,
    Bot,
}

impl From<users::Profile> for UserProfile {
    fn from(p: users::Profile) -> Self {
        UserProfile {
            id: p.id,
            username: p.username,
            kind: if p.kind == "bot" {
                UserKind::Bot
            } else {
                UserKind::Human
            },
            bot_level: p.bot_level.and_then(|l| l.parse().ok()),
            created_at: p.created_at,
            ratings: Vec::new(),
            record: crate::ratings_read::GameRecord::default(),
            reliability: crate::ratings::reliability::Reliability::default(),
            recent_games: crate::ratings_read::RecentGames::default(),
        }
    }
}

/// The profile of the user named `name` (any case), as `viewer` may see it.
///
/// # Errors
/// `not_found`.
pub async fn profile(
    state: &Context,
    name: &str,
    viewer: Option<Uuid>,
) -> Result<UserProfile, Failure> {
    let mut conn = state.pool.get().await?;
    let mut profile = users::profile(&mut conn, name)
        .await?
        .map(UserProfile::from)
        .ok_or_else(|| Failure::not_found(format!("there is no user {name:?}")))?;
    // Ratings' hook: the player's ratings and games by outcome.
    (profile.ratings, profile.record) = crate::ratings_read::of_user(&mut conn, profile.id).await?;
    profile.reliability = crate::ratings::reliability::of_user(&mut conn, profile.id).await?;
    profile.recent_games = crate::ratings_read::recent(
        &mut conn,
        profile.id,
        viewer == Some(profile.id),
        None,
        crate::ratings_read::RECENT,
    )
    .await?;
    Ok(profile)
}

/// Turns the caller's account into a bot account, for good (as on the big
/// chess servers): from then on it is labelled a bot everywhere and games
/// created `humans_only` refuse it. Only an account that has never taken a
/// seat may: a bot's record starts clean.
///
/// # Errors
/// `bot_account_refused` (the account has played, or is a bot already).
pub async fn become_bot(state: &Context, caller: &Caller) -> Result<UserProfile, Failure> {
    let mut conn = state.pool.get().await?;
    if !users::become_bot(&mut conn, caller.user_id).await? {
        return Err(Failure::new(
            ErrorCode::BotAccountRefused,
            "only an account that has never taken a seat can become a bot account",
        ));
    }
    profile(state, &caller.username, Some(caller.user_id)).await
}
