//! The signing keys and the transparency log's tables: `signing_keys`,
//! `log_leaves`, `log_nodes`, `log_heads`, and `games.logged_at`.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bytea, SmallInt};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::schema::{games, log_heads, log_leaves, log_nodes, signing_keys};

/// A key as stored.
#[derive(Debug, Clone, Queryable)]
pub struct StoredKey {
    pub key_id: String,
    pub secret: Vec<u8>,
    pub public_key: Vec<u8>,
    pub created_at: DateTime<Utc>,
    pub retired_at: Option<DateTime<Utc>>,
}

/// The key that signs now, stored first when there is none (processes
/// starting together store one: `signing_keys_current`).
///
/// # Errors
/// Database errors.
pub async fn current_key(
    conn: &mut AsyncPgConnection,
    fresh: (&str, &[u8], &[u8]),
) -> QueryResult<StoredKey> {
    let (key_id, secret, public_key) = fresh;
    diesel::insert_into(signing_keys::table)
        .values((
            signing_keys::key_id.eq(key_id),
            signing_keys::secret.eq(secret),
            signing_keys::public_key.eq(public_key),
        ))
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    signing_keys::table
        .filter(signing_keys::retired_at.is_null())
        .first(conn)
        .await
}

/// The id of the key that signs now, if there is one.
///
/// # Errors
/// Database errors.
pub async fn active_key_id(conn: &mut AsyncPgConnection) -> QueryResult<Option<String>> {
    signing_keys::table
        .filter(signing_keys::retired_at.is_null())
        .select(signing_keys::key_id)
        .first(conn)
        .await
        .optional()
}

/// Retires the key that signs and stores `fresh` in its place.
///
/// # Errors
/// Database errors.
pub async fn rotate(conn: &mut AsyncPgConnection, fresh: (&str, &[u8], &[u8])) -> QueryResult<()> {
    let (key_id, secret, public_key) = fresh;
    conn.transaction::<_, diesel::result::Error, _>(async |conn| {
        diesel::update(signing_keys::table.filter(signing_keys::retired_at.is_null()))
            .set(signing_keys::retired_at.eq(diesel::dsl::now))
            .execute(conn)
            .await?;
        diesel::insert_into(signing_keys::table)
            .values((
                signing_keys::key_id.eq(key_id),
                signing_keys::secret.eq(secret),
                signing_keys::public_key.eq(public_key),
            ))
            .execute(conn)
            .await?;
        Ok(())
    })
    .await
}

/// Every key, newest first (a handful: one per rotation).
///
/// # Errors
/// Database errors.
pub async fn keys(conn: &mut AsyncPgConnection) -> QueryResult<Vec<StoredKey>> {
    signing_keys::table
        .order(signing_keys::created_at.desc())
        .load(conn)
        .await
}

/// Takes the log's sequencer lock for the transaction: false when another
/// process holds it (it appends this tick).
///
/// # Errors
/// Database errors.
pub async fn try_sequencer_lock(conn: &mut AsyncPgConnection) -> QueryResult<bool> {
    #[derive(QueryableByName)]
    struct Locked {
        #[diesel(sql_type = diesel::sql_types::Bool)]
        locked: bool,
    }
    let locked: Locked = diesel::sql_query("SELECT pg_try_advisory_xact_lock(727366) AS locked")
        .get_result(conn)
        .await?;
    Ok(locked.locked)
}

/// Up to `limit` games over and not yet logged, oldest end first, with the
/// hash of their last event (the partial index `games_unlogged`).
///
/// # Errors
/// Database errors.
pub async fn unlogged(
    conn: &mut AsyncPgConnection,
    limit: i64,
) -> QueryResult<Vec<(Uuid, String)>> {
    games::table
        .filter(games::finished_at.is_not_null())
        .filter(games::logged_at.is_null())
        .order((games::finished_at, games::id))
        .select((games::id, games::last_hash))
        .limit(limit)
        .load(conn)
        .await
}

/// The number of leaves in the log.
///
/// # Errors
/// Database errors.
pub async fn size(conn: &mut AsyncPgConnection) -> QueryResult<i64> {
    let last: Option<i64> = log_leaves::table
        .select(diesel::dsl::max(log_leaves::idx))
        .first(conn)
        .await?;
    Ok(last.map_or(0, |l| l + 1))
}

