//! Waking long polls and streams when a game changes or a user is notified,
//! across server processes.
//!
//! After a transaction that moved a game (or notified users) commits, the
//! process that wrote it wakes its own waiters at once and hands
//! `"<game id> <version>"` (and `"<user id> <notification id>"`, followed
//! by ` w` when it queued webhook deliveries) to its
//! [`Announcer`], which sends what accumulated as NOTIFYs on the PostgreSQL
//! channels `hatstand_games` (and `hatstand_users`) in one statement. Each
//! process keeps one connection listening on both channels and wakes the
//! requests and streams waiting on that game or user, and its webhook worker.
//!
//! The NOTIFY is deliberately not part of the command's own transaction:
//! PostgreSQL holds a database-wide lock from a notifying transaction's
//! NOTIFY to the end of its commit (WAL flush included), so notifying inside
//! every command serialized all commits of all games (measured: 450
//! commands/s with it, see the README's Performance section). The price: if a
//! process dies between its commit and its announcement, waiters in *other*
//! processes learn of that version only when their `wait` runs out or the
//! next change of the game is announced. If the listener is down, waiting
//! requests still end when their `wait` runs out, and it reconnects by itself.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use uuid::Uuid;

use crate::db::notifications::Noted;
use crate::db::{Pool, listen};

/// The PostgreSQL channel games are announced on.
pub const CHANNEL: &str = "hatstand_games";
/// The channel new notifications are announced on (`"<user id> <notification id>"`).
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
    /// The mail worker: a mail may be due.
    pub mail: Arc<tokio::sync::Notify>,
    /// The bot worker: some game changed (a bot may be to act).
    pub turns: Arc<tokio::sync::Notify>,
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

/// Tells waiters in every process, after the commit that made it so, that a
/// game reached a version or that a user has a new notification.
#[derive(Clone, Debug)]
pub struct Announcer {
    local: Listeners,
    outbox: mpsc::UnboundedSender<(&'static str, String)>,
}

impl Announcer {
    /// An announcer waking this process's `local` listeners at once and
    /// sending NOTIFYs through `pool` from a background task.
    #[must_use]
    pub fn start(pool: Pool, local: &Listeners) -> Self {
        Self::start_joinable(pool, local).0
    }

    /// [`Announcer::start`], with the task sending the NOTIFYs: it ends
    /// once every clone of the announcer is dropped and all is sent.
    #[must_use]
    pub fn start_joinable(pool: Pool, local: &Listeners) -> (Self, tokio::task::JoinHandle<()>) {
        let (outbox, pending) = mpsc::unbounded_channel();
        let sending = tokio::spawn(send_notifications(pool, pending));
        let announcer = Announcer {
            local: local.clone(),
            outbox,
        };
        (announcer, sending)
    }

    /// Announces that `game` reached `version` (call after the commit).
    pub fn announce(&self, game: Uuid, version: i64) {
        self.local.games.publish(game, version);
        // Only fails when the sending task is gone (the runtime is stopping).
        let _ = self.outbox.send((CHANNEL, format!("{game} {version}")));
    }

    /// Announces notifications written by a committed transaction: wakes
    /// the users' streams here and in every other process, and, when any of
    /// them queued deliveries (webhooks, mail), the delivery workers (the
    /// payload then ends in ` w`).
    pub fn tell(&self, told: &[Noted]) {
        let mut deliveries = false;
        for &(user, id, queued) in told {
            self.local.users.publish(user, id);
            let payload = if queued {
                format!("{user} {id} w")
            } else {
                format!("{user} {id}")
            };
            let _ = self.outbox.send((USER_CHANNEL, payload));
            deliveries |= queued;
        }
        if deliveries {
            self.local.outbox.notify_one();
            self.local.mail.notify_one();
        }
    }

    /// Wakes the mail workers here and in every other process: a committed
    /// transaction queued a mail that no notification caused (a reply to a
    /// move by mail). The payload `- - w` names no user.
    pub fn queued_mail(&self) {
        self.local.mail.notify_one();
        let _ = self.outbox.send((USER_CHANNEL, "- - w".to_owned()));
    }
}

/// Sends the announcements as NOTIFYs, as many as have accumulated per
/// statement (at most 1,000), until the announcer is dropped.
async fn send_notifications(
    pool: Pool,
    mut pending: mpsc::UnboundedReceiver<(&'static str, String)>,
) {
    let mut batch = Vec::new();
    while pending.recv_many(&mut batch, 1000).await > 0 {
        let (channels, payloads): (Vec<&str>, Vec<String>) = batch.drain(..).unzip();
        if let Err(e) = listen::notify_all(&pool, &channels, &payloads).await {
            tracing::warn!(error = %e, lost = payloads.len(), "could not notify other processes");
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
    listen::listen(url, &[CHANNEL, USER_CHANNEL], |channel, payload| {
        let mut words = payload.split(' ');
        let target = if channel == USER_CHANNEL {
            &watch.users
        } else {
            watch.turns.notify_one();
            &watch.games
        };
        if let (Some(key), Some(version)) = (words.next(), words.next())
            && let (Ok(key), Ok(version)) = (key.parse(), version.parse())
        {
            target.publish(key, version);
        }
        if words.next() == Some("w") {
            watch.outbox.notify_one();
            watch.mail.notify_one();
        }
    })
    .await
}
