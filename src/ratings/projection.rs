//! The ratings projection: finished games taken in finish order, exactly
//! once, by whichever process gets there first.
//!
//! Each batch is one transaction under a server-wide advisory lock: read the
//! cursor, read up to [`BATCH`] finished games past it (in `finish_seq`
//! order, which the database hands out in commit order), rate them, write
//! the changes, the new ratings and the new cursor. Two processes that
//! finish games at the same moment queue on the lock; the second finds the
//! first's games behind the cursor. A crash before the commit leaves the
//! batch for the next run (every process sweeps on start and every
//! [`SWEEP`]).
//!
//! Games finished before ratings existed have no number: the first batches
//! number them (oldest first, below every new number) before any newer game
//! is rated. [`rebuild`] forgets everything and runs the same batches from
//! the start: the same inputs in the same order through the same code give
//! the same numbers, to the bit.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::Notify;

use diesel_async::AsyncConnection;
use serde_json::{Value, json};
use uuid::Uuid;

use super::eligibility::{Finished, sides_to_rate};
use super::maths::{Method, Rating, rate};
use crate::db::{self, Conn, Pool};
use crate::error::Failure;
use crate::record::verify::AuditDocument;

/// Games rated by one transaction.
pub const BATCH: i64 = 500;

/// How often every process sweeps for games left behind (a crash between a
/// game's finish and its rating).
pub const SWEEP: Duration = Duration::from_secs(30);

/// Rates every finished game past the cursor. Returns how many games the
/// projection took (rated or not).
///
/// # Errors
/// Database errors; `internal` for an archive that does not decode.
pub async fn catch_up(conn: &mut Conn) -> Result<u64, Failure> {
    Ok(batches(conn, true).await?.unwrap_or(0))
}

/// Batches, each one transaction, until one is not full (it left nothing
/// behind it when it began); `None` when the ratings' lock was taken and
/// `wait` was not asked.
async fn batches(conn: &mut Conn, wait: bool) -> Result<Option<u64>, Failure> {
    let mut total = 0;
    loop {
        let taken = conn
            .transaction::<_, Failure, _>(async |conn| {
                if wait {
                    db::ratings::lock(conn).await?;
                } else if !db::ratings::try_lock(conn).await? {
                    return Ok(None);
                }
                batch(conn).await.map(Some)
            })
            .await?;
        let Some(taken) = taken else {
            return Ok(None);
        };
        total += taken;
        if taken < u64::try_from(BATCH).unwrap_or(u64::MAX) {
            return Ok(Some(total));
        }
    }
}

/// Forgets every rating and rates every finished game again.
///
/// # Errors
/// As [`catch_up`].
pub async fn rebuild(conn: &mut Conn) -> Result<u64, Failure> {
    conn.transaction::<_, Failure, _>(async |conn| {
        db::ratings::lock(conn).await?;
        db::ratings::clear(conn).await?;
        Ok(())
    })
    .await?;
    catch_up(conn).await
}

/// Rates like [`catch_up`] unless another transaction holds the ratings'
/// lock: then it returns `Ok(false)` at once, having waited for nothing.
///
/// # Errors
/// As [`catch_up`].
pub async fn try_catch_up(conn: &mut Conn) -> Result<bool, Failure> {
    Ok(batches(conn, false).await?.is_some())
}

/// Wakes this process's sweeper: a finishing command found the ratings'
/// lock taken and left its game to it.
static BEHIND: Notify = Notify::const_new();

/// Catches up on start, then every [`SWEEP`] and whenever a finishing
/// command of this process left its game behind (logging failures).
pub async fn sweep_forever(pool: Pool) {
    loop {
        match pool.get().await {
            Ok(mut conn) => {
                if let Err(e) = catch_up(&mut conn).await {
                    tracing::warn!(error = %e, "ratings: catching up failed");
                }
            }
            Err(e) => tracing::warn!(error = %e, "ratings: no connection"),
        }
        tokio::select! {
            () = tokio::time::sleep(SWEEP) => {}
            () = BEHIND.notified() => {}
        }
    }
}

