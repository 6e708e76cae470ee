//! Waking long polls and streams when a game changes or a user is notified,
//! across server processes.
//!
//! After a transaction that moved a game (or notified users) commits, the
//! process that wrote it wakes its own waiters at once and hands a line
//! `"<game id> <version>"` (followed by ` b` when a bot sits at the game) or
//! `"<user id> <notification id>"` (followed by ` w` when it queued
//! deliveries) to its [`Announcer`]. The announcer sends what accumulated in
//! one statement: per channel (`hatstand_games`, `hatstand_users`) the lines
//! joined by newlines into as few NOTIFY payloads as fit PostgreSQL's limit,
//! each headed by the sending process's tag. Each process keeps one
//! connection listening on both channels and, for every payload another
//! process sent, wakes the requests and streams waiting on those games or
//! users, its delivery workers (` w`) and its bot worker (` b`). Its own
//! payloads it skips: it woke its own waiters before sending them. (Under
//! load a payload carries dozens of lines: PostgreSQL, the listener and the
//! client library then handle one message instead of dozens.)
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
#[derive(Debug, Clone)]
pub struct Listeners {
    /// Long polls and streams of games.
    pub games: Arc<GameWatch>,
    /// Streams of users' notifications (keyed by user id, valued by notification id).
    pub users: Arc<GameWatch>,
    /// The webhook worker: a notification may have deliveries due.
    pub outbox: Arc<tokio::sync::Notify>,
    /// The mail worker: a mail may be due.
    pub mail: Arc<tokio::sync::Notify>,
    /// The bot worker: a game with a bot seated changed (a bot may be to act).
    pub turns: Arc<tokio::sync::Notify>,
    /// This process's tag, heading the payloads it sends (so that its
    /// listener skips them).
    pub tag: Arc<str>,
}

