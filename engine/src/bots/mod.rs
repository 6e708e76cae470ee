//! Bots: players that decide from what their seat sees, and nothing else.
//!
//! A bot is given a [`Seen`]: the game's **public** options, the number of
//! seats, its seat, **its seat's redacted view** (exactly what `GET
//! /v1/games/{id}` shows that seat) and the legal commands listed there. It
//! never receives the engine state, so it cannot cheat: two games that look
//! the same from its seat get the same command from it under the same random
//! seed.
//!
//! The options a bot is shown are [`BotRules::public_options`] of the game's:
//! [`Seen::new`] is the only way to make a [`Seen`] and strips them itself, so
//! no ruleset's bot can read what players are not shown (explicit deals,
//! `options.deals`, which set puzzles, replayed deals and duplicate
//! tournaments, are hidden from every seat).
//!
//! Three levels play every ruleset and every player count:
//! - [`Level::Random`]: a uniformly random legal command;
//! - [`Level::Greedy`]: the ruleset's one-ply heuristic
//!   ([`BotRules::greedy`]: bid from hand strength, follow cheaply, capture
//!   when it pays);
//! - [`Level::Ismcts`]: information-set Monte Carlo tree search
//!   ([`ismcts`]): each iteration draws a complete game consistent with the
//!   view ([`BotRules::determinize`]), walks one shared tree of commands
//!   (single-observer ISMCTS: a child's availability counts how often it was
//!   legal), plays the rest out (at random unless the ruleset gives a
//!   playout policy, [`BotRules::playout_command`]; up to the ruleset's
//!   horizon, [`BotRules::horizon_rewards`]), and backs up each seat's
//!   reward; the command chosen is the root's most visited child (the vote
//!   of all determinizations).
//!
//! Everything here is deterministic given the [`BotRng`]'s seed and the
//! budget's iteration count; a wall-clock deadline only ever stops a search
//! early.

pub mod arena;
mod search;

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::random::below;
use crate::ruleset::{GameResult, Ruleset, Seat};

pub use search::ismcts;

/// The random source of a bot's decision.
pub type BotRng = ChaCha8Rng;

/// How well a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = BotLevel))]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// A uniformly random legal command.
    Random,
    /// A one-ply heuristic of the ruleset.
    Greedy,
    /// Information-set Monte Carlo tree search.
    Ismcts,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: &'static [Level] = &[Level::Random, Level::Greedy, Level::Ismcts];

    /// The level's name in the API (`random`, `greedy`, `ismcts`).
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Ismcts => "ismcts",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A name that is not a bot level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot level {0:?}: expected random, greedy or ismcts")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .iter()
            .copied()
            .find(|l| l.id() == s)
            .ok_or_else(|| UnknownLevel(s.to_owned()))
    }
}

/// How long a search may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most search iterations (the search is reproducible for a given count).
    pub iterations: u32,
    /// A wall-clock limit that stops the search early, if any.
    pub deadline: Option<Instant>,
}

impl Budget {
    /// A reproducible budget: exactly `iterations` (unless the game leaves
    /// only one legal command).
    #[must_use]
    pub fn iterations(iterations: u32) -> Budget {
        Budget {
            iterations,
            deadline: None,
        }
    }
}

/// Everything a bot is told: what its seat sees, nothing more.
///
/// Made only by [`Seen::new`], which keeps of the options what every player
/// is shown ([`BotRules::public_options`]).
pub struct Seen<'a, R: BotRules> {
    /// The game's public options (private: only [`Seen::new`] sets them).
    options: R::Options,
    /// Seats at the table.
    pub players: usize,
    /// The bot's seat.
    pub seat: Seat,
    /// The seat's redacted view, as the API serves it.
    pub view: &'a R::View,
    /// The seat's legal commands, as the API lists them (never empty).
    pub legal: &'a [R::Command],
}

impl<'a, R: BotRules> Seen<'a, R> {
    /// What `seat` is told: the public part of the game's `options`
    /// ([`BotRules::public_options`]; explicit deals never get through), the
    /// number of seats, the seat's redacted `view` and its `legal` commands.
    #[must_use]
    pub fn new(
        options: &R::Options,
        players: usize,
        seat: Seat,
        view: &'a R::View,
        legal: &'a [R::Command],
    ) -> Seen<'a, R> {
        Seen {
            options: R::public_options(options),
            players,
            seat,
            view,
            legal,
        }
    }

    /// The game's options as every player is shown them.
    #[must_use]
    pub fn options(&self) -> &R::Options {
        &self.options
    }
}

/// What a ruleset gives its bots beyond the engine contract.
pub trait BotRules: Ruleset + Sized {
    /// The options as every player is shown them: whatever a seat may not
    /// see (explicit deals) removed, so that a bot decides from the public
    /// rules of the game alone. [`Seen::new`] applies it; a ruleset states
    /// it (no default), so a new option stays hidden from bots until its
    /// ruleset says it is public.
    fn public_options(options: &Self::Options) -> Self::Options;

