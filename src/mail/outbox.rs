//! The mail channel's worker: claims due mails from the outbox, writes them
//! from the game as the reader's seat sees it *now*, and sends them over
//! SMTP, at least once.
//!
//! Rules:
//! - A turn mail (`your_turn`, `reminder`) is not sent when the game no
//!   longer waits for the reader (they moved some other way meanwhile); a
//!   reminder also not when the game has moved on from the version it was
//!   queued at. Such rows end `skipped`.
//! - A failed send is retried after 1 s, 2 s, 4 s... (at most an hour), and
//!   given up (`failed`) after `--mail-attempts`. A send that went through
//!   but whose outcome was not recorded is sent again with the same
//!   `Message-ID`.
//! - The lines of one user's digest that fall due together go in one mail.
//! - A sent mail that asks for a move keeps what it showed (its version and
//!   fingerprint) in its row, so that a late reply to it can be played
//!   when the seat's facts and moves are unchanged (see `inbound`).

use std::collections::BTreeMap;
use std::time::Duration;

use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use uuid::Uuid;

use super::compose::{self, Draft, Letterhead};
use super::seen::seen;
use crate::db::mail::{self, Claimed};
use crate::db::{Conn, Pool, games};
use crate::error::Failure;
use crate::games::projection::Game;
use crate::notifications::channel::Channel;
use crate::notifications::kind::Kind;
use crate::notifications::webhooks::backoff;

/// The mail channel.
pub struct Mail {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    head: Letterhead,
    every: Duration,
    attempts: i32,
}

impl Mail {
    /// The channel sending through the SMTP server at `url`.
    ///
    /// # Errors
    /// A URL lettre cannot use.
    pub fn new(
        url: &str,
        head: Letterhead,
        every: Duration,
        attempts: u32,
    ) -> Result<Self, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("--smtp-url: {e}"))?
            .timeout(Some(Duration::from_secs(30)))
            .build();
        Ok(Mail {
            transport,
            head,
            every,
            attempts: i32::try_from(attempts).unwrap_or(i32::MAX),
        })
    }
}

/// `game` as `user` sees it now, or `None` when there is no such game.
///
/// # Errors
/// Database errors.
pub async fn game_as(conn: &mut Conn, game: Uuid, user: Uuid) -> Result<Option<Game>, Failure> {
    let Some(mut loaded) = games::load(conn, game, None, None).await? else {
        return Ok(None);
    };
    if loaded.game.archived_at.is_some() && loaded.game.state.is_none() {
        loaded.game.state = crate::games::read_archived::snapshot(conn, game).await?;
    }
    crate::games::read::project_stored(&loaded, Some(user)).map(Some)
}

