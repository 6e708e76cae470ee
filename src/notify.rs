//! Waking long polls and streams when a game changes or a user is notified,
//! across server processes.
//!
//! Every append notifies the PostgreSQL channel `hatstand_games` with
//! `"<game id> <version>"` as part of its statement (delivered on commit).
//! Each process keeps one connection listening on that channel and wakes the
//! requests waiting on that game. If the listener is down, waiting requests
//! still end when their `wait` runs out, and it reconnects by itself.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use futures_util::StreamExt;
use tokio::sync::watch;
use uuid::Uuid;

/// The PostgreSQL channel games are announced on.
pub const CHANNEL: &str = "hatstand_games";
/// The channel new notifications are announced on (`"<user id> <notification id>"`,
/// by a trigger on `notifications`).
pub const USER_CHANNEL: &str = "hatstand_users";

/// What the listener wakes.
#[derive(Debug, Clone, Default)]
pub struct Listeners {
    /// Long polls and streams of games.
    pub games: Arc<GameWatch>,
    /// Streams of users' notifications (keyed by user id, valued by notification id).
    pub users: Arc<GameWatch>,
    /// The webhook worker: a notification may have deliveries due.
    pub outbox: Arc<tokio::sync::Notify>,
}

/// The latest known version of each game someone is waiting on.
#[derive(Debug, Default)]
pub struct GameWatch {
    games: Mutex<HashMap<Uuid, watch::Sender<i64>>>,
}

impl GameWatch {
    /// A receiver that changes when `game` gets a new version.
    pub fn subscribe(&self, game: Uuid) -> watch::Receiver<i64> {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if games.len() > 1024 {
            games.retain(|_, tx| tx.receiver_count() > 0);
        }
        games
            .entry(game)
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    /// Records that `game` reached `version`, waking its waiters.
    pub fn publish(&self, game: Uuid, version: i64) {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = games.get(&game) {
            if tx.receiver_count() == 0 {
                games.remove(&game);
            } else {
                tx.send_replace(version);
            }
        }
    }
}

/// Listens on [`CHANNEL`] and [`USER_CHANNEL`] forever, reconnecting after failures.
pub async fn listen(url: String, watch: Listeners) {
    loop {
        match listen_once(&url, &watch).await {
            Ok(()) => tracing::warn!("the notification connection closed; reconnecting"),
            Err(e) => tracing::warn!(error = %e, "notification listener failed; reconnecting"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

async fn listen_once(url: &str, watch: &Listeners) -> Result<(), String> {
    let mut conn = AsyncPgConnection::establish(url)
        .await
        .map_err(|e| e.to_string())?;
    conn.batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {USER_CHANNEL}"))
        .await
        .map_err(|e| e.to_string())?;
    let mut stream = std::pin::pin!(conn.notifications_stream());
    while let Some(note) = stream.next().await {
        let note = note.map_err(|e| e.to_string())?;
        let target = if note.channel == USER_CHANNEL {
            watch.outbox.notify_one();
            &watch.users
        } else {
            &watch.games
        };
        if let Some((key, version)) = note.payload.split_once(' ')
            && let (Ok(key), Ok(version)) = (key.parse(), version.parse())
        {
            target.publish(key, version);
        }
    }
    Ok(())
}
