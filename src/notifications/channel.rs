//! The seam every delivery channel plugs into. A channel has an outbox (its
//! CTE in `db::notifications::OUTBOXES`, so each statement that writes
//! notifications queues its deliveries in the same transaction) and a
//! worker that claims due deliveries (`FOR UPDATE SKIP LOCKED`, so any
//! number of processes may run it and none delivers a row twice at once),
//! attempts them and records the outcome. The worker loop is the same for
//! every channel: deliver what is due, then sleep until woken (a commit
//! queued deliveries, here or in another process) or until the tick.

use std::sync::Arc;
use std::time::Duration;

use crate::db::Pool;
use crate::error::Failure;

/// The most deliveries one claim takes; a full batch is followed at once by
/// another.
pub const BATCH: usize = 16;

/// A way notifications leave the server.
pub trait Channel {
    /// Its name, for logs.
    const NAME: &'static str;

    /// How often the worker looks for due deliveries when nobody wakes it.
    fn every(&self) -> Duration;

    /// Claims the due deliveries, attempts them and records each outcome;
    /// returns how many were attempted.
    fn deliver_due(&self, pool: &Pool) -> impl Future<Output = Result<usize, Failure>>;
}

/// Runs `channel`'s deliveries forever.
pub async fn deliver_forever<C: Channel>(channel: C, pool: Pool, wake: Arc<tokio::sync::Notify>) {
    loop {
        match channel.deliver_due(&pool).await {
            // A full batch: there may be more due at once.
            Ok(n) if n >= BATCH => continue,
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(channel = C::NAME, error = %e, "delivery worker failed; retrying")
            }
        }
        let _ = tokio::time::timeout(channel.every(), wake.notified()).await;
    }
}
