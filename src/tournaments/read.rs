//! Tournaments as clients see them: one with its schedule and field, the
//! lists (upcoming, running, finished; paged), and the record.
//!
//! The seed is shown only once the tournament is over; until then only its
//! commitment.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::settings::{Format, RoundTimes};
use crate::context::Context;
use crate::db::tournaments::{self, RoundRow, TournamentRow};
use crate::error::Failure;
use crate::games::public::public_options;
use crate::record::chain::LoggedEvent;

/// A registered player.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Entry {
    pub user_id: Uuid,
    pub username: String,
    pub registered_at: DateTime<Utc>,
}

/// A tournament as anyone may see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Tournament {
    pub id: Uuid,
    pub name: String,
    pub organiser: Uuid,
    pub ruleset: String,
    /// The tables' options, as a game shows them.
    #[schema(value_type = crate::games::wire_types::AnyOptions)]
    pub options: Value,
    pub table_size: u8,
    pub format: Format,
    /// Each round's start and deadline.
    pub schedule: Vec<RoundTimes>,
    pub registration_opens: DateTime<Utc>,
    pub registration_closes: DateTime<Utc>,
    pub player_cap: u32,
    pub min_rating: Option<f64>,
    pub min_reliability: Option<u8>,
    pub duplicate: bool,
    pub bots_substitute: bool,
    /// `registering`, `running`, `finished` or `cancelled`.
    pub status: String,
    /// `hex(SHA-256(seed))`, published at creation.
    pub seed_commitment: String,
    /// The seed, once the tournament is over.
    pub seed: Option<String>,
    /// How many players are registered.
    pub registered: u32,
    /// The record's length.
    pub version: i64,
    pub created_at: DateTime<Utc>,
}

/// A tournament with its field.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentWithField {
    #[serde(flatten)]
    pub tournament: Tournament,
    /// The registered players, earliest first.
    pub entries: Vec<Entry>,
}

/// A page of tournaments.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentPage {
    pub tournaments: Vec<Tournament>,
    /// The `after` of the next page; absent on the last.
    pub next: Option<String>,
}

/// Which list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Listing {
    /// Open for registration.
    Upcoming,
    Running,
    /// Over (finished or cancelled).
    Finished,
}

impl Listing {
    fn statuses(self) -> &'static [&'static str] {
        match self {
            Listing::Upcoming => &["registering"],
            Listing::Running => &["running"],
            Listing::Finished => &["finished", "cancelled"],
        }
    }
}

/// The most tournaments a page holds.
pub const PAGE: i64 = 50;

/// The tournament from its stored rows.
#[must_use]
pub fn shown(row: &TournamentRow, rounds: &[RoundRow], registered: usize) -> Tournament {
    let over = matches!(row.status.as_str(), "finished" | "cancelled");
    Tournament {
        id: row.id,
        name: row.name.clone(),
        organiser: row.organiser,
        ruleset: row.ruleset.clone(),
        options: public_options(&row.options, None),
        table_size: u8::try_from(row.table_size).unwrap_or(0),
        format: Format::parse(&row.format).unwrap_or(Format::Swiss),
        schedule: rounds
            .iter()
            .map(|r| RoundTimes {
                starts_at: r.starts_at,
                deadline: r.deadline,
            })
            .collect(),
        registration_opens: row.registration_opens,
        registration_closes: row.registration_closes,
        player_cap: u32::try_from(row.player_cap).unwrap_or(0),
        min_rating: row.min_rating,
        min_reliability: row.min_reliability.and_then(|r| u8::try_from(r).ok()),
        duplicate: row.duplicate,
        bots_substitute: row.bots_substitute,
        status: row.status.clone(),
        seed_commitment: row.seed_commitment.clone(),
        seed: over.then(|| row.seed.clone()),
        registered: u32::try_from(registered).unwrap_or(u32::MAX),
        version: row.version,
        created_at: row.created_at,
    }
}

