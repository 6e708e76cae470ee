//! `--smtp-listen`: receiving replies by SMTP, for an MTA that relays the
//! reply domain to the server (or, in a small setup, for the world).
//!
//! The protocol is `mailin`'s state machine; the I/O is tokio's. Each mail
//! is read (at most [`MAX_MAIL_BYTES`](super::inbound::MAX_MAIL_BYTES)) and
//! handled before the answer to its final `.`: `250` when it was played or
//! answered by mail, `550` when it is not a mail to act on — so the
//! sending MTA, not this server, tells the sender — and `451` when the
//! database is unavailable, so that it is delivered again later.
//!
//! Every `550` says the same thing ([`NOT_ACCEPTED`]), whatever the reason
//! (which is logged): a sender learns nothing from it, such as whether an
//! address they guessed is the player's, or whether a token is well formed.

use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use mailin::{Action, Handler, Response, SessionBuilder};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use super::inbound::{MAX_MAIL_BYTES, Received, receive};
use crate::context::Context;

/// The longest line read (SMTP allows 1,000 bytes; some clients send more).
const MAX_LINE: usize = 64 * 1024;
/// The one refusal of a mail not acted on.
pub const NOT_ACCEPTED: &str = "5.7.1 this mail was not accepted";

/// How long a client may stay silent.
const IDLE: Duration = Duration::from_secs(300);

/// What one SMTP session has received.
#[derive(Default)]
struct Inbox {
    to: Vec<String>,
    data: Vec<u8>,
    too_big: bool,
    done: Option<(Vec<String>, Vec<u8>, bool)>,
}

/// `mailin`'s handler: collects the mail of the current transaction.
#[derive(Clone, Default)]
struct Collect(Arc<Mutex<Inbox>>);

impl Collect {
    fn with<T>(&self, f: impl FnOnce(&mut Inbox) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Handler for Collect {
    fn data_start(&mut self, _domain: &str, _from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.with(|inbox| {
            inbox.to = to.to_vec();
            inbox.data.clear();
            inbox.too_big = false;
        });
        mailin::response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.with(|inbox| {
            if inbox.data.len() + buf.len() > MAX_MAIL_BYTES {
                inbox.too_big = true;
            } else {
                inbox.data.extend_from_slice(buf);
            }
        });
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        self.with(|inbox| {
            let to = std::mem::take(&mut inbox.to);
            let data = std::mem::take(&mut inbox.data);
            inbox.done = Some((to, data, inbox.too_big));
        });
        mailin::response::OK
    }
}

/// Accepts SMTP sessions on `listener` forever.
pub async fn serve(listener: TcpListener, ctx: Context, secret: Arc<Vec<u8>>, name: String) {
    let builder = Arc::new(SessionBuilder::new(name));
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let (ctx, secret, builder) =
                    (ctx.clone(), Arc::clone(&secret), Arc::clone(&builder));
                tokio::spawn(async move {
                    if let Err(e) = session(stream, peer.ip(), &ctx, &secret, &builder).await {
                        tracing::debug!(error = %e, "an SMTP session ended");
                    }
                });
            }
            Err(e) => {
                tracing::warn!(error = %e, "could not accept an SMTP connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

async fn session(
    stream: TcpStream,
    peer: IpAddr,
    ctx: &Context,
    secret: &[u8],
    builder: &SessionBuilder,
) -> std::io::Result<()> {
    let collect = Collect::default();
    let mut smtp = builder.build(peer, collect.clone());
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::new(read);
    write.write_all(&smtp.greeting().buffer()?).await?;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = tokio::time::timeout(
            IDLE,
            (&mut read)
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut line),
        )
        .await
        .map_err(|_| std::io::Error::other("idle too long"))??;
        if n == 0 {
            return Ok(());
        }
        if !line.ends_with(b"\n") {
            write.write_all(b"500 5.5.2 line too long\r\n").await?;
            return Ok(());
        }
        let mut response = smtp.process(&line);
        if let Some((to, data, too_big)) = collect.with(|inbox| inbox.done.take()) {
            response = if too_big {
                Response::custom(552, "5.3.4 the mail is too large".into())
            } else {
                match receive(ctx, secret, &data, &to).await {
                    Ok(Received::Moved { .. } | Received::Refused(_) | Received::Said { .. }) => {
                        mailin::response::OK
                    }
                    Ok(Received::Ignored(why)) => {
                        tracing::info!(reason = %why, "a received mail was not accepted");
                        Response::custom(550, NOT_ACCEPTED.into())
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "a mail could not be handled now");
                        Response::custom(451, "4.3.0 try again later".into())
                    }
                }
            };
        }
        match response.action {
            Action::Reply => write.write_all(&response.buffer()?).await?,
            Action::NoReply => {}
            Action::Close | Action::UpgradeTls => {
                write.write_all(&response.buffer()?).await?;
                return Ok(());
            }
        }
    }
}
