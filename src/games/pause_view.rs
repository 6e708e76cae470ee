//! The table's pause as the game shows it (docs/clocks.md): paused since
//! and until when, the open proposal and the seats whose vote it awaits.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::games::{GameRow, SeatRow};
use crate::record::pause::TablePause;

/// The open proposal, as everyone at the game sees it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct ProposalView {
    /// The proposing seat.
    pub by: u8,
    /// When the pause would end by itself.
    pub until: Option<DateTime<Utc>>,
    /// The seats that voted yes.
    pub yes: Vec<u8>,
    /// The seats whose vote is awaited.
    pub waiting: Vec<u8>,
}

/// The table's pause as the game shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[schema(example = json!({"paused_since": "2026-12-20T18:00:00Z", "until": "2026-12-27T18:00:00Z", "proposal": null}))]
pub struct PauseView {
    /// Since when the table is paused (no clock runs); null when it is not.
    pub paused_since: Option<DateTime<Utc>>,
    /// When the pause ends by itself; null: at a player's resume.
    pub until: Option<DateTime<Utc>>,
    /// The open proposal to pause.
    pub proposal: Option<ProposalView>,
}

/// The seats whose yes a pause needs: held by humans, not out.
#[must_use]
pub fn voters(seats: &[SeatRow]) -> Vec<u8> {
    seats
        .iter()
        .filter(|s| !s.bot && !s.resigned)
        .filter_map(|s| u8::try_from(s.seat).ok())
        .collect()
}

/// The pause of `game` as shown, or none when nothing is paused or proposed.
#[must_use]
pub fn view(game: &GameRow, seats: &[SeatRow]) -> Option<PauseView> {
    if game.status != super::status::ACTIVE {
        return None;
    }
    let pause = TablePause::of(game.pause.as_ref());
    if pause == TablePause::default() {
        return None;
    }
    let voters = voters(seats);
    Some(PauseView {
        paused_since: pause.since,
        until: pause.until,
        proposal: pause.proposal.as_ref().map(|p| ProposalView {
            by: p.by,
            until: p.until,
            yes: p.yes.clone(),
            waiting: pause.waiting(&voters),
        }),
    })
}
