//! A game's story in words, as one viewer may know it: the move log the
//! web page shows beside the board, in the same sentences as the turn
//! mails (`narration`).
//!
//! Rules:
//! - Told from the viewer's redacted events only (a seat's, or a
//!   spectator's): nothing the viewer may not see is named; once the game
//!   is over, as its public audit tells it.
//! - The whole game, one line per thing that happened, in order; the
//!   counters players count (turns, tricks, rounds or deals) as they stand.
//! - `my_last_move` is the event of the viewer's seat's last command, so a
//!   client can say what happened since.
//! - Costs one game load and one read of that game's events.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::events::redact_all;
use super::public::viewer_for;
use super::read::project_stored;
use crate::context::Context;
use crate::error::Failure;
use crate::games::narration::{self, Counters, Table};

/// One thing that happened, in words.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LogLine {
    /// The last event it tells.
    pub seq: i64,
    /// A sentence or a few, naming players (the viewer as "you").
    #[schema(example = "bruno played the queen of spades; you won the trick.")]
    pub text: String,
}

/// A game's story as the caller may know it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameLog {
    /// The game's version the story was told at.
    pub version: i64,
    /// The turn, trick, round or deal now, as the rule book counts them.
    pub counters: Counters,
    /// The event of the caller's seat's last command, if any.
    pub my_last_move: Option<i64>,
    /// Everything that happened, in order.
    pub lines: Vec<LogLine>,
}

/// The Top Hats events that end a play turn.
const TOP_HATS_TURN_ENDS: [&str; 2] = ["moved", "chain_ended"];

/// Game `id`'s story as `user` (none: signed out) may know it, told in the
/// request's language (`Accept-Language`; the web client sends its own).
/// The answer's tag is taken from its body, so a story told in another
/// language has another tag.
///
/// # Errors
/// `not_found` (also for a game the caller may not watch).
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn log(state: &Context, user: Option<Uuid>, id: Uuid) -> Result<GameLog, Failure> {
    let mut conn = state.pool.get().await?;
    let mut loaded = super::stored(&mut conn, id).await?;
    super::watchers::check(&mut conn, &loaded, user).await?;
    if loaded.game.archived_at.is_some() && loaded.game.state.is_none() {
        loaded.game.state = super::read_archived::snapshot(&mut conn, id).await?;
    }
    let version = loaded.game.version;
    let logged = super::read_archived::events(&mut conn, &loaded.game, 0, version, version).await?;
    drop(conn);
    let game = project_stored(&loaded, user)?;
    let over = game.status == super::status::FINISHED || game.status == super::status::ABANDONED;
    let viewer = if over {
        hatstand_engine::Viewer::Auditor
    } else {
        viewer_for(game.my_seat)
    };
    let events = redact_all(&loaded.game, &logged, viewer)?;
    let my_last_move = game.my_seat.and_then(|seat| {
        logged
            .iter()
            .rev()
            .find(|e| e.command.is_some() && e.actor_seat == Some(i16::from(seat)))
            .map(|e| e.seq)
    });
    let table = Table {
        names: (0..game.players)
            .map(|s| {
                game.seats
                    .iter()
                    .find(|t| t.seat == s)
                    .map_or_else(|| format!("seat {}", s + 1), |t| t.username.clone())
            })
            .collect(),
        me: game.my_seat,
    };
    let play_turns = (game.ruleset == "top-hats").then(|| {
        let ends = logged
            .iter()
            .filter(|e| TOP_HATS_TURN_ENDS.contains(&e.kind.as_str()))
            .count();
        u32::try_from(ends).unwrap_or(u32::MAX)
    });
    Ok(GameLog {
        version,
        counters: narration::counters(&game.ruleset, game.view.get(), play_turns),
        my_last_move,
        lines: narration::narrate_in(
            crate::i18n::request_language(),
            &game.ruleset,
            &table,
            &events,
        )
        .into_iter()
        .map(|l| LogLine {
            seq: l.seq,
            text: l.text,
        })
        .collect(),
    })
}
