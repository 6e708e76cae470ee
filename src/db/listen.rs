//! PostgreSQL's LISTEN/NOTIFY, as the wake-ups use it: NOTIFY many payloads
//! in one statement, and a connection that listens on channels.

use diesel::sql_types::{Array, Text};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use futures_util::StreamExt;

use super::Pool;
use super::prepared::Prepared;

/// Sends `payloads[i]` on `channels[i]`, all in one statement.
///
/// # Errors
/// What went wrong, as text (the caller logs it).
pub async fn notify_all(pool: &Pool, channels: &[&str], payloads: &[String]) -> Result<(), String> {
    let mut conn = pool.get().await.map_err(|e| e.to_string())?;
    Prepared(
        diesel::sql_query("SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS x(c, p)")
            .bind::<Array<Text>, _>(channels)
            .bind::<Array<Text>, _>(payloads),
    )
    .execute(&mut conn)
    .await
    .map(|_| ())
    .map_err(|e| e.to_string())
}

/// Opens a connection to `url`, listens on `channels` and hands each
/// notification's channel and payload to `heard`, until the connection
/// closes.
///
/// # Errors
/// What went wrong, as text (the caller reconnects).
pub async fn listen(
    url: &str,
    channels: &[&str],
    mut heard: impl FnMut(&str, &str),
) -> Result<(), String> {
    let mut conn = AsyncPgConnection::establish(url)
        .await
        .map_err(|e| e.to_string())?;
    let statements: Vec<String> = channels.iter().map(|c| format!("LISTEN {c};")).collect();
    conn.batch_execute(&statements.join(" "))
        .await
        .map_err(|e| e.to_string())?;
    let mut stream = std::pin::pin!(conn.notifications_stream());
    while let Some(note) = stream.next().await {
        let note = note.map_err(|e| e.to_string())?;
        heard(&note.channel, &note.payload);
    }
    Ok(())
}