impl Default for Listeners {
    fn default() -> Self {
        Self {
            games: Arc::default(),
            users: Arc::default(),
            outbox: Arc::default(),
            mail: Arc::default(),
            turns: Arc::default(),
            tag: format!("@{}", Uuid::new_v4().simple()).into(),
        }
    }
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
        let sending = tokio::spawn(send_notifications(pool, pending, Arc::clone(&local.tag)));
        let announcer = Announcer {
            local: local.clone(),
            outbox,
        };
        (announcer, sending)
    }

    /// Announces that `game` reached `version` (call after the commit);
    /// `bots`: a bot sits at the game, so the bot workers look for turns.
    pub fn announce(&self, game: Uuid, version: i64, bots: bool) {
        self.local.games.publish(game, version);
        if bots {
            self.local.turns.notify_one();
        }
        let line = if bots {
            format!("{game} {version} b")
        } else {
            format!("{game} {version}")
        };
        // Only fails when the sending task is gone (the runtime is stopping).
        let _ = self.outbox.send((CHANNEL, line));
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

/// The longest NOTIFY payload sent (PostgreSQL refuses 8,000 bytes and more).
const MAX_PAYLOAD: usize = 7_900;

/// How long the first announcement of a batch waits for others to join it
/// (each batch is one statement, and each payload one message to every
/// listening process): other processes' waiters hear this much later.
const GATHER: Duration = Duration::from_millis(2);

/// Sends the announcements as NOTIFYs, as many as accumulate within
/// [`GATHER`] per statement (at most 1,000 lines), until the announcer is
/// dropped.
async fn send_notifications(
    pool: Pool,
    mut pending: mpsc::UnboundedReceiver<(&'static str, String)>,
    tag: Arc<str>,
) {
    let mut batch = Vec::new();
    while pending.recv_many(&mut batch, 1000).await > 0 {
        tokio::time::sleep(GATHER).await;
        while batch.len() < 1000
            && let Ok(line) = pending.try_recv()
        {
            batch.push(line);
        }
        let (channels, payloads) = payloads(&tag, &batch);
        batch.clear();
        if let Err(e) = listen::notify_all(&pool, &channels, &payloads).await {
            tracing::warn!(error = %e, lost = payloads.len(), "could not notify other processes");
        }
    }
}

/// The NOTIFYs for `lines` (channel, line): per channel, the lines in order,
/// joined by newlines under the heading `tag`, a new payload whenever one
/// would grow past [`MAX_PAYLOAD`].
fn payloads(tag: &str, lines: &[(&'static str, String)]) -> (Vec<&'static str>, Vec<String>) {
    let mut channels = Vec::new();
    let mut payloads: Vec<String> = Vec::new();
    for channel in [CHANNEL, USER_CHANNEL] {
        let mut open = false;
        for (_, line) in lines.iter().filter(|(c, _)| *c == channel) {
            let last = payloads
                .last_mut()
                .filter(|p| open && p.len() + 1 + line.len() <= MAX_PAYLOAD);
            if let Some(payload) = last {
                payload.push('\n');
                payload.push_str(line);
            } else {
                channels.push(channel);
                payloads.push(format!("{tag}\n{line}"));
                open = true;
            }
        }
    }
    (channels, payloads)
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
        heard(watch, channel, payload);
    })
    .await
}

/// Wakes what a payload heard on `channel` names, unless this process sent it.
fn heard(watch: &Listeners, channel: &str, payload: &str) {
    let mut lines = payload.split('\n').peekable();
    // The header line, if any, names the sending process.
    if lines.next_if(|first| first.starts_with('@')) == Some(&*watch.tag) {
        return;
    }
    let users = channel == USER_CHANNEL;
    let target = if users { &watch.users } else { &watch.games };
    let (mut bots, mut deliveries) = (false, false);
    for line in lines {
        let mut words = line.split(' ');
        if let (Some(key), Some(version)) = (words.next(), words.next())
            && let (Ok(key), Ok(version)) = (key.parse(), version.parse())
        {
            target.publish(key, version);
        }
        match words.next() {
            Some("w") if users => deliveries = true,
            Some("b") if !users => bots = true,
            _ => {}
        }
    }
    if bots {
        watch.turns.notify_one();
    }
    if deliveries {
        watch.outbox.notify_one();
        watch.mail.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_joined_per_channel_under_the_tag_and_split_at_the_limit() {
        // Given lines for both channels, more than fit in one payload
        let game = |i: usize| (CHANNEL, format!("{} {i}", Uuid::nil()));
        let mut lines: Vec<_> = (0..300).map(game).collect();
        lines.insert(1, (USER_CHANNEL, format!("{} 7 w", Uuid::nil())));
        // When they are made into payloads
        let (channels, payloads) = payloads("@me", &lines);
        // Then each channel's lines come in order, in payloads under the limit
        assert_eq!(channels, [CHANNEL, CHANNEL, USER_CHANNEL]);
        assert!(
            payloads
                .iter()
                .all(|p| p.len() <= MAX_PAYLOAD && p.starts_with("@me\n"))
        );
        let games: Vec<&str> = payloads[..2]
            .iter()
            .flat_map(|p| p.lines().skip(1))
            .collect();
        assert_eq!(games.len(), 300);
        assert_eq!(games[299], format!("{} 299", Uuid::nil()));
        assert_eq!(payloads[2], format!("@me\n{} 7 w", Uuid::nil()));
    }

    #[test]
    fn a_payload_wakes_what_it_names_unless_this_process_sent_it() {
        // Given a process listening on two games and a user
        let watch = Listeners::default();
        let (one, two, user) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let (mut a, mut b, mut u) = (
            watch.games.subscribe(one),
            watch.games.subscribe(two),
            watch.users.subscribe(user),
        );
        // When it hears its own payload, then another process's
        heard(&watch, CHANNEL, &format!("{}\n{one} 9", watch.tag));
        assert!(!a.has_changed().unwrap());
        heard(&watch, CHANNEL, &format!("@other\n{one} 3\n{two} 5 b"));
        heard(&watch, USER_CHANNEL, &format!("@other\n{user} 11 w"));
        // Then the other's lines woke both games, the user and the workers
        assert_eq!(*a.borrow_and_update(), 3);
        assert_eq!(*b.borrow_and_update(), 5);
        assert_eq!(*u.borrow_and_update(), 11);
        let woke = |n: &Arc<tokio::sync::Notify>| {
            let notified = n.notified();
            futures_util::FutureExt::now_or_never(notified).is_some()
        };
        assert!(woke(&watch.turns) && woke(&watch.outbox) && woke(&watch.mail));
        // And a single line without a tag (an older process) still counts
        heard(&watch, CHANNEL, &format!("{one} 4"));
        assert_eq!(*a.borrow_and_update(), 4);
        assert!(!woke(&watch.turns));
    }
}
