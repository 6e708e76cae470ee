//! What clients read of the ratings: a game's changes, a player's ratings,
//! history and games over, and the leaderboards. `ratings/` computes the
//! ratings as games finish (below `games/`, which calls it); these reads
//! name games as their viewer may see them, so they sit above `games/`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::context::Context;
use crate::db;
use crate::error::Failure;
use crate::ratings::Method;

/// A rating as shown: rounded for people, exact in the ledger.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Shown {
    /// Glicko-2's rating (two seats) or Weng-Lin's mu (more seats, teams).
    #[schema(example = 1662.3)]
    pub rating: f64,
    /// Glicko-2's deviation or Weng-Lin's sigma.
    #[schema(example = 290.3)]
    pub deviation: f64,
    /// Deviation not yet below the method's bound (shown with `?`).
    pub provisional: bool,
}

impl Shown {
    fn of(method: Method, rating: f64, deviation: f64) -> Self {
        Shown {
            rating,
            deviation,
            provisional: deviation >= method.provisional_at(),
        }
    }
}

/// One seat's rating change in a game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatChange {
    pub seat: u8,
    pub user_id: Uuid,
    pub username: String,
    /// 1 = first; equal places tie.
    pub place: u16,
    pub before: Shown,
    pub after: Shown,
}

/// A game's ratings: whether it is rated and, once rated, each seat's change.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameRatings {
    pub game_id: Uuid,
    /// `glicko2` (two seats) or `weng_lin`.
    pub method: Method,
    /// The game's position in the finish order the ratings follow, once it
    /// is finished (rated or casual); null before.
    pub finish_order: Option<i64>,
    /// Empty while the game is not over, and for a casual game.
    pub changes: Vec<SeatChange>,
}

/// The rating changes of game `id`, for those who may watch it.
///
/// # Errors
/// `not_found` (also for a game the caller may not watch).
pub async fn game(state: &Context, user: Option<Uuid>, id: Uuid) -> Result<GameRatings, Failure> {
    let mut conn = state.pool.get().await?;
    let loaded = crate::games::stored(&mut conn, id).await?;
    crate::games::watchers::check(&mut conn, &loaded, user).await?;
    let method = Method::of(usize::try_from(loaded.game.players).unwrap_or(0));
    let changes = db::ratings::of_game(&mut conn, id).await?;
    let finish_order = match changes.first() {
        Some(c) => Some(c.finish_seq),
        None => db::ratings::finish_seq(&mut conn, id).await?,
    };
    Ok(GameRatings {
        game_id: id,
        method,
        finish_order,
        changes: changes
            .into_iter()
            .map(|c| SeatChange {
                seat: u8::try_from(c.seat).unwrap_or(0),
                user_id: c.user_id,
                username: c.username,
                place: u16::try_from(c.place).unwrap_or(0),
                before: Shown::of(method, c.rating_before, c.deviation_before),
                after: Shown::of(method, c.rating_after, c.deviation_after),
            })
            .collect(),
    })
}

/// A player's rating in one pool.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PoolRating {
    #[schema(example = "hats")]
    pub ruleset: String,
    /// The table size: each size is its own pool.
    #[schema(example = 2)]
    pub players: u8,
    pub method: Method,
    #[serde(flatten)]
    pub shown: Shown,
    /// Rated games counted.
    pub games: i32,
}

/// Games over, by outcome.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct GameRecord {
    pub played: i64,
    pub won: i64,
    pub drawn: i64,
    pub lost: i64,
    pub abandoned: i64,
}

/// A user's ratings, every pool, and games by outcome.
///
/// # Errors
/// Database errors.
pub async fn of_user(
    conn: &mut db::Conn,
    user: Uuid,
) -> Result<(Vec<PoolRating>, GameRecord), Failure> {
    let mut stored = db::ratings::of_users(conn, &[user]).await?;
    stored.sort_by(|a, b| (&a.ruleset, a.players).cmp(&(&b.ruleset, b.players)));
    let ratings = stored
        .into_iter()
        .map(|s| {
            let method = Method::of(usize::try_from(s.players).unwrap_or(0));
            PoolRating {
                ruleset: s.ruleset,
                players: u8::try_from(s.players).unwrap_or(0),
                method,
                shown: Shown::of(method, s.rating, s.deviation),
                games: s.games,
            }
        })
        .collect();
    let r = db::ratings::record(conn, user).await?;
    Ok((
        ratings,
        GameRecord {
            played: r.played,
            won: r.won,
            drawn: r.drawn,
            lost: r.lost,
            abandoned: r.abandoned,
        },
    ))
}

