//! The limits' counters in PostgreSQL (`limit_windows`), shared by every
//! server process, and the addresses accounts sign in from.
//!
//! A use is *reserved* before the work it pays for: the keys' rows are
//! locked (in key order, so two reservations never wait on each other in a
//! circle), every key's [`Rule`] is asked, and only when all admit the use
//! is it counted in all of them. Concurrent requests for one key queue on
//! its row, so a burst cannot slip under a limit by being checked before
//! any of it was counted. A refused reservation writes nothing.

use chrono::{DateTime, TimeDelta, Utc};
use diesel::sql_types::{Array, BigInt, Int4, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use crate::rate::{Rule, Window};

#[derive(diesel::QueryableByName)]
struct Row {
    #[diesel(sql_type = Text)]
    key: String,
    #[diesel(sql_type = Timestamptz)]
    window_start: DateTime<Utc>,
    #[diesel(sql_type = Int4)]
    used: i32,
    #[diesel(sql_type = Timestamptz)]
    last_at: DateTime<Utc>,
}

/// Why a reservation did not happen.
enum NotReserved {
    Db(diesel::result::Error),
    /// The keys over their limits, each with the time from which it would
    /// admit the use.
    Over(Vec<(String, DateTime<Utc>)>),
}

impl From<diesel::result::Error> for NotReserved {
    fn from(e: diesel::result::Error) -> Self {
        NotReserved::Db(e)
    }
}

/// Locks the rows of `keys` (created empty when missing), in key order,
/// for the rest of the transaction.
async fn lock(
    conn: &mut AsyncPgConnection,
    keys: &[&str],
    now: DateTime<Utc>,
) -> diesel::QueryResult<Vec<Row>> {
    crate::db::prepared::Prepared(
        diesel::sql_query(
            "INSERT INTO limit_windows (key, window_start, used, last_at)
         SELECT k, $2, 0, $2 FROM unnest($1::text[]) AS k ORDER BY k
         ON CONFLICT (key) DO NOTHING",
        )
        .bind::<Array<Text>, _>(keys)
        .bind::<Timestamptz, _>(now),
    )
    .execute(conn)
    .await?;
    crate::db::prepared::Prepared(
        diesel::sql_query(
            "SELECT key, window_start, used, last_at FROM limit_windows
          WHERE key = ANY($1) ORDER BY key FOR UPDATE",
        )
        .bind::<Array<Text>, _>(keys),
    )
    .load(conn)
    .await
}

/// Writes `windows` back.
async fn store(
    conn: &mut AsyncPgConnection,
    windows: &[(String, Window)],
) -> diesel::QueryResult<()> {
    let keys: Vec<&str> = windows.iter().map(|(k, _)| k.as_str()).collect();
    let starts: Vec<DateTime<Utc>> = windows.iter().map(|(_, w)| w.start).collect();
    let used: Vec<i32> = windows.iter().map(|(_, w)| w.used).collect();
    let lasts: Vec<DateTime<Utc>> = windows.iter().map(|(_, w)| w.last).collect();
    crate::db::prepared::Prepared(
        diesel::sql_query(
            "UPDATE limit_windows AS l SET window_start = u.s, used = u.n, last_at = u.t
           FROM unnest($1::text[], $2::timestamptz[], $3::int4[], $4::timestamptz[])
                AS u(k, s, n, t)
          WHERE l.key = u.k",
        )
        .bind::<Array<Text>, _>(&keys)
        .bind::<Array<Timestamptz>, _>(&starts)
        .bind::<Array<Int4>, _>(&used)
        .bind::<Array<Timestamptz>, _>(&lasts),
    )
    .execute(conn)
    .await
    .map(|_| ())
}

/// Reserves one use of every key under its rule, all or none, atomically
/// across processes. Inside a caller's transaction, the rows stay locked
/// until it ends (so what it counts next, it counts alone for these keys),
/// even for a rule that limits nothing.
///
/// Answers `Ok(None)` when reserved, `Ok(Some(when))` when some key is
/// over its limit until `when` (nothing is written then).
///
/// # Errors
/// Database errors.
pub async fn reserve(
    conn: &mut AsyncPgConnection,
    keys: &[(String, Rule)],
    now: DateTime<Utc>,
) -> diesel::QueryResult<Option<DateTime<Utc>>> {
    Ok(reserve_naming(conn, keys, now)
        .await?
        .into_iter()
        .map(|(_, until)| until)
        .max())
}

/// [`reserve`], naming the keys over their limits when it refuses, each
/// with the time from which it would admit the use (empty: reserved).
///
/// # Errors
/// Database errors.
pub async fn reserve_naming(
    conn: &mut AsyncPgConnection,
    keys: &[(String, Rule)],
    now: DateTime<Utc>,
) -> diesel::QueryResult<Vec<(String, DateTime<Utc>)>> {
    let mut keys: Vec<&(String, Rule)> = keys.iter().collect();
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    keys.dedup_by(|a, b| a.0 == b.0);
    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    let outcome = conn
        .transaction::<_, NotReserved, _>(async |conn| {
            let rows = lock(conn, &names, now).await?;
            let mut next = Vec::with_capacity(keys.len());
            let mut over = Vec::new();
            for (key, rule) in &keys {
                let window = rows.iter().find(|r| r.key == *key).map_or_else(
                    || Window::empty(now),
                    |r| Window {
                        start: r.window_start,
                        used: r.used,
                        last: r.last_at,
                    },
                );
                match rule.admit(window, now) {
                    Ok(window) => next.push((key.clone(), window)),
                    Err(from) => over.push((key.clone(), from)),
                }
            }
            if !over.is_empty() {
                return Err(NotReserved::Over(over));
            }
            store(conn, &next).await?;
            Ok(())
        })
        .await;
    match outcome {
        Ok(()) => Ok(Vec::new()),
        Err(NotReserved::Over(over)) => Ok(over),
        Err(NotReserved::Db(e)) => Err(e),
    }
}

/// Gives back one use of each of `keys` (a login that succeeded: only
/// failures count).
///
/// # Errors
/// Database errors.
pub async fn release(conn: &mut AsyncPgConnection, keys: &[&str]) -> diesel::QueryResult<()> {
    diesel::sql_query("UPDATE limit_windows SET used = greatest(used - 1, 0) WHERE key = ANY($1)")
        .bind::<Array<Text>, _>(keys)
        .execute(conn)
        .await
        .map(|_| ())
}

/// Forgets the uses of `key`.
///
/// # Errors
/// Database errors.
pub async fn clear(conn: &mut AsyncPgConnection, key: &str) -> diesel::QueryResult<()> {
    diesel::sql_query("DELETE FROM limit_windows WHERE key = $1")
        .bind::<Text, _>(key)
        .execute(conn)
        .await
        .map(|_| ())
}

/// How long an address stays one the account signs in from.
pub const USUAL_FOR: TimeDelta = TimeDelta::days(90);

/// Whether `user` signed in from `address` in the last [`USUAL_FOR`].
///
/// # Errors
/// Database errors.
pub async fn is_usual_address(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    address: &str,
    now: DateTime<Utc>,
) -> diesel::QueryResult<bool> {
    #[derive(diesel::QueryableByName)]
    struct Found {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let found: Found = diesel::sql_query(
        "SELECT count(*) AS n FROM login_addresses
          WHERE user_id = $1 AND address = $2 AND last_login > $3",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<Text, _>(address)
    .bind::<Timestamptz, _>(now - USUAL_FOR)
    .get_result(conn)
    .await?;
    Ok(found.n > 0)
}

/// Notes that `user` signed in from `address` at `now`.
///
/// # Errors
/// Database errors.
pub async fn signed_in_from(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    address: &str,
    now: DateTime<Utc>,
) -> diesel::QueryResult<()> {
    diesel::sql_query(
        "INSERT INTO login_addresses (user_id, address, last_login) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, address) DO UPDATE SET last_login = EXCLUDED.last_login",
    )
    .bind::<SqlUuid, _>(user)
    .bind::<Text, _>(address)
    .bind::<Timestamptz, _>(now)
    .execute(conn)
    .await
    .map(|_| ())
}

/// The prefix of the keys that mark a reply token answered: kept as long as
/// such a token lives.
pub const REPLY_PREFIX: &str = "reply:";

/// Deletes counters untouched for `idle` (reply tokens' once they have
/// expired: `reply_ttl` and a day after their use) and sign-in addresses older than [`USUAL_FOR`]; returns how
/// many rows went.
///
/// # Errors
/// Database errors.
pub async fn prune(
    conn: &mut AsyncPgConnection,
    idle: TimeDelta,
    reply_ttl: TimeDelta,
    now: DateTime<Utc>,
) -> diesel::QueryResult<usize> {
    let windows = diesel::sql_query(
        "DELETE FROM limit_windows
          WHERE greatest(window_start, last_at)
                < CASE WHEN starts_with(key, $3) THEN $2 ELSE $1 END",
    )
    .bind::<Timestamptz, _>(now - idle)
    .bind::<Timestamptz, _>(now - reply_ttl - TimeDelta::days(1))
    .bind::<Text, _>(REPLY_PREFIX)
    .execute(conn)
    .await?;
    let addresses = diesel::sql_query("DELETE FROM login_addresses WHERE last_login < $1")
        .bind::<Timestamptz, _>(now - USUAL_FOR)
        .execute(conn)
        .await?;
    Ok(windows + addresses)
}

/// The open or active games `user` created: all of them, those with bots
/// seated and no human, and the seats of bots at `strong_level` in them.
///
/// # Errors
/// Database errors.
pub async fn games_at_once(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    strong_level: &str,
) -> diesel::QueryResult<(i64, i64, i64)> {
    #[derive(diesel::QueryableByName)]
    struct Counts {
        #[diesel(sql_type = BigInt)]
        games: i64,
        #[diesel(sql_type = BigInt)]
        bots_only: i64,
        #[diesel(sql_type = BigInt)]
        strong: i64,
    }
    let counts: Counts = crate::db::prepared::Prepared(
        diesel::sql_query(
            "SELECT count(*) AS games,
                count(*) FILTER (WHERE g.humans = 0 AND g.bots > 0) AS bots_only,
                coalesce(sum(g.strong), 0)::int8 AS strong
           FROM (SELECT (SELECT count(*) FROM seats s JOIN users u ON u.id = s.user_id
                          WHERE s.game_id = games.id AND u.kind = 'human') AS humans,
                        (SELECT count(*) FROM seats s JOIN users u ON u.id = s.user_id
                          WHERE s.game_id = games.id AND u.kind = 'bot') AS bots,
                        (SELECT count(*) FROM seats s JOIN users u ON u.id = s.user_id
                          WHERE s.game_id = games.id AND u.bot_level = $2) AS strong
                   FROM games
                  WHERE created_by = $1 AND status IN ('open', 'active')) AS g",
        )
        .bind::<SqlUuid, _>(user)
        .bind::<Text, _>(strong_level),
    )
    .get_result(conn)
    .await?;
    Ok((counts.games, counts.bots_only, counts.strong))
}