fn no_such_tournament() -> Failure {
    Failure::not_found("no such tournament")
}

/// Tournament `id` with its field.
///
/// # Errors
/// `not_found`; database errors.
pub async fn get(ctx: &Context, id: Uuid) -> Result<TournamentWithField, Failure> {
    let mut conn = ctx.pool.get().await?;
    let row = tournaments::find(&mut conn, id)
        .await?
        .ok_or_else(no_such_tournament)?;
    let rounds = tournaments::rounds(&mut conn, id).await?;
    let entries: Vec<Entry> = tournaments::entries_named(&mut conn, id)
        .await?
        .into_iter()
        .map(|(e, username)| Entry {
            user_id: e.user_id,
            username,
            registered_at: e.registered_at,
        })
        .collect();
    Ok(TournamentWithField {
        tournament: shown(&row, &rounds, entries.len()),
        entries,
    })
}

/// A page of a list, newest first, after the cursor `after` (the `next` of
/// the page before).
///
/// # Errors
/// `bad_request` for a cursor this server did not give; database errors.
pub async fn list(
    ctx: &Context,
    listing: Listing,
    after: Option<&str>,
) -> Result<TournamentPage, Failure> {
    let cursor = after.map(parse_cursor).transpose()?;
    let mut conn = ctx.pool.get().await?;
    let rows = tournaments::list(&mut conn, listing.statuses(), cursor, PAGE + 1).await?;
    let more = rows.len() > usize::try_from(PAGE).unwrap_or(usize::MAX);
    let page = &rows[..rows.len().min(usize::try_from(PAGE).unwrap_or(0))];
    let ids: Vec<Uuid> = page.iter().map(|row| row.id).collect();
    // Two statements for the whole page, not two a tournament.
    let rounds = tournaments::rounds_of(&mut conn, &ids).await?;
    let counts = tournaments::registered_counts(&mut conn, &ids).await?;
    let shown_rows: Vec<Tournament> = page
        .iter()
        .map(|row| {
            let own: Vec<RoundRow> = rounds
                .iter()
                .filter(|r| r.tournament_id == row.id)
                .cloned()
                .collect();
            let registered = counts
                .iter()
                .find(|(id, _)| *id == row.id)
                .map_or(0, |(_, n)| usize::try_from(*n).unwrap_or(0));
            shown(row, &own, registered)
        })
        .collect();
    let next = more
        .then(|| {
            shown_rows
                .last()
                .map(|t| format!("{}_{}", t.created_at.timestamp_micros(), t.id))
        })
        .flatten();
    Ok(TournamentPage {
        tournaments: shown_rows,
        next,
    })
}

fn parse_cursor(text: &str) -> Result<(DateTime<Utc>, Uuid), Failure> {
    let bad = || Failure::bad_request("after: a cursor from a page's next");
    let (micros, id) = text.split_once('_').ok_or_else(bad)?;
    let micros: i64 = micros.parse().map_err(|_| bad())?;
    let at = DateTime::from_timestamp_micros(micros).ok_or_else(bad)?;
    Ok((at, id.parse().map_err(|_| bad())?))
}

/// The record of tournament `id` as its events, in order (what
/// [`super::replay::replay`] folds).
///
/// # Errors
/// Database errors; an event that is not a tournament's.
pub async fn events(
    conn: &mut crate::db::Conn,
    id: Uuid,
) -> Result<Vec<super::record::TournamentEvent>, Failure> {
    parsed(&tournaments::record(conn, id).await?)
}

/// The events of a record as read from the store.
///
/// # Errors
/// An event that is not a tournament's.
pub fn parsed(record: &[LoggedEvent]) -> Result<Vec<super::record::TournamentEvent>, Failure> {
    record
        .iter()
        .map(|e| super::record::TournamentEvent::from_parts(&e.kind, &e.data))
        .collect::<Result<_, _>>()
        .map_err(Failure::internal)
}
