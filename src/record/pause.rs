//! Pausing the table by vote (docs/clocks.md), pure: what a proposal, a
//! vote and a resume write, and the pause folded from those events. The
//! server's steps and `hatstand verify` fold the same events, so the pause
//! the server keeps is the one the record replays to.
//!
//! Rules:
//! - Only in a game whose options allow pauses (`pauses`, true by default;
//!   a tournament sets it false); the caller checks that.
//! - A player proposes a pause, optionally until a set date (which must be
//!   in the future); their own vote is yes. One proposal at a time, and
//!   none while the table is paused.
//! - Every voter (each seat held by a human and not out) must vote yes:
//!   the last yes pauses the table (`game_paused`) in the same step. Any no
//!   ends the proposal. Seats of bots and seats that are out are not asked.
//! - While paused no clock runs (banks, per-turn, daily, the fixed per-turn
//!   clock); moves are still allowed and charge nothing.
//! - Any one player resumes the table at once (`game_resumed` with their
//!   seat): a pause needs everyone's consent because it stops everyone's
//!   clock; resuming only restores the normal course. A pause with a set
//!   date ends by itself when that date comes (`game_resumed`, seat null).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::chain::format_time;
use super::server_event::{PauseProposed, PauseVoted, Paused, Resumed, ServerEvent};

/// An open proposal to pause the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// The proposing seat.
    pub by: u8,
    /// When the pause would end by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<DateTime<Utc>>,
    /// The seats that voted yes (the proposer first).
    pub yes: Vec<u8>,
}

/// The table's pause as it stands (stored in `games.pause`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablePause {
    /// Since when the table is paused; none when it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<DateTime<Utc>>,
    /// When the running pause ends by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<DateTime<Utc>>,
    /// The open proposal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposal: Option<Proposal>,
}

/// Why a pause act is refused (nothing is written).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A proposal is open, or the table is paused already.
    #[error("{0}")]
    Open(&'static str),
    /// The set date is not in the future.
    #[error("the pause's end must be in the future")]
    UntilPast,
    /// No proposal awaits the seat's vote.
    #[error("no proposal to pause awaits this seat's vote")]
    NoProposal,
    /// Resuming a table that is not paused.
    #[error("the table is not paused")]
    NotPaused,
}

impl TablePause {
    /// Reads a stored pause (none: never proposed).
    #[must_use]
    pub fn of(stored: Option<&serde_json::Value>) -> Self {
        stored
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default()
    }

