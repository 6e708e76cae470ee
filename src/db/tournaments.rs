//! Tournaments as stored (docs/tournaments.md): the tournament, its rounds,
//! registrations, tables and its hash-chained record.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::schema::{
    tournament_entries, tournament_events, tournament_rounds, tournament_tables, tournaments,
};
use crate::record::chain::{GENESIS_HASH, LoggedEvent, format_time};
use crate::record::server_event::SCHEMA;

/// A tournament as stored.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournaments)]
#[diesel(check_for_backend(diesel::pg::Pg))]
pub struct TournamentRow {
    pub id: Uuid,
    pub organiser: Uuid,
    pub name: String,
    pub ruleset: String,
    pub options: Value,
    pub table_size: i16,
    /// `round_robin`, `swiss` or `elimination`.
    pub format: String,
    pub rounds: i32,
    pub duplicate: bool,
    pub bots_substitute: bool,
    pub registration_opens: DateTime<Utc>,
    pub registration_closes: DateTime<Utc>,
    pub player_cap: i32,
    pub min_rating: Option<f64>,
    pub min_reliability: Option<i16>,
    /// Secret until the tournament is over.
    pub seed: String,
    pub seed_commitment: String,
    /// `registering`, `running`, `finished` or `cancelled`.
    pub status: String,
    /// The record's length.
    pub version: i64,
    /// The record's last hash (32 bytes).
    pub last_hash: Vec<u8>,
    pub created_at: DateTime<Utc>,
}

/// A round's times as stored.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournament_rounds)]
#[diesel(check_for_backend(diesel::pg::Pg))]
pub struct RoundRow {
    pub tournament_id: Uuid,
    pub round: i32,
    pub starts_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
    pub paired_at: Option<DateTime<Utc>>,
    pub scored_at: Option<DateTime<Utc>>,
}

/// A registration as stored.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournament_entries)]
#[diesel(check_for_backend(diesel::pg::Pg))]
pub struct EntryRow {
    pub tournament_id: Uuid,
    pub user_id: Uuid,
    pub registered_at: DateTime<Utc>,
    /// The seed number, once the tournament has started.
    pub entrant: Option<i32>,
}

/// A table of a round as stored.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournament_tables)]
#[diesel(check_for_backend(diesel::pg::Pg))]
pub struct TableRow {
    pub tournament_id: Uuid,
    pub round: i32,
    pub table_no: i32,
    pub entrants: Vec<i32>,
    pub game_id: Option<Uuid>,
    pub points: Option<Vec<i32>>,
}

/// Stores a new tournament with its rounds and the first events of its record.
///
/// # Errors
/// Database errors.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    row: &TournamentRow,
    rounds: &[RoundRow],
    events: &[LoggedEvent],
) -> QueryResult<()> {
    diesel::insert_into(tournaments::table)
        .values(row)
        .execute(conn)
        .await?;
    diesel::insert_into(tournament_rounds::table)
        .values(rounds)
        .execute(conn)
        .await?;
    insert_events(conn, row.id, events).await
}

/// The tournament `id`.
///
/// # Errors
/// Database errors.
pub async fn find(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Option<TournamentRow>> {
    tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .first(conn)
        .await
        .optional()
}

/// The tournament `id`, locked until the end of the transaction: every
/// change of a tournament (a registration, a withdrawal, a round paired or
/// scored) takes this lock, so they are made one at a time.
///
/// # Errors
/// Database errors.
pub async fn locked(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Option<TournamentRow>> {
    tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()
}

/// Tournaments of `statuses`, newest first, at most `limit`, after the
/// cursor `(created_at, id)` of the last one of the previous page.
///
/// # Errors
/// Database errors.
pub async fn list(
    conn: &mut AsyncPgConnection,
    statuses: &[&str],
    after: Option<(DateTime<Utc>, Uuid)>,
    limit: i64,
) -> QueryResult<Vec<TournamentRow>> {
    let mut query = tournaments::table
        .filter(tournaments::status.eq_any(statuses))
        .select(TournamentRow::as_select())
        .order((tournaments::created_at.desc(), tournaments::id.desc()))
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            tournaments::created_at
                .lt(at)
                .or(tournaments::created_at.eq(at).and(tournaments::id.lt(id))),
        );
    }
    query.load(conn).await
}

