//! Pausing the table by vote (docs/clocks.md): a player proposes, every
//! player votes, any player resumes; the rules are `record::pause`'s, the
//! clocks' `record::clock`'s. Each act is one step of the game, written in
//! one version-guarded append (retried on a lost race), so a refusal
//! writes nothing and two last votes at once pause the table once.
//!
//! - `pauses: false` in the game's options (tournaments) forbids it:
//!   `pauses_forbidden`.
//! - The voters are the seats held by humans and not out; bots are not
//!   asked (a human alone against bots pauses at once).
//! - While paused the game's `deadline` column holds the pause's end (the
//!   deadline worker resumes the table then, exactly once, as it fires a
//!   timeout); with no end it is empty and nothing fires.

use chrono::{DateTime, Utc};
use hatstand_engine::Ruleset;
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::leave::{Leave, PauseAct, change};
use super::pause_view::voters;
use super::projection::Game;
use super::step::Step;
use crate::auth::Caller;
use crate::context::Context;
use crate::error::{ErrorCode, Failure};
use crate::record::chain::Actor;
use crate::record::pause::Refusal;
use crate::record::server_event::ServerEvent;

/// A proposal to pause the table.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"until": "2026-12-27T18:00:00Z"}))]
pub struct ProposePause {
    /// When the pause ends by itself (RFC 3339, in the future); absent or
    /// null: until a player resumes the table.
    #[serde(default)]
    pub until: Option<DateTime<Utc>>,
}

/// A vote on the open proposal.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"yes": true}))]
pub struct VotePause {
    /// Yes, or no (which ends the proposal).
    pub yes: bool,
}

/// The caller proposes to pause the table.
///
/// # Errors
/// `not_found`, `not_a_player`, `game_not_open`, `game_finished`,
/// `already_resigned`, `pauses_forbidden`, `pause_open`, `pause_until_past`.
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn propose(
    state: &Context,
    caller: &Caller,
    id: Uuid,
    request: &ProposePause,
) -> Result<Game, Failure> {
    change(
        state,
        caller,
        id,
        Leave::Pause(PauseAct::Propose(request.until)),
    )
    .await
}

/// The caller votes on the open proposal.
///
/// # Errors
/// As [`propose`], and `no_pause_proposal`.
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn vote(
    state: &Context,
    caller: &Caller,
    id: Uuid,
    request: &VotePause,
) -> Result<Game, Failure> {
    change(state, caller, id, Leave::Pause(PauseAct::Vote(request.yes))).await
}

/// The caller resumes the paused table.
///
/// # Errors
/// As [`propose`], and `not_paused`.
#[tracing::instrument(skip_all, fields(game = %id))]
pub async fn resume(state: &Context, caller: &Caller, id: Uuid) -> Result<Game, Failure> {
    change(state, caller, id, Leave::Pause(PauseAct::Resume)).await
}

fn refused(why: &Refusal) -> Failure {
    let code = match why {
        Refusal::Open(_) => ErrorCode::PauseOpen,
        Refusal::UntilPast => ErrorCode::PauseUntilPast,
        Refusal::NoProposal => ErrorCode::NoPauseProposal,
        Refusal::NotPaused => ErrorCode::NotPaused,
    };
    Failure::new(code, why.to_string())
}

impl<R: Ruleset> Step<'_, R> {
    /// `my_seat` acts on the table's pause: the events `record::pause`
    /// gives, folded into the pause and the clocks.
    ///
    /// # Errors
    /// `pauses_forbidden`, `already_resigned`, `pause_open`,
    /// `pause_until_past`, `no_pause_proposal`, `not_paused`.
    pub fn table_pause(&mut self, my_seat: u8, act: PauseAct, actor: Actor) -> Result<(), Failure> {
        if !self.options.pauses {
            return Err(Failure::new(
                ErrorCode::PausesForbidden,
                "this game's options forbid pausing the table",
            ));
        }
        if self.seat_mut(my_seat)?.resigned {
            return Err(Failure::new(
                ErrorCode::AlreadyResigned,
                "the seat is out of the game",
            ));
        }
        let voters = voters(&self.seats);
        let events = match act {
            PauseAct::Propose(until) => self.pause.propose(my_seat, until, self.now, &voters),
            PauseAct::Vote(yes) => self.pause.vote(my_seat, yes, &voters),
            PauseAct::Resume => self.pause.resume(my_seat).map(|e| vec![e]),
        }
        .map_err(|why| refused(&why))?;
        if act != PauseAct::Resume {
            // On the fixed per-turn clock, an offer or a vote leaves the
            // game's deadline as it was (as a takeback offer does).
            self.deadline = self.loaded.game.deadline;
        }
        for event in events {
            let by = if matches!(event, ServerEvent::GamePaused(_)) {
                Actor::SYSTEM
            } else {
                actor
            };
            self.pause_event(&event, by)?;
        }
        Ok(())
    }

    /// A pause whose end has come is over (`game_resumed`, by the system).
    ///
    /// # Errors
    /// `internal`.
    pub fn pause_expired(&mut self) -> Result<(), Failure> {
        if let Some(event) = self.pause.expired(self.now) {
            self.pause_event(&event, Actor::SYSTEM)?;
        }
        Ok(())
    }

    /// Pushes a pause event and folds it into the pause and the clocks.
    fn pause_event(&mut self, event: &ServerEvent, actor: Actor) -> Result<(), Failure> {
        self.push(event, actor)?;
        self.pause
            .apply(event, self.now)
            .map_err(Failure::internal)?;
        let now = self.now;
        if let Some((rules, clocks)) = &mut self.clock {
            match event {
                ServerEvent::GamePaused(_) => clocks.pause(now),
                ServerEvent::GameResumed(_) => clocks.resume(rules, now),
                _ => {}
            }
        }
        Ok(())
    }
}
