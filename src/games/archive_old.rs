//! Archiving: the record of a game over for long enough (see `retention`)
//! moves into one compressed row of `archived_games`, its audit document as
//! it was served, compressed with zstd; its events and snapshot are then
//! deleted. Reads of an archived game (`read_archived`) answer as before.

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;

use crate::db::{self, Pool};
use crate::error::Failure;

/// The zstd level: audits compress about 8 to 1 at it, in milliseconds.
pub const LEVEL: i32 = 9;

/// Games archived by one transaction.
pub const BATCH: i64 = 20;

/// Archives up to [`BATCH`] games that were over before `before`, skipping
/// games another process is archiving; returns how many.
///
/// # Errors
/// Database errors (nothing of the batch is archived then).
pub async fn archive_due(
    pool: &Pool,
    before: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<usize, Failure> {
    let mut conn = pool.get().await?;
    conn.transaction::<_, Failure, _>(async |conn| {
        let due = db::archive::due(conn, before, BATCH).await?;
        for id in &due {
            let audit = super::audit::audit_on(conn, *id).await?;
            let json = serde_json::to_vec(&audit).map_err(Failure::internal)?;
            let compressed = zstd::encode_all(json.as_slice(), LEVEL).map_err(Failure::internal)?;
            db::archive::store(conn, *id, &compressed, json.len(), now).await?;
        }
        Ok(due.len())
    })
    .await
}
