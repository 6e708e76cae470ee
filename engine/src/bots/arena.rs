//! Bots against bots, in-process on the engines: the loop behind
//! `hatstand arena` and the bots' strength tests.
//!
//! Each seat's bot is told only its [`Seen`] (its redacted view and its legal
//! commands), exactly as a bot seat on the server is.

use std::time::{Duration, Instant};

use rand_chacha::rand_core::SeedableRng;

use super::{BotRng, BotRules, Budget, Level, Seen, decide};
use crate::random::Randomness;
use crate::ruleset::{GameResult, Ruleset, Viewer, apply_all};

/// One finished arena game.
#[derive(Debug)]
pub struct Played<R: Ruleset> {
    /// The engine's result.
    pub result: GameResult<R::Round>,
    /// How long each decision took, per seat, in order (forced
    /// single-command turns included).
    pub times: Vec<Vec<Duration>>,
}

impl<R: Ruleset> Played<R> {
    /// Decisions the bots made.
    #[must_use]
    pub fn decisions(&self) -> usize {
        self.times.iter().map(Vec::len).sum()
    }
}

/// How an arena game is played.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    /// The level playing each seat.
    pub seats: &'a [Level],
    /// Search iterations per ISMCTS decision.
    pub iterations: u32,
    /// Wall-clock limit per decision, if any.
    pub think_limit: Option<Duration>,
}

/// Plays one game to its end with one bot per seat.
///
/// # Errors
/// When the options are refused or the game does not end (a broken engine).
pub fn play<R: BotRules>(
    options: &R::Options,
    table: Table<'_>,
    seed: u64,
) -> Result<Played<R>, String> {
    let players = table.seats.len();
    let randomness = Randomness::from_seed(&format!("arena-{seed}"));
    let mut state = R::new_game(players, options.clone()).map_err(|e| e.to_string())?;
    let opening = R::start(&state, &randomness);
    apply_all::<R>(&mut state, &opening);
    let mut rng = BotRng::seed_from_u64(seed ^ 0x5eed_b075);
    let mut times = vec![Vec::new(); players];
    for _ in 0..100_000 {
        let Some(actor) = R::to_act(&state).first().copied() else {
            let result = R::result(&state).ok_or("no result at the end")?;
            return Ok(Played { result, times });
        };
        let legal = R::legal_commands(&state, actor);
        let view = R::view(&state, Viewer::Seat(actor));
        let seen = Seen::<R>::new(options, players, actor, &view, &legal);
        let started = Instant::now();
        let budget = Budget {
            iterations: table.iterations,
            deadline: table.think_limit.map(|limit| started + limit),
        };
        let command = decide(table.seats[actor.index()], &seen, budget, &mut rng);
        times[actor.index()].push(started.elapsed());
        let events = R::decide(&state, actor, &command, &randomness)
            .map_err(|e| format!("{actor} sent {command:?}, refused: {e}"))?;
        apply_all::<R>(&mut state, &events);
    }
    Err("no end after 100000 decisions".to_owned())
}