/// What to do with one claimed mail.
enum Plan {
    Send(Draft),
    Skip(&'static str),
}

async fn plan(conn: &mut Conn, head: &Letterhead, row: &Claimed) -> Result<Plan, Failure> {
    let kind = Kind::parse(&row.kind);
    if let Some(Kind::TournamentRound | Kind::TournamentFinished) = kind {
        // A tournament's mail is about the tournament; its game (the
        // reader's table, as they see it) only when there is one.
        let game = match row.game_id {
            Some(id) => game_as(conn, id, row.user_id).await?,
            None => None,
        };
        if row.game_id.is_some() && game.is_none() {
            return Ok(Plan::Skip("the game is gone"));
        }
        return Ok(Plan::Send(compose::tournament(head, row, game.as_ref())));
    }
    let seen = match (kind, row.game_id) {
        (Some(Kind::ConfirmAddress), _) | (_, None) => None,
        (_, Some(id)) => seen(conn, id, row.user_id, compose::language_of(row)).await?,
    };
    Ok(match (kind, seen) {
        (Some(Kind::ConfirmAddress), _) => Plan::Send(compose::confirm_address(row)),
        (Some(Kind::MoveAccepted | Kind::MoveRefused), seen) => {
            Plan::Send(compose::reply(head, row, seen.as_ref()))
        }
        (_, None) => Plan::Skip("the game is gone"),
        (Some(Kind::YourTurn | Kind::Reminder), Some(seen)) => {
            let heard = super::talk::since_last_turn_mail(conn, &seen.game, row.user_id).await?;
            match compose::turn(head, row, &seen, &heard) {
                Some(draft) => Plan::Send(draft),
                None => Plan::Skip("the game no longer waits for this seat"),
            }
        }
        (Some(Kind::Invited), Some(seen)) => Plan::Send(compose::invited(head, row, &seen.game)),
        (Some(Kind::GameFinished), Some(seen)) => Plan::Send(compose::finished(head, row, &seen)),
        (Some(Kind::Talk), Some(seen)) => Plan::Send(compose::talk(head, row, &seen.game)),
        (Some(Kind::SeatSubstituted), Some(seen)) => {
            Plan::Send(compose::substituted(head, row, &seen.game))
        }
        (Some(Kind::TournamentRound | Kind::TournamentFinished), Some(_)) => {
            Plan::Skip("a tournament's mail is written before")
        }
        (Some(Kind::TakebackOffered), Some(_)) => {
            Plan::Skip("a takeback offer is answered in the game, not by mail")
        }
        (None, _) => Plan::Skip("not a kind of mail"),
    })
}

impl Mail {
    /// Sends one mail for `rows` (one row, or a user's digest lines) and
    /// records the outcome.
    async fn deliver(&self, conn: &mut Conn, rows: &[&Claimed]) -> Result<(), Failure> {
        let first = rows[0];
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let planned = if first.digest {
            Plan::Send(compose::digest(&self.head, rows))
        } else {
            plan(conn, &self.head, first).await?
        };
        let draft = match planned {
            Plan::Send(draft) => draft,
            Plan::Skip(why) => {
                mail::finish(conn, first.user_id, &ids, "skipped", Some(why)).await?;
                return Ok(());
            }
        };
        let shown = draft.shown.clone();
        let sent = match compose::message(&self.head, first, draft) {
            Ok(message) => self
                .transport
                .send(message)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Err(e) => Err(e),
        };
        match sent {
            Ok(()) => {
                mail::finish(conn, first.user_id, &ids, "sent", None).await?;
                if let Some(shown) = shown {
                    mail::record_shown(
                        conn,
                        first.user_id,
                        first.id,
                        shown.version,
                        &shown.fingerprint,
                    )
                    .await?;
                }
            }
            Err(error) => {
                tracing::info!(user = %first.user_id, mail = first.id, %error, "mail not sent");
                let retry = backoff(Duration::from_secs(1), first.attempts);
                mail::failed(
                    conn,
                    first.user_id,
                    &ids,
                    &error,
                    self.attempts,
                    retry.as_secs_f64(),
                )
                .await?;
            }
        }
        Ok(())
    }
}

impl Channel for Mail {
    const NAME: &'static str = "mail";

    fn every(&self) -> Duration {
        self.every
    }

    async fn deliver_due(&self, pool: &Pool) -> Result<usize, Failure> {
        let mut conn = pool.get().await?;
        let claimed = mail::claim_due(&mut conn, 120.0).await?;
        let count = claimed.len();
        // Digest lines of one user go together; every other row alone.
        let mut digests: BTreeMap<Uuid, Vec<&Claimed>> = BTreeMap::new();
        for row in &claimed {
            if row.digest {
                digests.entry(row.user_id).or_default().push(row);
            } else if let Err(e) = self.deliver(&mut conn, &[row]).await {
                tracing::warn!(user = %row.user_id, mail = row.id, error = %e, "mail could not be written");
            }
        }
        for rows in digests.values() {
            if let Err(e) = self.deliver(&mut conn, rows).await {
                tracing::warn!(error = %e, "digest could not be written");
            }
        }
        Ok(count)
    }
}