/// A point of a rating history.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HistoryPoint {
    /// The game; null, to anyone but the player, for a game not listed to
    /// everyone (private, or watched by its players only).
    pub game_id: Option<Uuid>,
    /// The game's position in the finish order.
    pub finish_order: i64,
    pub place: u16,
    #[serde(flatten)]
    pub after: Shown,
}

/// A page of a rating history, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HistoryPage {
    pub items: Vec<HistoryPoint>,
    /// Pass as `cursor` for older points; null at the first game.
    pub next_cursor: Option<String>,
}

/// The shape of a leaderboard's cursor: the last rating shown, `_`, its user.
pub const BOARD_CURSOR_PATTERN: &str = "^-?[0-9]{1,20}(\\.[0-9]{1,20})?_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// The shape of a history's cursor: the last finish order shown.
pub const HISTORY_CURSOR_PATTERN: &str = "^-?[0-9]{1,19}$";

/// Checks a pool named by a client.
fn pool(ruleset: &str, players: Option<i64>) -> Result<(String, i16), Failure> {
    let kind = hatstand_engine::GameKind::from_id(ruleset)
        .ok_or_else(|| Failure::not_found(format!("there is no ruleset {ruleset:?}")))?;
    let players = players.unwrap_or(2);
    if !(2..=6).contains(&players) {
        return Err(Failure::bad_request("players must be 2 to 6"));
    }
    Ok((kind.id().to_owned(), i16::try_from(players).unwrap_or(2)))
}

fn limit(limit: Option<i64>) -> Result<i64, Failure> {
    match limit.unwrap_or(20) {
        n @ 1..=100 => Ok(n),
        _ => Err(Failure::bad_request("limit must be 1 to 100")),
    }
}

/// The history of user `name` in a pool, newest first, as `viewer` may see
/// it: every point, but a game others may not see is not named to them.
///
/// # Errors
/// `not_found` (user, ruleset), `bad_request` (players, limit, cursor).
pub async fn history(
    state: &Context,
    viewer: Option<Uuid>,
    name: &str,
    ruleset: &str,
    players: Option<i64>,
    cursor: Option<&str>,
    limit_asked: Option<i64>,
) -> Result<HistoryPage, Failure> {
    let (ruleset, players) = pool(ruleset, players)?;
    let limit = limit(limit_asked)?;
    let before = cursor
        .map(|c| c.parse::<i64>())
        .transpose()
        .map_err(|_| Failure::bad_request("cursor is not one this server gave"))?;
    let mut conn = state.pool.get().await?;
    let user = db::users::profile(&mut conn, name)
        .await?
        .ok_or_else(|| Failure::not_found(format!("there is no user {name:?}")))?;
    let method = Method::of(usize::try_from(players).unwrap_or(0));
    let points = db::ratings::history(&mut conn, user.id, &ruleset, players, before, limit).await?;
    let own = viewer == Some(user.id);
    let next_cursor = (i64::try_from(points.len()).unwrap_or(0) == limit)
        .then(|| points.last().map(|p| p.finish_seq.to_string()))
        .flatten();
    Ok(HistoryPage {
        items: points
            .into_iter()
            .map(|p| HistoryPoint {
                game_id: (own || p.listed).then_some(p.game_id),
                finish_order: p.finish_seq,
                place: u16::try_from(p.place).unwrap_or(0),
                after: Shown::of(method, p.rating, p.deviation),
            })
            .collect(),
        next_cursor,
    })
}

/// A leaderboard row.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BoardEntry {
    pub user_id: Uuid,
    pub username: String,
    #[serde(flatten)]
    pub shown: Shown,
    pub games: i32,
}

/// A page of a leaderboard, best first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BoardPage {
    pub ruleset: String,
    pub players: u8,
    pub method: Method,
    /// The bots' board, or the people's.
    pub bots: bool,
    pub items: Vec<BoardEntry>,
    /// Pass as `cursor` for the next page; null at the end.
    pub next_cursor: Option<String>,
}

