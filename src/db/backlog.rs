//! An outbox's backlog (webhook deliveries, mail): what `/metrics` shows.

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Double};

/// An outbox's backlog: what `/metrics` shows of it.
#[derive(Debug, Clone, Copy, QueryableByName)]
pub struct Backlog {
    /// Deliveries pending (due now, leased, or set for a retry).
    #[diesel(sql_type = BigInt)]
    pub pending: i64,
    /// How long the longest-due pending delivery has been due, in seconds
    /// (0 when none is due yet).
    #[diesel(sql_type = Double)]
    pub oldest_due_seconds: f64,
}
