//! Exporting finished records in bulk: JSON Lines of audit documents, one
//! game a line, oldest end first, each line verifiable on its own with
//! `hatstand verify`.
//!
//! The cursor is a time: a request with `since` gets the games that ended
//! strictly after it, so a client that keeps the `finished_at` of the last
//! line it stored asks for exactly what is new next time.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use futures_util::Stream;
use uuid::Uuid;

use crate::db::Pool;
use crate::db::games::{self, EndedCursor};
use crate::error::Failure;
use crate::transparency::keys::CurrentSigner;

/// Games read from the database at a time while exporting.
const PAGE: i64 = 100;

/// Parses an export cursor: an RFC 3339 time.
///
/// # Errors
/// `bad_request` for anything else.
pub fn parse_since(since: Option<&str>) -> Result<DateTime<Utc>, Failure> {
    match since {
        None => Ok(DateTime::<Utc>::UNIX_EPOCH),
        Some(text) => DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&Utc))
            .map_err(|e| {
                Failure::bad_request(format!(
                    "since must be an RFC 3339 time such as 2026-11-24T10:00:00.123456Z \
                     (the finished_at of the last exported line): {e}"
                ))
            }),
    }
}

/// The audits of the games that ended after `since` (of `user`'s games
/// only, when given), one JSON line each, read a page at a time.
pub fn lines(
    pool: Pool,
    signer: Arc<CurrentSigner>,
    user: Option<Uuid>,
    since: DateTime<Utc>,
) -> impl Stream<Item = Result<Vec<u8>, Failure>> {
    struct Walk {
        pool: Pool,
        signer: Arc<CurrentSigner>,
        user: Option<Uuid>,
        cursor: EndedCursor,
        page: std::vec::IntoIter<EndedCursor>,
        done: bool,
    }
    let walk = Walk {
        pool,
        signer,
        user,
        cursor: (since, Uuid::max()),
        page: Vec::new().into_iter(),
        done: false,
    };
    futures_util::stream::try_unfold(walk, |mut walk| async move {
        loop {
            if let Some((ended, id)) = walk.page.next() {
                walk.cursor = (ended, id);
                let mut conn = walk.pool.get().await?;
                let mut audit = super::audit::audit_on(&mut conn, id).await?;
                // Each line signed, with its log proof (records: #48).
                crate::transparency::seal(&mut conn, &walk.signer, &mut audit).await?;
                drop(conn);
                let mut line = serde_json::to_vec(&audit).map_err(Failure::internal)?;
                line.push(b'\n');
                return Ok(Some((line, walk)));
            }
            if walk.done {
                return Ok(None);
            }
            let mut conn = walk.pool.get().await?;
            let page = games::ended_after(&mut conn, walk.user, walk.cursor, PAGE).await?;
            walk.done = i64::try_from(page.len()).unwrap_or(0) < PAGE;
            walk.page = page.into_iter();
        }
    })
}