/// A pool's leaderboard: established ratings only (provisional ones are
/// left out), people and bots on separate boards.
///
/// # Errors
/// `not_found` (ruleset), `bad_request` (players, limit, cursor).
pub async fn leaderboard(
    state: &Context,
    ruleset: &str,
    players: Option<i64>,
    bots: bool,
    cursor: Option<&str>,
    limit_asked: Option<i64>,
) -> Result<BoardPage, Failure> {
    let (ruleset, players) = pool(ruleset, players)?;
    let limit = limit(limit_asked)?;
    let bad = || Failure::bad_request("cursor is not one this server gave");
    let after = cursor
        .map(|c| -> Result<(f64, Uuid), Failure> {
            let (rating, user) = c.split_once('_').ok_or_else(bad)?;
            if !rating
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'-' || b == b'.')
            {
                return Err(bad());
            }
            let rating: f64 = rating.parse().map_err(|_| bad())?;
            if !rating.is_finite() {
                return Err(bad());
            }
            Ok((rating, user.parse().map_err(|_| bad())?))
        })
        .transpose()?;
    let method = Method::of(usize::try_from(players).unwrap_or(0));
    let mut conn = state.pool.get().await?;
    let rows = db::ratings::board(
        &mut conn,
        &ruleset,
        players,
        bots,
        method.provisional_at(),
        after,
        limit,
    )
    .await?;
    let next_cursor = (i64::try_from(rows.len()).unwrap_or(0) == limit)
        .then(|| rows.last().map(|r| format!("{}_{}", r.rating, r.user_id)))
        .flatten();
    Ok(BoardPage {
        ruleset,
        players: u8::try_from(players).unwrap_or(0),
        method,
        bots,
        items: rows
            .into_iter()
            .map(|r| BoardEntry {
                user_id: r.user_id,
                username: r.username,
                shown: Shown::of(method, r.rating, r.deviation),
                games: r.games,
            })
            .collect(),
        next_cursor,
    })
}

/// A page of a player's games over (finished or abandoned), the latest
/// ended first.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct RecentGames {
    pub games: Vec<crate::games::projection::GameSummary>,
    /// Pass as `cursor` to `GET /v1/users/{username}/games` for older
    /// games; null at the end. A page may hold fewer games than asked (even
    /// none) before the end: games others may not see are left out.
    pub next_cursor: Option<String>,
}

/// Recent games a profile shows at once.
pub const RECENT: i64 = 10;

/// How many of a player's games one page reads at most, per game asked,
/// when the viewer is someone else (who sees only the listed ones).
const SCAN_PER_GAME: i64 = 4;

/// `user`'s games over, the latest ended first: all of them for the player
/// (`own`), else only the games listed to everyone (public, watched by
/// anyone): a private game is never shown to others. A page reads at most
/// `limit` (own) or `4 × limit` of the player's seats, whatever their
/// history.
///
/// # Errors
/// `bad_request` (cursor).
pub async fn recent(
    conn: &mut db::Conn,
    user: Uuid,
    own: bool,
    cursor: Option<&str>,
    limit: i64,
) -> Result<RecentGames, Failure> {
    let before = cursor.map(crate::games::read::parse_cursor).transpose()?;
    let scan = if own { limit } else { limit * SCAN_PER_GAME };
    let rows = db::games::ended_of(conn, user, before, scan).await?;
    let scanned = i64::try_from(rows.len()).unwrap_or(i64::MAX);
    let mut page = RecentGames::default();
    let mut last = None;
    for row in rows {
        last = Some(format!(
            "{}_{}",
            row.ended_at.timestamp_micros(),
            row.game.id
        ));
        if !(own || row.listed) {
            continue;
        }
        let seats: Vec<db::games::SeatRow> =
            serde_json::from_value(row.seats).map_err(Failure::internal)?;
        page.games
            .push(crate::games::projection::summary(&row.game, &seats));
        if i64::try_from(page.games.len()).unwrap_or(i64::MAX) == limit {
            page.next_cursor.clone_from(&last);
            return Ok(page);
        }
    }
    if scanned == scan {
        page.next_cursor = last;
    }
    Ok(page)
}

/// A page of the games over of user `name`, as `viewer` may see them (see
/// [`recent`]).
///
/// # Errors
/// `not_found` (user), `bad_request` (limit, cursor).
pub async fn recent_of(
    state: &Context,
    name: &str,
    viewer: Option<Uuid>,
    cursor: Option<&str>,
    limit_asked: Option<i64>,
) -> Result<RecentGames, Failure> {
    let limit = limit(limit_asked)?;
    let mut conn = state.pool.get().await?;
    let user = db::users::profile(&mut conn, name)
        .await?
        .ok_or_else(|| Failure::not_found(format!("there is no user {name:?}")))?;
    recent(&mut conn, user.id, viewer == Some(user.id), cursor, limit).await
}
