//! The deadline worker: every server process runs one. Each tick (and once
//! at start-up, so deadlines that passed while no server ran fire at once)
//! it claims up to 16 active games whose deadline has passed, in one
//! transaction:
//!
//! ```sql
//! SELECT id FROM games WHERE status = 'active' AND deadline <= now()
//!  ORDER BY deadline LIMIT 16 FOR UPDATE SKIP LOCKED
//! ```
//!
//! so two workers never hold the same game, and appends each game's timeout
//! with the usual version-guarded statement (a player's command racing it
//! loses with `version_conflict`, or wins and moves the deadline). Every
//! seat in `to_act` times out (in a game with clocks, docs/clocks.md, only
//! the seats whose own deadline the clock says has passed; with none, the
//! step only puts the game's deadline back where the clock says):
//! `turn_timed_out` (actor: the seat, no user),
//! then autoplay or forfeit as the game's options say: a
//! [`Move::TimeOut`] through the one path of a step (`games::advance`).

use std::sync::Arc;
use std::time::Duration;

use diesel_async::AsyncConnection;
use uuid::Uuid;

use crate::db::Conn;
use crate::db::Pool;
use crate::db::games;
use crate::error::Failure;
use crate::games::advance::{Advanced, Lost, Move, Refused, advance, committed};
use crate::metrics::Metrics;
use crate::wake::Announcer;

/// The most games one tick claims.
pub const BATCH: i64 = 16;

/// Runs the worker forever: a tick now, then one every `every`; what fired
/// is announced after each tick's commit, and how late it fired counted
/// (`hatstand_deadline_lag_seconds`).
pub async fn run(pool: Pool, announcer: Announcer, metrics: Arc<Metrics>, every: Duration) {
    loop {
        match fire_due(&pool).await {
            Ok(fired) => {
                if !fired.is_empty() {
                    tracing::info!(fired = fired.len(), "deadlines fired");
                }
                for done in fired {
                    committed(&announcer, &done.advanced);
                    metrics.deadline_fired(done.lag_seconds);
                }
            }
            Err(e) => tracing::warn!(error = %e, "deadline worker failed; retrying"),
        }
        tokio::time::sleep(every).await;
    }
}

/// One tick: fires the due deadlines this worker could claim; returns how
/// many games timed out.
///
/// # Errors
/// Database errors (nothing is written then).
pub async fn tick(pool: &Pool) -> Result<usize, Failure> {
    Ok(fire_due(pool).await?.len())
}

/// A game that timed out.
struct Fired {
    advanced: Advanced,
    /// How long after its deadline it was timed out, in seconds.
    lag_seconds: f64,
}

/// Fires the due deadlines this worker could claim, in one transaction.
async fn fire_due(pool: &Pool) -> Result<Vec<Fired>, Failure> {
    let mut conn = pool.get().await?;
    conn.transaction::<_, Failure, _>(async |conn| {
        let due = games::claim_due_deadlines(conn).await?;
        let mut fired = Vec::new();
        for id in due {
            if let Some(done) = fire(conn, id).await? {
                fired.push(done);
            }
        }
        Ok(fired)
    })
    .await
}

/// Times out game `id`, which this transaction holds locked.
#[tracing::instrument(skip_all, fields(game = %id, version))]
async fn fire(conn: &mut Conn, id: Uuid) -> Result<Option<Fired>, Failure> {
    let Some(loaded) = games::load(conn, id, None, None).await? else {
        return Ok(None);
    };
    match advance(conn, &loaded, Move::TimeOut, None).await {
        Ok(Ok(advanced)) => {
            crate::games::record_version(advanced.version);
            let lag_seconds = loaded.game.deadline.map_or(0.0, |deadline| {
                (crate::record::chain::now() - deadline).as_seconds_f64()
            });
            Ok(Some(Fired {
                advanced,
                lag_seconds,
            }))
        }
        Ok(Err(Lost)) => Ok(None),
        Err(Refused::Decided(e)) => {
            // Never retry a game the engine cannot time out in a hot loop.
            tracing::error!(game = %id, error = %e, "cannot time out; clearing its deadline");
            games::clear_deadline(conn, id).await?;
            Ok(None)
        }
        Err(Refused::Stored(e)) => Err(e),
    }
}
