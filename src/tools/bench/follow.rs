//! `hatstand bench --follow stream`: each seat follows its game's event
//! stream (`GET /v1/games/{id}/stream`, as that seat) the way a phone
//! client does, and learns that the turn came to it from the stream instead
//! of being told by the load generator. It then reads its view (`GET
//! /v1/games/{id}`), whose legal commands it needs to move: the stream
//! carries events, not the seat's choices.
//!
//! What it measures beside the usual figures: the time from a command's
//! answer to the next seat seeing its events on the stream.

use std::pin::Pin;
use std::time::{Duration, Instant};

use awc::Client;
use futures_util::{Stream, StreamExt};

/// The longest wait for a move to show on a stream before the run fails.
const PATIENCE: Duration = Duration::from_secs(30);

type Body = Pin<Box<dyn Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>>>>;

/// One seat's open event stream.
pub struct Follower {
    body: Body,
    /// Bytes after the last complete line.
    pending: Vec<u8>,
    /// The highest event id seen.
    pub seen: i64,
}

impl Follower {
    /// Opens game `id`'s event stream at `base` as the holder of `token`.
    ///
    /// # Errors
    /// When the stream cannot be opened.
    pub async fn open(client: &Client, base: &str, id: &str, token: &str) -> Result<Self, String> {
        let res = client
            .get(format!("{base}/v1/games/{id}/stream?after=0"))
            .insert_header(("Authorization", format!("Bearer {token}")))
            .insert_header(("Accept", "text/event-stream"))
            .timeout(Duration::from_secs(24 * 3600))
            .send()
            .await
            .map_err(|e| format!("the event stream of {id}: {e}"))?;
        if !res.status().is_success() {
            return Err(format!("the event stream of {id}: {}", res.status()));
        }
        Ok(Self {
            body: Box::pin(res),
            pending: Vec::new(),
            seen: 0,
        })
    }

    /// Reads the stream until it has shown event `version` (or a later
    /// one); how long that took.
    ///
    /// # Errors
    /// When the stream ends, fails, or shows nothing new for [`PATIENCE`].
    pub async fn until(&mut self, version: i64) -> Result<Duration, String> {
        let started = Instant::now();
        while self.seen < version {
            let chunk = actix_web::rt::time::timeout(PATIENCE, self.body.next())
                .await
                .map_err(|_| format!("no event {version} on the stream for {PATIENCE:?}"))?
                .ok_or_else(|| "the event stream ended".to_owned())?
                .map_err(|e| format!("the event stream: {e}"))?;
            self.pending.extend_from_slice(&chunk);
            while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                if let Some(id) = event_id(&line) {
                    self.seen = self.seen.max(id);
                }
            }
        }
        Ok(started.elapsed())
    }
}

/// The event number of an SSE `id:` line (`id: 17`, or `17/…` when talk
/// rides along), if `line` is one.
fn event_id(line: &[u8]) -> Option<i64> {
    let text = std::str::from_utf8(line).ok()?.trim_end();
    let id = text.strip_prefix("id:")?.trim_start();
    id.split('/').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::event_id;

    #[test]
    fn reads_an_event_id_line_and_nothing_else() {
        assert_eq!(event_id(b"id: 17\n"), Some(17));
        assert_eq!(event_id(b"id:4/2026-11-28T00:00:00Z\r\n"), Some(4));
        assert_eq!(event_id(b"data: {\"seq\": 17}\n"), None);
        assert_eq!(event_id(b": keep-alive\n"), None);
    }
}
