//! What a mail shows its reader: the game as their seat sees it now, what
//! happened since their last move in words, and the counters players
//! count. Read with the same redaction as the API (`GET /v1/games/{id}`
//! and `/events` as that seat).
//!
//! Rules:
//! - "Since your last move" starts at the event of the reader's last
//!   command (a trick they played into is told whole, from its lead) and
//!   tells at most
//!   [`STORY_EVENTS`] events, the latest (a longer story says so and links
//!   the game). A spectator, or a seat that has not moved yet, is told the
//!   game from its start, as far.
//! - An archived game has no story in mail (its log is in the archive).
//! - A read costs one game load and two small queries on the game's own
//!   events, whatever the size of the server's history.

use uuid::Uuid;

use crate::db::{Conn, event_store, games};
use crate::error::Failure;
use crate::games::events::redact_all;
use crate::games::narration::{self, Counters, Line};
use crate::games::projection::Game;
use crate::games::public::viewer_for;
use crate::i18n::Language;

/// The most events told in one mail.
pub const STORY_EVENTS: i64 = 80;

/// How many events before the reader's last move are read to tell a trick
/// from its lead (a trick has at most six cards).
const LOOK_BACK: i64 = 12;

/// A game as one reader sees it, for a mail.
#[derive(Debug, Clone)]
pub struct Seen {
    pub game: Game,
    /// What happened since the reader's last move.
    pub story: Vec<Line>,
    /// Whether events before the story were left out.
    pub cut: bool,
    /// Whether the story starts at the reader's last move (else at the
    /// game's start).
    pub since_own: bool,
    pub counters: Counters,
}

/// The Top Hats events that end a play turn.
const TOP_HATS_TURN_ENDS: [&str; 2] = ["moved", "chain_ended"];

/// `game` as `user` sees it now, with its story told in `language`;
/// `None` when there is no such game.
///
/// # Errors
/// Database errors.
pub async fn seen(
    conn: &mut Conn,
    game: Uuid,
    user: Uuid,
    language: Language,
) -> Result<Option<Seen>, Failure> {
    let Some(mut loaded) = games::load(conn, game, None, None).await? else {
        return Ok(None);
    };
    let archived = loaded.game.archived_at.is_some();
    if archived && loaded.game.state.is_none() {
        loaded.game.state = crate::games::read_archived::snapshot(conn, game).await?;
    }
    let projected = crate::games::read::project_stored(&loaded, Some(user))?;
    let version = loaded.game.version;
    let (story, cut, since_own) = if archived {
        (Vec::new(), false, false)
    } else {
        let own = match projected.my_seat {
            Some(seat) => event_store::last_command_of(conn, game, i16::from(seat)).await?,
            None => None,
        };
        // A few events before the reader's move, so that a trick they
        // played into is told from its lead; lines that end before their
        // move are left out below.
        let from = own.map_or(0, |seq| (seq - 1 - LOOK_BACK).max(0));
        let start = from.max(version - STORY_EVENTS);
        let logged = event_store::load(conn, game, start, version, STORY_EVENTS).await?;
        let viewer = viewer_for(projected.my_seat);
        let events = redact_all(&loaded.game, &logged, viewer)?;
        let table = super::render::table_of(&projected);
        (
            narration::narrate_in(language, &projected.ruleset, &table, &events)
                .into_iter()
                .filter(|line| own.is_none_or(|o| line.seq >= o))
                .collect(),
            start > from,
            own.is_some(),
        )
    };
    let play_turns = if projected.ruleset == "top-hats" {
        let n = event_store::count_of_kinds(conn, game, &TOP_HATS_TURN_ENDS).await?;
        Some(u32::try_from(n).unwrap_or(u32::MAX))
    } else {
        None
    };
    let counters = narration::counters(&projected.ruleset, projected.view.get(), play_turns);
    Ok(Some(Seen {
        game: projected,
        story,
        cut,
        since_own,
        counters,
    }))
}
