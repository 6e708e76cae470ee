//! Whether this process can serve: the database answers now, and what its
//! settings leave undone that the server needs (autovacuum off, for the
//! server or for one of its tables: still ready, but the operator has work
//! to do; docs/performance.md).

use std::time::Duration;

use crate::db::Pool;
use crate::error::Failure;

/// The database answers within `within`; what its maintenance settings
/// leave undone. The statement that proves it answers also reads those
/// settings: one round trip. A caller asking (a load balancer) must not
/// wait on a hung database, so the check gives up after `within`.
///
/// # Errors
/// `unavailable` when the database does not answer in time.
pub async fn ready(pool: &Pool, within: Duration) -> Result<Vec<String>, Failure> {
    let check = async {
        let unavailable = |e: &dyn std::fmt::Display| {
            Failure::unavailable(format!("the database does not answer: {e}"))
        };
        let mut conn = pool.get().await.map_err(|e| unavailable(&e))?;
        crate::db::maintenance_warnings(&mut conn)
            .await
            .map_err(|e| unavailable(&e))
    };
    tokio::time::timeout(within, check)
        .await
        .map_err(|_| Failure::unavailable("the database did not answer within a second"))?
}
