//! Seats that are out of a game, and what follows from them. These rules
//! are written once, here: the command path applies them and replay and
//! `verify` check a record against them.
//!
//! - A seat goes out once: by resigning, by a timeout in a game that
//!   forfeits on timeout, or after `abandon_after` timeouts in a row.
//! - Whenever the game waits on a seat that is out, the server plays for it
//!   (autoplay): the command is `legal[below(stream("autoplay", version), len)]`,
//!   `version` being the game's version just before the command.
//! - When a seat's time runs out in a game that autoplays on timeout, the
//!   server plays that one turn at the game's `autoplay_level`: `random` is
//!   the pick above; `greedy` and `ismcts` are the built-in bots, shown the
//!   seat's view only, drawing from `stream("autoplay", version)` and (for
//!   `ismcts`) searching exactly [`AUTOPLAY_ITERATIONS`] iterations, so
//!   `verify` recomputes the same command.
//! - As soon as one seat (or none) of a game of two or more is left that is
//!   not out, the game ends by forfeit: the seats left win, nobody scores.

use hatstand_engine::bots::{self, BotRng, BotRules, Budget, Level, Seen};
use hatstand_engine::random::below;
use hatstand_engine::{Randomness, Viewer, seat};
use rand::RngCore;
use rand_chacha::rand_core::SeedableRng;

use super::server_event::ForfeitResult;

/// Which seats are out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutSeats(Vec<bool>);

/// Why a seat cannot go out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotOut {
    /// The game has no such seat.
    #[error("there is no seat {0}")]
    NoSeat(u8),
    /// The seat is out already.
    #[error("seat {0} is already out")]
    AlreadyOut(u8),
    /// The seat is not out: nobody left it for a substitute to take.
    #[error("seat {0} is not out")]
    NotVacant(u8),
}

impl OutSeats {
    /// No seat out among `players`.
    #[must_use]
    pub fn none_of(players: usize) -> Self {
        OutSeats(vec![false; players])
    }

    /// The seats marked in `out`.
    #[must_use]
    pub fn of(out: Vec<bool>) -> Self {
        OutSeats(out)
    }

    /// The number of seats.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the game has no seats (never, once created).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `seat` is out.
    #[must_use]
    pub fn is_out(&self, seat: u8) -> bool {
        self.0.get(usize::from(seat)).copied().unwrap_or(false)
    }

    /// `seat` goes out.
    ///
    /// # Errors
    /// A seat the game does not have, or one already out.
    pub fn mark(&mut self, seat: u8) -> Result<(), NotOut> {
        let slot = self
            .0
            .get_mut(usize::from(seat))
            .ok_or(NotOut::NoSeat(seat))?;
        if *slot {
            return Err(NotOut::AlreadyOut(seat));
        }
        *slot = true;
        Ok(())
    }

    /// `seat`, out, is in again: a substitute took it (`seat_substituted`).
    /// The server stops playing it; it may go out again later.
    ///
    /// # Errors
    /// A seat the game does not have, or one that is not out.
    pub fn restore(&mut self, seat: u8) -> Result<(), NotOut> {
        let slot = self
            .0
            .get_mut(usize::from(seat))
            .ok_or(NotOut::NoSeat(seat))?;
        if !*slot {
            return Err(NotOut::NotVacant(seat));
        }
        *slot = false;
        Ok(())
    }

    /// The forfeit the game ends with now, if it does: when it has two
    /// seats or more and at most one is not out.
    #[must_use]
    pub fn forfeit(&self) -> Option<ForfeitResult> {
        let left = self.0.iter().filter(|out| !**out).count();
        (self.0.len() > 1 && left <= 1).then(|| {
            let seats = (0..self.0.len()).filter_map(|s| u8::try_from(s).ok());
            ForfeitResult {
                outcome: "forfeit".to_owned(),
                winners: seats.clone().filter(|&s| !self.is_out(s)).collect(),
                scores: vec![0; self.0.len()],
                forfeited: seats.filter(|&s| self.is_out(s)).collect(),
            }
        })
    }
}

/// Which of `legal` commands the server plays for a seat that is out (or
/// timed out) at `version`: the index the game's randomness picks.
#[must_use]
pub fn autoplay_pick(randomness: &Randomness, version: u64, legal: usize) -> usize {
    below(&mut randomness.stream("autoplay", version), legal.max(1))
}

/// The search iterations of an `ismcts` autoplay (fixed, so that a
/// replay finds the same command).
pub const AUTOPLAY_ITERATIONS: u32 = 200;

/// The command the server plays for `seat_no` at `level` when its time
/// runs out at `version`; `None` when the seat has no legal command.
#[must_use]
pub fn autoplay_command<R: BotRules>(
    state: &R::State,
    options: &R::Options,
    players: usize,
    seat_no: u8,
    level: Level,
    randomness: &Randomness,
    version: u64,
) -> Option<R::Command> {
    let seat = seat(usize::from(seat_no));
    let legal = R::legal_commands(state, seat);
    if legal.is_empty() {
        return None;
    }
    if level == Level::Random {
        return legal
            .get(autoplay_pick(randomness, version, legal.len()))
            .cloned();
    }
    let mut seed = [0u8; 32];
    randomness.stream("autoplay", version).fill_bytes(&mut seed);
    let view = R::view(state, Viewer::Seat(seat));
    let seen = Seen::<R>::new(options, players, seat, &view, &legal);
    let budget = Budget::iterations(AUTOPLAY_ITERATIONS);
    Some(bots::decide(
        level,
        &seen,
        budget,
        &mut BotRng::from_seed(seed),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_three_seats_when_one_goes_out_then_the_game_goes_on() {
        let mut out = OutSeats::none_of(3);
        out.mark(1).unwrap();
        assert!(out.is_out(1));
        assert_eq!(out.forfeit(), None);
    }

    #[test]
    fn given_three_seats_when_two_go_out_then_the_last_one_wins_by_forfeit() {
        let mut out = OutSeats::none_of(3);
        out.mark(0).unwrap();
        out.mark(2).unwrap();
        let result = out.forfeit().unwrap();
        assert_eq!(result.winners, vec![1]);
        assert_eq!(result.forfeited, vec![0, 2]);
        assert_eq!(result.scores, vec![0, 0, 0]);
    }

    #[test]
    fn a_seat_goes_out_once_and_only_a_seat_of_the_game() {
        let mut out = OutSeats::none_of(2);
        out.mark(0).unwrap();
        assert_eq!(out.mark(0), Err(NotOut::AlreadyOut(0)));
        assert_eq!(out.mark(5), Err(NotOut::NoSeat(5)));
    }

    #[test]
    fn given_a_seat_out_when_a_substitute_takes_it_then_it_is_in_and_may_go_out_again() {
        let mut out = OutSeats::none_of(3);
        assert_eq!(out.restore(1), Err(NotOut::NotVacant(1)));
        out.mark(1).unwrap();
        out.restore(1).unwrap();
        assert!(!out.is_out(1));
        assert_eq!(out.restore(7), Err(NotOut::NoSeat(7)));
        out.mark(1).unwrap();
        assert!(out.is_out(1));
    }

    #[test]
    fn the_autoplay_pick_depends_on_the_seed_and_the_version_only() {
        let randomness = Randomness::from_seed("00ff");
        let first = autoplay_pick(&randomness, 7, 10);
        assert_eq!(first, autoplay_pick(&Randomness::from_seed("00ff"), 7, 10));
        assert!(first < 10);
        assert_eq!(autoplay_pick(&randomness, 7, 0), 0);
    }
}