/// The rounds of tournament `id`, in order.
///
/// # Errors
/// Database errors.
pub async fn rounds(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Vec<RoundRow>> {
    tournament_rounds::table
        .filter(tournament_rounds::tournament_id.eq(id))
        .order(tournament_rounds::round)
        .select(RoundRow::as_select())
        .load(conn)
        .await
}

/// The rounds of the tournaments `ids` (a page of a list), by tournament,
/// then round.
///
/// # Errors
/// Database errors.
pub async fn rounds_of(conn: &mut AsyncPgConnection, ids: &[Uuid]) -> QueryResult<Vec<RoundRow>> {
    tournament_rounds::table
        .filter(tournament_rounds::tournament_id.eq_any(ids))
        .order((tournament_rounds::tournament_id, tournament_rounds::round))
        .select(RoundRow::as_select())
        .load(conn)
        .await
}

/// How many players are registered for each of the tournaments `ids` (a
/// page of a list); a tournament nobody registered for is absent.
///
/// # Errors
/// Database errors.
pub async fn registered_counts(
    conn: &mut AsyncPgConnection,
    ids: &[Uuid],
) -> QueryResult<Vec<(Uuid, i64)>> {
    tournament_entries::table
        .filter(tournament_entries::tournament_id.eq_any(ids))
        .group_by(tournament_entries::tournament_id)
        .select((tournament_entries::tournament_id, diesel::dsl::count_star()))
        .load(conn)
        .await
}

/// The registrations of tournament `id`, earliest first.
///
/// # Errors
/// Database errors.
pub async fn entries(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Vec<EntryRow>> {
    tournament_entries::table
        .filter(tournament_entries::tournament_id.eq(id))
        .order((
            tournament_entries::registered_at,
            tournament_entries::user_id,
        ))
        .select(EntryRow::as_select())
        .load(conn)
        .await
}

/// Stores a registration; `false` when the user was registered already.
///
/// # Errors
/// Database errors.
pub async fn register(conn: &mut AsyncPgConnection, row: &EntryRow) -> QueryResult<bool> {
    diesel::insert_into(tournament_entries::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(conn)
        .await
        .map(|n| n == 1)
}

/// Removes a registration; `false` when there was none.
///
/// # Errors
/// Database errors.
pub async fn withdraw(conn: &mut AsyncPgConnection, id: Uuid, user: Uuid) -> QueryResult<bool> {
    diesel::delete(tournament_entries::table.find((id, user)))
        .execute(conn)
        .await
        .map(|n| n == 1)
}

/// The tables of tournament `id`, by round and table.
///
/// # Errors
/// Database errors.
pub async fn tables(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Vec<TableRow>> {
    tournament_tables::table
        .filter(tournament_tables::tournament_id.eq(id))
        .order((tournament_tables::round, tournament_tables::table_no))
        .select(TableRow::as_select())
        .load(conn)
        .await
}

/// Appends `events` to the record of a locked tournament and moves its
/// version and last hash on; `events` continue the chain at the stored
/// version (the caller built them with `Chain::after`).
///
/// # Errors
/// Database errors.
pub async fn append(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    events: &[LoggedEvent],
) -> QueryResult<()> {
    let Some(last) = events.last() else {
        return Ok(());
    };
    insert_events(conn, id, events).await?;
    diesel::update(tournaments::table.find(id))
        .set((
            tournaments::version.eq(last.seq),
            tournaments::last_hash.eq(hex::decode(&last.hash).unwrap_or_default()),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

async fn insert_events(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    events: &[LoggedEvent],
) -> QueryResult<()> {
    let rows: Vec<_> = events
        .iter()
        .map(|e| {
            (
                tournament_events::tournament_id.eq(id),
                tournament_events::seq.eq(e.seq),
                tournament_events::type_.eq(&e.kind),
                tournament_events::data.eq(&e.data),
                tournament_events::actor_user.eq(e.actor_user),
                tournament_events::hash.eq(hex::decode(&e.hash).unwrap_or_default()),
                tournament_events::created_at.eq(parse_time(&e.created_at)),
            )
        })
        .collect();
    diesel::insert_into(tournament_events::table)
        .values(rows)
        .execute(conn)
        .await?;
    Ok(())
}

fn parse_time(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).map_or_else(|_| Utc::now(), |t| t.with_timezone(&Utc))
}

/// A stored event of a record: seq, type, data, actor, hash, time.
type RecordRow = (i64, String, Value, Option<Uuid>, Vec<u8>, DateTime<Utc>);

/// The record of tournament `id`, in order, each `prev_hash` taken from the
/// event before (64 zeros before the first).
///
/// # Errors
/// Database errors.
pub async fn record(conn: &mut AsyncPgConnection, id: Uuid) -> QueryResult<Vec<LoggedEvent>> {
    let rows: Vec<RecordRow> = tournament_events::table
        .filter(tournament_events::tournament_id.eq(id))
        .order(tournament_events::seq)
        .select((
            tournament_events::seq,
            tournament_events::type_,
            tournament_events::data,
            tournament_events::actor_user,
            tournament_events::hash,
            tournament_events::created_at,
        ))
        .load(conn)
        .await?;
    let mut prev = GENESIS_HASH.to_owned();
    Ok(rows
        .into_iter()
        .map(|(seq, kind, data, actor_user, hash, at)| {
            let hash = hex::encode(hash);
            LoggedEvent {
                seq,
                kind,
                data,
                actor_user,
                actor_seat: None,
                command: None,
                prev_hash: std::mem::replace(&mut prev, hash.clone()),
                hash,
                created_at: format_time(at),
                schema_version: SCHEMA,
            }
        })
        .collect())
}

/// The registrations of tournament `id` with each player's username,
/// earliest first.
///
/// # Errors
/// Database errors.
pub async fn entries_named(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> QueryResult<Vec<(EntryRow, String)>> {
    use super::schema::users;
    tournament_entries::table
        .inner_join(users::table)
        .filter(tournament_entries::tournament_id.eq(id))
        .order((
            tournament_entries::registered_at,
            tournament_entries::user_id,
        ))
        .select((EntryRow::as_select(), users::username))
        .load(conn)
        .await
}

/// Tournaments that may have a step due at `now`: registering or running,
/// with a round not yet scored whose start has passed (at most `limit`,
/// the longest-waiting first). The round worker locks each in turn.
///
/// # Errors
/// Database errors.
pub async fn due(
    conn: &mut AsyncPgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> QueryResult<Vec<Uuid>> {
    tournament_rounds::table
        .inner_join(tournaments::table)
        .filter(tournaments::status.eq_any(["registering", "running"]))
        .filter(tournament_rounds::scored_at.is_null())
        .filter(tournament_rounds::starts_at.le(now))
        .group_by(tournaments::id)
        .order(diesel::dsl::min(tournament_rounds::starts_at))
        .select(tournaments::id)
        .limit(limit)
        .load(conn)
        .await
}

/// The tournament `id`, locked until the end of the transaction unless
/// another transaction holds it (then `None`: that one is working on it).
///
/// # Errors
/// Database errors.
pub async fn locked_unless_busy(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> QueryResult<Option<TournamentRow>> {
    tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .for_update()
        .skip_locked()
        .first(conn)
        .await
        .optional()
}

/// Sets the status of tournament `id`.
///
/// # Errors
/// Database errors.
pub async fn set_status(conn: &mut AsyncPgConnection, id: Uuid, status: &str) -> QueryResult<()> {
    diesel::update(tournaments::table.find(id))
        .set(tournaments::status.eq(status))
        .execute(conn)
        .await
        .map(drop)
}

/// Gives each registered player of tournament `id` their seed number.
///
/// # Errors
/// Database errors.
pub async fn set_entrants(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    in_seed_order: &[Uuid],
) -> QueryResult<()> {
    for (entrant, user) in in_seed_order.iter().enumerate() {
        diesel::update(tournament_entries::table.find((id, user)))
            .set(tournament_entries::entrant.eq(i32::try_from(entrant).unwrap_or(i32::MAX)))
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// Stores a round's tables (their games created).
///
/// # Errors
/// Database errors.
pub async fn insert_tables(conn: &mut AsyncPgConnection, rows: &[TableRow]) -> QueryResult<()> {
    diesel::insert_into(tournament_tables::table)
        .values(rows)
        .execute(conn)
        .await
        .map(drop)
}

/// Stores the points of table `table` of round `round`.
///
/// # Errors
/// Database errors.
pub async fn set_points(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    round: i32,
    table: i32,
    points: &[i32],
) -> QueryResult<()> {
    diesel::update(tournament_tables::table.find((id, round, table)))
        .set(tournament_tables::points.eq(points))
        .execute(conn)
        .await
        .map(drop)
}

/// Marks round `round` paired (`scored` false) or scored at `at`.
///
/// # Errors
/// Database errors.
pub async fn mark_round(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    round: i32,
    scored: bool,
    at: DateTime<Utc>,
) -> QueryResult<()> {
    let target = tournament_rounds::table.find((id, round));
    if scored {
        diesel::update(target)
            .set(tournament_rounds::scored_at.eq(at))
            .execute(conn)
            .await?;
    } else {
        diesel::update(target)
            .set(tournament_rounds::paired_at.eq(at))
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// The status and result of each game of `ids`.
///
/// # Errors
/// Database errors.
pub async fn game_outcomes(
    conn: &mut AsyncPgConnection,
    ids: &[Uuid],
) -> QueryResult<Vec<(Uuid, String, Option<Value>)>> {
    use super::schema::games;
    games::table
        .filter(games::id.eq_any(ids))
        .select((games::id, games::status, games::result))
        .load(conn)
        .await
}

/// Whether game `game_id` is a tournament table whose round is scored
/// (before that, only its players may read it: a duplicate round's deals
/// must not reach another table).
///
/// # Errors
/// Database errors.
pub async fn round_scored_for(conn: &mut AsyncPgConnection, game_id: Uuid) -> QueryResult<bool> {
    tournament_tables::table
        .inner_join(
            tournament_rounds::table.on(tournament_rounds::tournament_id
                .eq(tournament_tables::tournament_id)
                .and(tournament_rounds::round.eq(tournament_tables::round))),
        )
        .filter(tournament_tables::game_id.eq(game_id))
        .filter(tournament_rounds::scored_at.is_not_null())
        .count()
        .get_result::<i64>(conn)
        .await
        .map(|n| n > 0)
}
