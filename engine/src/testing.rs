//! Random playouts: the property harness every ruleset's tests use, and the
//! loop the engine benchmarks time.
//!
//! A checked playout asserts the laws of [`Ruleset`] at every step: seats not
//! in `to_act` have no legal commands, every listed command is accepted, every
//! candidate command that is not listed is refused, accepted commands produce
//! events, commands and states survive a JSON round trip, and the game ends.

use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::random::{Randomness, below};
use crate::ruleset::{Ruleset, Seat, apply_all};

/// A ruleset that can enumerate a superset of the commands a seat could try
/// now, legal or not (every card in hand on every position, ...). Used only to
/// check that `decide` refuses exactly what `legal_commands` leaves out.
pub trait CommandSpace: Ruleset {
    /// Plausible commands for `seat` in `state`, legal or not.
    fn candidate_commands(state: &Self::State, seat: Seat) -> Vec<Self::Command>;
}

/// How a playout ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playout {
    /// Commands accepted.
    pub actions: u64,
    /// Events applied (the opening events included).
    pub events: u64,
}

/// Plays one game with uniformly random legal commands, without checks: the
/// loop the benchmarks time (`legal_commands` + `decide` + `evolve` per action).
///
/// # Errors
/// When the options are refused, a listed command is refused, or the game does
/// not end within `max_actions`.
pub fn playout<R: Ruleset>(
    players: usize,
    options: R::Options,
    seed: u64,
    max_actions: u64,
) -> Result<(R::State, Playout), String> {
    let mut chooser = ChaCha8Rng::seed_from_u64(seed);
    let randomness = Randomness::from_seed(&format!("playout-{seed}"));
    let mut state = R::new_game(players, options).map_err(|e| e.to_string())?;
    let opening = R::start(&state, &randomness);
    let mut events = opening.len() as u64;
    apply_all::<R>(&mut state, &opening);
    let mut actions = 0;
    loop {
        let to_act = R::to_act(&state);
        if to_act.is_empty() {
            return Ok((state, Playout { actions, events }));
        }
        if actions >= max_actions {
            return Err(format!("no end after {max_actions} actions"));
        }
        let seat = to_act[below(&mut chooser, to_act.len())];
        let legal = R::legal_commands(&state, seat);
        if legal.is_empty() {
            return Err(format!("{seat} is to act but has no legal command"));
        }
        let command = &legal[below(&mut chooser, legal.len())];
        let new_events = R::decide(&state, seat, command, &randomness)
            .map_err(|e| format!("listed command {command:?} refused: {e}"))?;
        events += new_events.len() as u64;
        apply_all::<R>(&mut state, &new_events);
        actions += 1;
    }
}

/// Plays one game with random legal commands and checks the laws of the
/// contract at every step (see the module documentation). Returns the final state.
///
/// # Errors
/// A description of the first broken law, with the seed to reproduce it.
pub fn checked_playout<R: CommandSpace>(
    players: usize,
    options: R::Options,
    seed: u64,
    max_actions: u64,
) -> Result<(R::State, Playout), String> {
    let fail = |msg: String| format!("seed {seed}: {msg}");
    let mut chooser = ChaCha8Rng::seed_from_u64(seed);
    let randomness = Randomness::from_seed(&format!("checked-{seed}"));
    let mut state = R::new_game(players, options).map_err(|e| fail(e.to_string()))?;
    let opening = R::start(&state, &randomness);
    let mut events = opening.len() as u64;
    apply_all::<R>(&mut state, &opening);
    let mut actions = 0;
    let snapshot_step = chooser.next_u64() % 64;
    loop {
        let to_act = R::to_act(&state);
        for s in 0..players {
            let s = crate::ruleset::seat(s);
            let legal = R::legal_commands(&state, s);
            if !to_act.contains(&s) {
                if !legal.is_empty() {
                    return Err(fail(format!("{s} is not to act but has {legal:?}")));
                }
                continue;
            }
            if legal.is_empty() {
                return Err(fail(format!("{s} is to act but has no legal command")));
            }
            for command in &legal {
                let json = serde_json::to_string(command).map_err(|e| fail(e.to_string()))?;
                let back: R::Command = serde_json::from_str(&json)
                    .map_err(|e| fail(format!("{json} does not parse back: {e}")))?;
                if &back != command {
                    return Err(fail(format!("{json} parses back differently")));
                }
                match R::decide(&state, s, command, &randomness) {
                    Ok(evs) if evs.is_empty() => {
                        return Err(fail(format!("{command:?} accepted without events")));
                    }
                    Ok(_) => {}
                    Err(e) => return Err(fail(format!("listed {command:?} refused: {e}"))),
                }
            }
            for candidate in R::candidate_commands(&state, s) {
                if !legal.contains(&candidate)
                    && R::decide(&state, s, &candidate, &randomness).is_ok()
                {
                    return Err(fail(format!("unlisted {candidate:?} accepted for {s}")));
                }
            }
        }
        if to_act.is_empty() {
            if R::result(&state).is_none() {
                return Err(fail("nobody is to act but there is no result".into()));
            }
            check_round_trip::<R>(&state).map_err(fail)?;
            return Ok((state, Playout { actions, events }));
        }
        if R::result(&state).is_some() {
            return Err(fail("a result while seats are still to act".into()));
        }
        if actions >= max_actions {
            return Err(fail(format!("no end after {max_actions} actions")));
        }
        if actions == snapshot_step {
            check_round_trip::<R>(&state).map_err(fail)?;
        }
        let seat = to_act[below(&mut chooser, to_act.len())];
        let legal = R::legal_commands(&state, seat);
        let command = &legal[below(&mut chooser, legal.len())];
        let new_events = R::decide(&state, seat, command, &randomness)
            .map_err(|e| fail(format!("listed {command:?} refused: {e}")))?;
        for event in &new_events {
            let json = serde_json::to_value(event).map_err(|e| fail(e.to_string()))?;
            if json
                .get("type")
                .and_then(serde_json::Value::as_str)
                .is_none()
            {
                return Err(fail(format!("event {json} has no \"type\"")));
            }
            let back: R::Event = serde_json::from_value(json.clone())
                .map_err(|e| fail(format!("event {json} does not parse back: {e}")))?;
            if &back != event {
                return Err(fail(format!("event {json} parses back differently")));
            }
        }
        events += new_events.len() as u64;
        apply_all::<R>(&mut state, &new_events);
        actions += 1;
    }
}