/// Whether a finishing command rates its game before it answers: always,
/// but in `hatstand bench --ratings`, which turns it off in its own
/// process to measure a finish without the rating step (the bench then
/// rates those games itself, and the sweep would).
static RATE_ON_FINISH: AtomicBool = AtomicBool::new(true);

/// Turns the rating step of finishing commands on or off in this process
/// (see [`RATE_ON_FINISH`]: for the bench only).
pub fn rate_on_finish(on: bool) {
    RATE_ON_FINISH.store(on, Ordering::Relaxed);
}

/// After a game finished (its append committed): rate it now, and whatever
/// else is waiting, when no other transaction is rating; else leave it to
/// this process's sweeper, woken at once, so that finishing commands never
/// queue on the ratings' lock (under load that queue was the slowest
/// hundredth of all commands). The batch running meanwhile may take the
/// game already; the sweeper then finds nothing to do. A failure is logged,
/// not returned: the game is over either way, and the next sweep rates it.
pub async fn after_finish(conn: &mut Conn) {
    if !RATE_ON_FINISH.load(Ordering::Relaxed) {
        return;
    }
    match try_catch_up(conn).await {
        Ok(true) => {}
        Ok(false) => BEHIND.notify_one(),
        Err(e) => tracing::warn!(error = %e, "ratings: rating a finished game failed"),
    }
}

/// One batch, under the ratings' lock the caller's transaction holds.
/// Returns the games taken (and numbered).
async fn batch(conn: &mut Conn) -> Result<u64, Failure> {
    // Unnumbered games (finished before ratings existed) come first: newer
    // games wait until every older one has its number. Once they are all
    // numbered this reads an empty partial index.
    let numbered = db::ratings::number_legacy(conn, BATCH).await?;
    let up_to = if numbered < BATCH { i64::MAX } else { -1 };
    let cursor = db::ratings::cursor(conn).await?;
    let pending = db::ratings::pending(conn, cursor, up_to, BATCH).await?;
    let Some(last) = pending.last().map(|p| p.finish_seq) else {
        return Ok(u64::try_from(numbered).unwrap_or(0));
    };
    let mut users: Vec<Uuid> = Vec::new();
    let mut games = Vec::with_capacity(pending.len());
    for row in pending {
        let game = finished(conn, row).await?;
        users.extend(game.0.seats.iter().map(|(u, _)| *u));
        games.push(game);
    }
    users.sort_unstable();
    users.dedup();
    let mut book = Book::default();
    for stored in db::ratings::of_users(conn, &users).await? {
        book.ratings.insert(
            (stored.user_id, stored.ruleset.clone(), stored.players),
            (
                Rating {
                    rating: stored.rating,
                    deviation: stored.deviation,
                    volatility: stored.volatility,
                },
                stored.games,
            ),
        );
    }
    let taken = games.len();
    for (game, seq) in &games {
        book.take(game, *seq);
    }
    let changes = serde_json::to_string(&book.changes).map_err(Failure::internal)?;
    let ratings = serde_json::to_string(&book.touched_rows()).map_err(Failure::internal)?;
    db::ratings::write(conn, &changes, &ratings, last).await?;
    Ok(u64::try_from(taken).unwrap_or(0) + u64::try_from(numbered).unwrap_or(0))
}

