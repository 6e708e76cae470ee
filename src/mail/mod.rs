//! Play by email: the third way notifications reach a player (after the
//! inbox stream and webhooks), and a way to move.
//!
//! - **Addresses** ([`addresses`]): a user adds one address, confirms it
//!   with the code mailed to it, and chooses per kind of mail (`your_turn`,
//!   `reminder`, `invited`, `game_finished`) `immediately`, `digest` (one
//!   mail a day at their hour, in their time zone) or `never`.
//! - **Out** ([`outbox`]): the statement that writes a notification queues
//!   its mails in `mail_outbox` (the channel's CTE in
//!   `db::notifications::OUTBOXES`), in the same transaction; the worker
//!   writes each from the game as the reader's seat sees it ([`seen`]:
//!   the view, what happened since the reader's last move in words from
//!   [`crate::games::narration`], the counters players count), drawn as prose and
//!   HTML ([`render`], [`compose`]), and sends it over SMTP.
//! - **In** ([`inbound`]): a reply to a turn mail goes to its reply address,
//!   whose token ([`token`]) names the game, seat and version; the move on
//!   its first line ([`moves`], forgiving but never doubtful) is played
//!   through the command path, also late when nothing the mail showed has
//!   changed.
//!   `hatstand mail-in` reads one mail on standard input (an MTA's pipe);
//!   `--smtp-listen` receives them by SMTP ([`listener`]).
//! - **Talk** ([`talk`]): a turn mail lists what was said to its reader
//!   since their last one; a reply to a talk mail (`talk+<token>@...`) is
//!   said in the game's talk.

pub mod addresses;
pub mod compose;
pub mod inbound;
pub mod listener;
pub mod moves;
pub mod outbox;
pub mod render;
pub mod reply;
pub mod seen;
pub mod talk;
pub mod token;

use crate::db::Pool;

/// The name of the mail secret in `server_secrets`.
const SECRET_NAME: &str = "mail";

/// The key of reply tokens and unsubscribe links, the same in every
/// process of one database (made on first use).
///
/// # Errors
/// Database errors, as a message.
pub async fn secret(pool: &Pool) -> Result<Vec<u8>, String> {
    crate::auth::secret::stored(pool, SECRET_NAME).await
}