/// A state survives serialization (snapshots depend on it).
fn check_round_trip<R: Ruleset>(state: &R::State) -> Result<(), String> {
    let json = serde_json::to_string(state).map_err(|e| e.to_string())?;
    let back: R::State = serde_json::from_str(&json).map_err(|e| e.to_string())?;
    if &back == state {
        Ok(())
    } else {
        Err("state changes in a JSON round trip".into())
    }
}

/// The bots' honesty, for states `a` and `b` that differ only in what
/// `seat` cannot see: the seat's view and legal commands are the same in
/// both, and every bot level, under one seed (ISMCTS at 64 iterations),
/// sends the same command in both.
///
/// # Panics
/// When the seat sees a difference or a level decides differently.
pub fn assert_same_choices<R>(
    options: &R::Options,
    players: usize,
    seat: Seat,
    a: &R::State,
    b: &R::State,
) where
    R: crate::bots::BotRules,
    R::View: PartialEq + std::fmt::Debug,
{
    use crate::bots::{BotRng, Budget, Level, Seen, decide};
    use rand_chacha::rand_core::SeedableRng;
    let viewer = crate::ruleset::Viewer::Seat(seat);
    let (view_a, view_b) = (R::view(a, viewer), R::view(b, viewer));
    assert_eq!(view_a, view_b, "{seat} sees a difference");
    let (legal_a, legal_b) = (R::legal_commands(a, seat), R::legal_commands(b, seat));
    assert_eq!(legal_a, legal_b, "{seat} may send different commands");
    for &level in Level::ALL {
        let choose = |view, legal| {
            let seen = Seen::<R> {
                options,
                players,
                seat,
                view,
                legal,
            };
            decide(
                level,
                &seen,
                Budget::iterations(64),
                &mut BotRng::seed_from_u64(5),
            )
        };
        assert_eq!(
            choose(&view_a, &legal_a),
            choose(&view_b, &legal_b),
            "{level} decides differently for {seat}"
        );
    }
}

/// `samples` determinizations of `state` for `seat`, each checked against
/// the laws of [`crate::bots::BotRules::determinize`]: the seat's view and
/// its legal commands are those of `state`. The ruleset's own tests check
/// the rest (every card once, ...) on what this returns.
///
/// # Panics
/// When a determinization breaks a law.
pub fn determinizations<R>(
    options: &R::Options,
    players: usize,
    state: &R::State,
    seat: Seat,
    rng: &mut crate::bots::BotRng,
    samples: usize,
) -> Vec<R::State>
where
    R: crate::bots::BotRules,
    R::View: PartialEq + std::fmt::Debug,
{
    let viewer = crate::ruleset::Viewer::Seat(seat);
    let view = R::view(state, viewer);
    let legal = R::legal_commands(state, seat);
    let seen = crate::bots::Seen::<R> {
        options,
        players,
        seat,
        view: &view,
        legal: &legal,
    };
    (0..samples)
        .map(|_| {
            let d = R::determinize(&seen, rng);
            assert_eq!(R::view(&d, viewer), view, "{seat} sees another game");
            assert_eq!(
                R::legal_commands(&d, seat),
                legal,
                "{seat} may do other things"
            );
            d
        })
        .collect()
}