/// The stored complete subtrees among `wanted` (`(level, index)`).
///
/// # Errors
/// Database errors.
pub async fn nodes(
    conn: &mut AsyncPgConnection,
    wanted: &[(u32, u64)],
) -> QueryResult<Vec<(u32, u64, Vec<u8>)>> {
    #[derive(QueryableByName)]
    struct Node {
        #[diesel(sql_type = SmallInt)]
        level: i16,
        #[diesel(sql_type = BigInt)]
        idx: i64,
        #[diesel(sql_type = Bytea)]
        hash: Vec<u8>,
    }
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let levels: Vec<i16> = wanted.iter().map(|(l, _)| *l as i16).collect();
    let indexes: Vec<i64> = wanted.iter().map(|(_, i)| *i as i64).collect();
    let rows: Vec<Node> = diesel::sql_query(
        "SELECT n.level, n.idx, n.hash FROM log_nodes n
           JOIN unnest($1::int2[], $2::int8[]) AS w(level, idx)
             ON n.level = w.level AND n.idx = w.idx",
    )
    .bind::<Array<SmallInt>, _>(levels)
    .bind::<Array<BigInt>, _>(indexes)
    .load(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|n| (n.level as u32, n.idx as u64, n.hash))
        .collect())
}

/// Appends leaves `(index, game, final hash)` with the subtrees they
/// complete, and marks their games logged.
///
/// # Errors
/// Database errors (a game already logged is a unique violation).
pub async fn append(
    conn: &mut AsyncPgConnection,
    leaves: &[(i64, Uuid, Vec<u8>)],
    nodes: &[(u32, u64, [u8; 32])],
) -> QueryResult<()> {
    let rows: Vec<_> = leaves
        .iter()
        .map(|(idx, game, hash)| {
            (
                log_leaves::idx.eq(*idx),
                log_leaves::game_id.eq(*game),
                log_leaves::final_hash.eq(hash.as_slice()),
            )
        })
        .collect();
    diesel::insert_into(log_leaves::table)
        .values(rows)
        .execute(conn)
        .await?;
    for chunk in nodes.chunks(1000) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|(level, idx, hash)| {
                (
                    log_nodes::level.eq(*level as i16),
                    log_nodes::idx.eq(*idx as i64),
                    log_nodes::hash.eq(hash.as_slice()),
                )
            })
            .collect();
        diesel::insert_into(log_nodes::table)
            .values(rows)
            .execute(conn)
            .await?;
    }
    let ids: Vec<Uuid> = leaves.iter().map(|(_, g, _)| *g).collect();
    diesel::update(games::table.filter(games::id.eq_any(ids)))
        .set(games::logged_at.eq(diesel::dsl::now))
        .execute(conn)
        .await?;
    Ok(())
}

/// A signed tree head as stored.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = log_heads)]
pub struct StoredHead {
    pub tree_size: i64,
    pub root_hash: Vec<u8>,
    pub timestamp_ms: i64,
    pub key_id: String,
    pub signature: Vec<u8>,
}

/// Stores a head (once per size).
///
/// # Errors
/// Database errors.
pub async fn store_head(conn: &mut AsyncPgConnection, head: &StoredHead) -> QueryResult<()> {
    diesel::insert_into(log_heads::table)
        .values(head.clone())
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    Ok(())
}

/// The newest head.
///
/// # Errors
/// Database errors.
pub async fn latest_head(conn: &mut AsyncPgConnection) -> QueryResult<Option<StoredHead>> {
    log_heads::table
        .order(log_heads::tree_size.desc())
        .first(conn)
        .await
        .optional()
}

/// The head signed at `size` leaves.
///
/// # Errors
/// Database errors.
pub async fn head(conn: &mut AsyncPgConnection, size: i64) -> QueryResult<Option<StoredHead>> {
    log_heads::table.find(size).first(conn).await.optional()
}

/// Up to `limit` heads after `after` leaves, smallest first.
///
/// # Errors
/// Database errors.
pub async fn heads_after(
    conn: &mut AsyncPgConnection,
    after: i64,
    limit: i64,
) -> QueryResult<Vec<StoredHead>> {
    log_heads::table
        .filter(log_heads::tree_size.gt(after))
        .order(log_heads::tree_size)
        .limit(limit)
        .load(conn)
        .await
}

/// Game `id`'s leaf: its index and the final hash logged.
///
/// # Errors
/// Database errors.
pub async fn leaf_of(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> QueryResult<Option<(i64, Vec<u8>)>> {
    log_leaves::table
        .filter(log_leaves::game_id.eq(id))
        .select((log_leaves::idx, log_leaves::final_hash))
        .first(conn)
        .await
        .optional()
}