/// A pending row as the rules read it, with its finish number.
async fn finished(conn: &mut Conn, row: db::ratings::Pending) -> Result<(Finished, i64), Failure> {
    let seats = row
        .seats
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .filter_map(|s| {
                    let user = s.get(0)?.as_str()?.parse().ok()?;
                    Some((user, s.get(1)?.as_bool()?))
                })
                .collect()
        })
        .unwrap_or_default();
    let left = row
        .changed_hands
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .filter_map(|s| u8::try_from(s.as_u64()?).ok())
                .collect()
        })
        .unwrap_or_default();
    let result = row.result.unwrap_or(Value::Null);
    let forfeit = result.get("outcome").and_then(Value::as_str) == Some("forfeit");
    let moved = match row.moved {
        Some(moved) => Some(moved),
        None if forfeit && row.archived => {
            let compressed = db::archive::audit(conn, row.id).await?.ok_or_else(|| {
                Failure::internal(format!("archived game {} has no archive row", row.id))
            })?;
            let audit = AuditDocument::from_archive(&compressed)?;
            Some(audit.events.iter().any(|e| {
                e.command.is_some() && e.actor.as_ref().is_some_and(|a| a.user_id.is_some())
            }))
        }
        None => None,
    };
    Ok((
        Finished {
            id: row.id,
            ruleset: row.ruleset,
            players: row.players,
            private: row.private,
            server_options: row.server_options,
            result,
            seats,
            moved,
            left,
        },
        row.finish_seq,
    ))
}

type Pool_ = (Uuid, String, i16);

/// The batch's ratings as they move, and the changes it records.
#[derive(Default)]
struct Book {
    ratings: HashMap<Pool_, (Rating, i32)>,
    touched: Vec<(Pool_, i64)>,
    changes: Vec<Value>,
}

impl Book {
    fn take(&mut self, game: &Finished, seq: i64) {
        let Ok(sides) = sides_to_rate(game) else {
            return;
        };
        let method = Method::of(usize::try_from(game.players).unwrap_or(0));
        let key = |seat: u8| -> Option<Pool_> {
            let (user, _) = game.seats.get(usize::from(seat))?;
            Some((*user, game.ruleset.clone(), game.players))
        };
        let Some(keys) = sides
            .iter()
            .map(|side| {
                side.seats
                    .iter()
                    .map(|s| key(*s))
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<Vec<_>>>()
        else {
            return;
        };
        let before: Vec<(Vec<Rating>, u16)> = keys
            .iter()
            .zip(&sides)
            .map(|(keys, side)| {
                (
                    keys.iter()
                        .map(|k| self.ratings.get(k).map_or(method.start(), |r| r.0))
                        .collect(),
                    side.place,
                )
            })
            .collect();
        let after = rate(method, &before);
        for (((keys, side), (old, _)), new) in keys.iter().zip(&sides).zip(&before).zip(&after) {
            for (((k, seat), old), new) in keys.iter().zip(&side.seats).zip(old).zip(new) {
                self.changes.push(json!({
                    "game_id": game.id,
                    "seat": seat,
                    "user_id": k.0,
                    "finish_seq": seq,
                    "ruleset": game.ruleset,
                    "players": game.players,
                    "place": side.place,
                    "rating_before": old.rating,
                    "deviation_before": old.deviation,
                    "volatility_before": old.volatility,
                    "rating_after": new.rating,
                    "deviation_after": new.deviation,
                    "volatility_after": new.volatility,
                }));
                let games = self.ratings.get(k).map_or(0, |r| r.1) + 1;
                self.ratings.insert(k.clone(), (*new, games));
                self.touched.push((k.clone(), seq));
            }
        }
    }

    /// One row a pool touched, as it stands at the end of the batch.
    fn touched_rows(&self) -> Vec<Value> {
        let mut last: HashMap<&Pool_, i64> = HashMap::new();
        for (k, seq) in &self.touched {
            last.insert(k, *seq);
        }
        let mut rows: Vec<(&Pool_, i64)> = last.into_iter().collect();
        rows.sort_by(|a, b| a.0.cmp(b.0));
        rows.into_iter()
            .filter_map(|(k, seq)| {
                let (r, games) = self.ratings.get(k)?;
                Some(json!({
                    "user_id": k.0,
                    "ruleset": k.1,
                    "players": k.2,
                    "rating": r.rating,
                    "deviation": r.deviation,
                    "volatility": r.volatility,
                    "games": games,
                    "last_seq": seq,
                }))
            })
            .collect()
    }
}