    /// A complete state the game could be in, given only what `seen.seat`
    /// sees: every hidden card (or hat) is drawn from `rng` among those the
    /// view leaves unaccounted for, respecting what the view proves (hand
    /// sizes, suits a seat showed it lacks, ...).
    ///
    /// Laws (each ruleset's bot tests check them): the seat's view of the
    /// result equals `seen.view`, and the seat's legal commands in it equal
    /// `seen.legal`.
    fn determinize(seen: &Seen<'_, Self>, rng: &mut BotRng) -> Self::State;

    /// The one-ply heuristic: the command a greedy player sends, one of
    /// `seen.legal`.
    fn greedy(seen: &Seen<'_, Self>, rng: &mut BotRng) -> Self::Command;

    /// Each seat's reward for a finished game, in `0.0..=1.0`, that a search
    /// maximizes: by default the seat's share of the win (1 alone, 1/k when k
    /// seats share it, 1/n each for a draw), with a small part for the score
    /// so that a search still prefers the better of two losses.
    fn rewards(result: &GameResult<Self::Round>, players: usize) -> Vec<f64> {
        win_share_rewards(result, players)
    }

    /// The command `actor` sends in a search's playout, given the complete
    /// (determinized) `state` and the actor's `legal` commands (never
    /// empty): by default a uniformly random one. A ruleset whose random play
    /// says little about a position overrides it with cheap, sensible play;
    /// it must still leave every legal command a chance now and then, so
    /// that the search's estimates do not hinge on one fixed line of play.
    fn playout_command(
        state: &Self::State,
        actor: Seat,
        legal: &[Self::Command],
        rng: &mut BotRng,
    ) -> Self::Command {
        let _ = (state, actor);
        legal[below(rng, legal.len())].clone()
    }

    /// The commands a search weighs at its root, all of `seen.legal` by
    /// default. A ruleset with many commands of which most are plainly poor
    /// keeps the few its heuristic rates best (the greedy command always
    /// among them), so that a small budget is spent on those; never empty.
    fn root_candidates(seen: &Seen<'_, Self>) -> Vec<Self::Command> {
        seen.legal.to_vec()
    }

    /// Whether a search lets the other seats choose by
    /// [`BotRules::playout_command`] in its tree too (an opponent model),
    /// instead of by their own statistics there. Single-observer ISMCTS
    /// shares a seat's statistics over every deal it draws, so in the tree
    /// another seat plays as if it did not know its own cards (it bids the
    /// same with any hand); a policy that reads the actor's cards in the
    /// determinized state does not. By default no: a uniformly random
    /// policy would model random players.
    const OTHERS_BY_POLICY: bool = false;

    /// Each seat's reward (as [`BotRules::rewards`]) if a search from
    /// `seen` may stop at the unfinished `state` instead of playing the game
    /// to its end; `None` to play on. By default searches play every game to
    /// its end. A ruleset of long matches stops, say, once the round being
    /// decided is scored, the later rounds being noise to this decision.
    fn horizon_rewards(seen: &Seen<'_, Self>, state: &Self::State) -> Option<Vec<f64>> {
        let _ = (seen, state);
        None
    }
}

/// The default reward: the share of the win, plus up to 0.1 for the seat's
/// score rank among the table (0.1 for the best score, 0 for the worst).
#[must_use]
pub fn win_share_rewards<R>(result: &GameResult<R>, players: usize) -> Vec<f64> {
    let mut rewards = vec![0.0; players];
    if result.winners.is_empty() {
        rewards.iter_mut().for_each(|r| *r = 0.9 / players as f64);
    } else {
        let share = 0.9 / result.winners.len() as f64;
        for winner in &result.winners {
            if let Some(r) = rewards.get_mut(winner.index()) {
                *r = share;
            }
        }
    }
    let (lo, hi) = result
        .scores
        .iter()
        .fold((i32::MAX, i32::MIN), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    if hi > lo {
        for (r, &s) in rewards.iter_mut().zip(&result.scores) {
            *r += 0.1 * f64::from(s - lo) / f64::from(hi - lo);
        }
    } else {
        rewards.iter_mut().for_each(|r| *r += 0.05);
    }
    rewards
}

/// The command a bot of `level` sends, chosen only from `seen`.
///
/// # Panics
/// Never for a non-empty `seen.legal` (the server only asks a bot that is to act).
pub fn decide<R: BotRules>(
    level: Level,
    seen: &Seen<'_, R>,
    budget: Budget,
    rng: &mut BotRng,
) -> R::Command {
    if seen.legal.len() == 1 {
        return seen.legal[0].clone();
    }
    match level {
        Level::Random => random(seen, rng),
        Level::Greedy => R::greedy(seen, rng),
        Level::Ismcts => ismcts(seen, budget, rng),
    }
}

/// A uniformly random legal command.
#[must_use]
pub fn random<R: BotRules>(seen: &Seen<'_, R>, rng: &mut impl RngCore) -> R::Command {
    seen.legal[below(rng, seen.legal.len())].clone()
}
