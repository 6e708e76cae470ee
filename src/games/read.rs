//! Reading games: one game as a viewer sees it, pages of games, and a
//! player's inbox (`turn=mine`: the games waiting for them).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::kind_of;
use super::projection::{Game, GameSummary, project, summary};
use crate::auth::Claimed;
use crate::context::Context;
use crate::db::games::{self, GameRow, LoadedGame, SeatRow};
use crate::error::Failure;
use crate::games::snapshot::state_from_json;
use hatstand_engine::{GameKind, with_ruleset};

/// The most games one page holds.
pub const MAX_PAGE: i64 = 100;
/// Games per page unless asked otherwise.
pub const DEFAULT_PAGE: i64 = 20;

/// A page of games, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GamePage {
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// What to list.
#[derive(Debug, Default, Clone)]
pub struct Filter {
    pub status: Option<String>,
    pub ruleset: Option<String>,
    /// Only games where this user is seated...
    pub member: Option<Uuid>,
    /// ...and (when true) where the game waits for them.
    pub my_turn: bool,
    pub limit: Option<i64>,
    pub cursor: Option<String>,
    /// Who asks: private games are listed only to their players and invitees.
    pub viewer: Option<Uuid>,
}

/// What `user` (or a spectator) sees of a stored game.
///
/// # Errors
/// `internal` for a snapshot that does not parse.
pub fn project_stored(loaded: &LoadedGame, user: Option<Uuid>) -> Result<Game, Failure> {
    let kind = kind_of(&loaded.game)?;
    let my_seat = user.and_then(|u| loaded.seat_of(u));
    with_ruleset!(kind, |R| {
        let engine_state = loaded
            .game
            .state
            .as_ref()
            .map(state_from_json::<R>)
            .transpose()?;
        project::<R>(&loaded.game, &loaded.seats, engine_state.as_ref(), my_seat)
    })
}

/// Game `id` as the token's user (or a spectator) sees it; the token's
/// session is checked in the statement that loads the game. `code`, the
/// invite code, lets its holder see an open game watched by its players only.
///
/// # Errors
/// `unauthenticated` (a signed-out session), `not_found` (also for a game
/// the caller may not watch).
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn get(
    state: &Context,
    claimed: Option<Claimed>,
    id: Uuid,
    code: Option<&str>,
) -> Result<Game, Failure> {
    let mut conn = state.pool.get().await?;
    let (loaded, user) = match claimed {
        None => (games::load(&mut conn, id, None, None).await?, None),
        Some(claimed) => {
            let token = claimed.unchecked();
            let loaded =
                games::load_checking(&mut conn, id, token.user_id, token.session, None).await?;
            let caller = claimed
                .vouched_by(&mut conn, loaded.as_ref().map(|l| l.session_live))
                .await?;
            (loaded, Some(caller.user_id))
        }
    };
    let mut loaded = loaded.ok_or_else(super::no_such_game)?;
    super::watchers::check_with_code(&mut conn, &loaded, user, code).await?;
    if loaded.game.archived_at.is_some() && loaded.game.state.is_none() {
        loaded.game.state = super::read_archived::snapshot(&mut conn, id).await?;
    }
    let (rematch_of, rematch) = super::rematch_offer::links(&mut conn, &loaded).await?;
    drop(conn);
    let mut game = project_stored(&loaded, user)?;
    game.rematch_of = rematch_of;
    game.rematch = rematch;
    Ok(game)
}

/// The version of game `id` (for conditional requests).
///
/// # Errors
/// `not_found`.
pub async fn version(state: &Context, id: Uuid) -> Result<i64, Failure> {
    let mut conn = state.pool.get().await?;
    games::version(&mut conn, id)
        .await?
        .ok_or_else(super::no_such_game)
}

/// The shape of a page cursor, as the OpenAPI document declares it: the
/// creation time of the page's last game in microseconds, `_`, its id.
pub const CURSOR_PATTERN: &str =
    "^-?[0-9]{1,18}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// PostgreSQL's earliest `timestamptz` (4714-11-24 BC), in microseconds