    /// Whether the table is paused.
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.since.is_some()
    }

    /// The seats among `voters` whose vote the open proposal awaits.
    #[must_use]
    pub fn waiting(&self, voters: &[u8]) -> Vec<u8> {
        self.proposal.as_ref().map_or_else(Vec::new, |p| {
            voters
                .iter()
                .copied()
                .filter(|v| !p.yes.contains(v))
                .collect()
        })
    }

    /// `seat` proposes a pause at `now`, until `until`; `voters` are the
    /// seats whose yes is needed. Returns the events to write.
    ///
    /// # Errors
    /// [`Refusal::Open`], [`Refusal::UntilPast`].
    pub fn propose(
        &self,
        seat: u8,
        until: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
        voters: &[u8],
    ) -> Result<Vec<ServerEvent>, Refusal> {
        if self.is_paused() {
            return Err(Refusal::Open("the table is paused already"));
        }
        if self.proposal.is_some() {
            return Err(Refusal::Open("a proposal to pause is open already"));
        }
        if until.is_some_and(|u| u <= now) {
            return Err(Refusal::UntilPast);
        }
        let mut events = vec![ServerEvent::GamePauseProposed(PauseProposed {
            seat,
            until: until.map(format_time),
        })];
        if voters.iter().all(|&v| v == seat) {
            events.push(ServerEvent::GamePaused(Paused {
                until: until.map(format_time),
            }));
        }
        Ok(events)
    }

    /// `seat` votes `yes` on the open proposal. Returns the events to write.
    ///
    /// # Errors
    /// [`Refusal::NoProposal`]: none open, or the seat voted already.
    pub fn vote(&self, seat: u8, yes: bool, voters: &[u8]) -> Result<Vec<ServerEvent>, Refusal> {
        let proposal = self.proposal.as_ref().ok_or(Refusal::NoProposal)?;
        if proposal.yes.contains(&seat) {
            return Err(Refusal::NoProposal);
        }
        let mut events = vec![ServerEvent::GamePauseVoted(PauseVoted { seat, yes })];
        if yes
            && voters
                .iter()
                .all(|v| *v == seat || proposal.yes.contains(v))
        {
            events.push(ServerEvent::GamePaused(Paused {
                until: proposal.until.map(format_time),
            }));
        }
        Ok(events)
    }

    /// `seat` resumes the table. Returns the event to write.
    ///
    /// # Errors
    /// [`Refusal::NotPaused`].
    pub fn resume(&self, seat: u8) -> Result<ServerEvent, Refusal> {
        if !self.is_paused() {
            return Err(Refusal::NotPaused);
        }
        Ok(ServerEvent::GameResumed(Resumed { seat: Some(seat) }))
    }

    /// The event that ends a pause whose set date has come by `now`.
    #[must_use]
    pub fn expired(&self, now: DateTime<Utc>) -> Option<ServerEvent> {
        (self.is_paused() && self.until.is_some_and(|u| u <= now))
            .then_some(ServerEvent::GameResumed(Resumed { seat: None }))
    }

    /// Folds `event`, written at `at`.
    ///
    /// # Errors
    /// A message when the event does not follow (`verify` refuses the
    /// record): a vote with no proposal open, a pause nobody proposed, a
    /// resume of a table not paused or before its date.
    pub fn apply(&mut self, event: &ServerEvent, at: DateTime<Utc>) -> Result<(), String> {
        let parse = |text: &Option<String>| -> Result<Option<DateTime<Utc>>, String> {
            text.as_deref()
                .map(|t| {
                    DateTime::parse_from_rfc3339(t)
                        .map(|t| t.with_timezone(&Utc))
                        .map_err(|e| format!("a pause's end does not parse: {e}"))
                })
                .transpose()
        };
        match event {
            ServerEvent::GamePauseProposed(p) => {
                if self.is_paused() || self.proposal.is_some() {
                    return Err("a pause proposed while one is open or running".into());
                }
                self.proposal = Some(Proposal {
                    by: p.seat,
                    until: parse(&p.until)?,
                    yes: vec![p.seat],
                });
            }
            ServerEvent::GamePauseVoted(v) => {
                let proposal = self
                    .proposal
                    .as_mut()
                    .filter(|p| !p.yes.contains(&v.seat))
                    .ok_or("a vote with no proposal awaiting it")?;
                if v.yes {
                    proposal.yes.push(v.seat);
                } else {
                    self.proposal = None;
                }
            }
            ServerEvent::GamePaused(p) => {
                let proposal = self.proposal.take().ok_or("a pause nobody proposed")?;
                if parse(&p.until)? != proposal.until {
                    return Err("the pause's end is not the proposal's".into());
                }
                self.since = Some(at);
                self.until = proposal.until;
            }
            ServerEvent::GameResumed(r) => {
                if !self.is_paused() {
                    return Err("a resume of a table that is not paused".into());
                }
                if r.seat.is_none() && self.until.is_none_or(|u| u > at) {
                    return Err("a pause ended by itself before its end".into());
                }
                self.since = None;
                self.until = None;
            }
            _ => {}
        }
        Ok(())
    }

    /// The pause as stored: none when nothing is paused or proposed.
    #[must_use]
    pub fn stored(&self) -> Option<serde_json::Value> {
        (*self != TablePause::default())
            .then(|| serde_json::to_value(self).ok())
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 10, hour, 0, 0).unwrap()
    }

    fn fold(pause: &mut TablePause, events: &[ServerEvent], at: DateTime<Utc>) {
        for e in events {
            pause.apply(e, at).unwrap();
        }
    }

    #[test]
    fn given_two_voters_when_both_vote_yes_then_the_table_pauses_with_the_last_yes() {
        let mut pause = TablePause::default();
        let proposed = pause.propose(0, Some(t(20)), t(8), &[0, 1]).unwrap();
        assert_eq!(proposed.len(), 1);
        fold(&mut pause, &proposed, t(8));
        assert_eq!(pause.waiting(&[0, 1]), vec![1]);
        let voted = pause.vote(1, true, &[0, 1]).unwrap();
        assert!(matches!(voted.last(), Some(ServerEvent::GamePaused(_))));
        fold(&mut pause, &voted, t(9));
        assert_eq!(pause.since, Some(t(9)));
        assert_eq!(pause.until, Some(t(20)));
        assert!(pause.proposal.is_none());
    }

    #[test]
    fn given_a_proposal_when_a_player_votes_no_then_it_ends_and_nothing_is_paused() {
        let mut pause = TablePause::default();
        let proposed = pause.propose(0, None, t(8), &[0, 1, 2]).unwrap();
        fold(&mut pause, &proposed, t(8));
        let voted = pause.vote(2, false, &[0, 1, 2]).unwrap();
        assert_eq!(voted.len(), 1);
        fold(&mut pause, &voted, t(9));
        assert_eq!(pause, TablePause::default());
        assert_eq!(pause.vote(1, true, &[0, 1, 2]), Err(Refusal::NoProposal));
    }

    #[test]
    fn given_a_lone_human_against_bots_when_proposing_then_the_table_pauses_at_once() {
        let pause = TablePause::default();
        let events = pause.propose(1, None, t(8), &[1]).unwrap();
        assert!(matches!(events.last(), Some(ServerEvent::GamePaused(_))));
    }

    #[test]
    fn refusals_write_nothing_and_say_why() {
        let mut pause = TablePause::default();
        assert_eq!(
            pause.propose(0, Some(t(8)), t(8), &[0, 1]),
            Err(Refusal::UntilPast)
        );
        assert_eq!(pause.resume(0), Err(Refusal::NotPaused));
        let proposed = pause.propose(0, None, t(8), &[0, 1]).unwrap();
        fold(&mut pause, &proposed, t(8));
        assert!(matches!(
            pause.propose(1, None, t(9), &[0, 1]),
            Err(Refusal::Open(_))
        ));
        assert_eq!(pause.vote(0, true, &[0, 1]), Err(Refusal::NoProposal));
    }

    #[test]
    fn given_a_pause_until_a_date_then_it_expires_then_and_not_before() {
        let mut pause = TablePause::default();
        let proposed = pause.propose(0, Some(t(20)), t(8), &[0]).unwrap();
        fold(&mut pause, &proposed, t(8));
        assert!(pause.expired(t(19)).is_none());
        let resumed = pause.expired(t(20)).unwrap();
        // A record claiming the pause ended by itself early does not fold.
        assert!(pause.clone().apply(&resumed, t(19)).is_err());
        pause.apply(&resumed, t(20)).unwrap();
        assert!(!pause.is_paused());
        assert!(pause.stored().is_none());
    }
}