/// since 1970.
const EARLIEST_MICROS: i64 = -210_866_803_200_000_000;

pub(crate) fn parse_cursor(cursor: &str) -> Result<(DateTime<Utc>, Uuid), Failure> {
    let bad = || Failure::bad_request("cursor is not one this server gave");
    let (micros, id) = cursor.split_once('_').ok_or_else(bad)?;
    // Exactly the shape the document declares (`CURSOR_PATTERN`): up to 18
    // digits with an optional minus, and a hyphenated UUID.
    let digits = micros.strip_prefix('-').unwrap_or(micros);
    let shaped = (1..=18).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && id.len() == 36;
    if !shaped {
        return Err(bad());
    }
    // Before PostgreSQL's first representable time nothing was created: such
    // a cursor reads as that time (an empty page), not as a database error.
    let micros = micros
        .parse::<i64>()
        .map_err(|_| bad())?
        .max(EARLIEST_MICROS);
    let at = DateTime::from_timestamp_micros(micros).ok_or_else(bad)?;
    Ok((at, id.parse().map_err(|_| bad())?))
}

fn make_cursor(game: &GameRow) -> String {
    format!("{}_{}", game.created_at.timestamp_micros(), game.id)
}

/// A page of games matching `filter`, newest first.
///
/// # Errors
/// `bad_request` for an unknown status or ruleset, a bad limit or cursor.
pub async fn list(state: &Context, filter: Filter) -> Result<GamePage, Failure> {
    if let Some(s) = &filter.status
        && !["open", "active", "finished", "abandoned"].contains(&s.as_str())
    {
        return Err(Failure::bad_request(
            "status must be open, active, finished or abandoned",
        ));
    }
    if let Some(r) = &filter.ruleset
        && GameKind::from_id(r).is_none()
    {
        return Err(Failure::bad_request(format!("there is no ruleset {r:?}")));
    }
    let limit = filter.limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(Failure::bad_request(format!("limit must be 1–{MAX_PAGE}")));
    }
    let cursor = filter.cursor.as_deref().map(parse_cursor).transpose()?;
    let mut conn = state.pool.get().await?;
    let query = games::ListQuery {
        status: filter.status.as_deref(),
        ruleset: filter.ruleset.as_deref(),
        before: cursor,
        member: filter.member,
        my_turn: filter.my_turn,
        limit: limit + 1,
        viewer: filter.viewer,
    };
    let rows = games::list(&mut conn, &query).await?;
    drop(conn);
    let more = rows.len() > usize::try_from(limit).unwrap_or(0);
    let mut games = Vec::with_capacity(rows.len());
    let mut last = None;
    for row in rows.into_iter().take(usize::try_from(limit).unwrap_or(0)) {
        let seats: Vec<SeatRow> = serde_json::from_value(row.seats).map_err(Failure::internal)?;
        games.push(summary(&row.game, &seats));
        last = Some(make_cursor(&row.game));
    }
    Ok(GamePage {
        games,
        next_cursor: if more { last } else { None },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_garbage_is_refused() {
        let id = Uuid::new_v4();
        let at = DateTime::from_timestamp_micros(1_700_000_000_123_456).unwrap();
        let (a, i) = parse_cursor(&format!("{}_{id}", at.timestamp_micros())).unwrap();
        assert_eq!((a, i), (at, id));
        assert!(parse_cursor("nope").is_err());
        // Outside the documented pattern, though Rust would parse them.
        assert!(parse_cursor(&format!("+5_{id}")).is_err());
        assert!(parse_cursor(&format!("5_{}", id.simple())).is_err());
        assert!(parse_cursor(&format!("1234567890123456789_{id}")).is_err());
        assert!(parse_cursor(&format!("-5_{id}")).is_ok());
        let (earliest, _) = parse_cursor(&format!("-932204705696005374_{id}")).unwrap();
        assert_eq!(earliest.timestamp_micros(), EARLIEST_MICROS);
        assert!(parse_cursor("1_notauuid").is_err());
        assert!(parse_cursor("99999999999999999999_x").is_err());
    }
}
