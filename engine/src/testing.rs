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
            let seen = Seen::<R>::new(options, players, seat, view, legal);
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
    let seen = crate::bots::Seen::<R>::new(options, players, seat, &view, &legal);
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

/// One of three twin games for [`assert_twins_decide_alike`]: the options it
/// was created with (explicit deals included) and the state to decide in.
pub struct Twin<R: crate::Ruleset> {
    /// The game's options, as created.
    pub options: R::Options,
    /// The state the seat decides in.
    pub state: R::State,
}

/// Three games for the bots' honesty: `game`; its `twin`, which differs only
/// in what `seat` cannot see (other seats' cards, face-down cards, the deals
/// of later rounds, in the explicit deals of its options too); and a
/// `control`, which differs in one card (or hat) of the seat's own.
pub struct Twins<R: crate::Ruleset> {
    /// The seat that decides.
    pub seat: Seat,
    /// The game.
    pub game: Twin<R>,
    /// Differs from `game` only where `seat` cannot see.
    pub twin: Twin<R>,
    /// Differs from `game` in something `seat` holds.
    pub control: Twin<R>,
}

/// The seeds each level decides with in [`assert_twins_decide_alike`].
pub const TWIN_SEEDS: u64 = 8;

/// The bots' honesty over twin games. From each case's three games, the same
/// commands are played in all three (drawn, with a seed of the case, among
/// those legal in all three) until the seat has decided `points` times or
/// something it sees tells the twins apart (it drew a card, took a kitty);
/// at each of its decision points every level (ISMCTS at `iterations`),
/// under each of [`TWIN_SEEDS`] seeds, sends the same command in the game and
/// its twin. And the test can fail: at every level, in most cases the
/// control's commands differ at one of those points. Prints each level's
/// count of differing controls.
///
/// # Panics
/// When a twin decides differently, the seat sees a difference between twins
/// at its first decision, or a level's control differs in half the cases or
/// fewer.
pub fn assert_twins_decide_alike<R>(
    players: usize,
    cases: &[Twins<R>],
    points: usize,
    iterations: u32,
) where
    R: crate::bots::BotRules,
    R::View: PartialEq + std::fmt::Debug,
{
    use crate::bots::{BotRng, Budget, Level, Seen, decide};
    use rand_chacha::rand_core::SeedableRng;
    let decisions = |level: Level, seat: Seat, options: &R::Options, state: &R::State| {
        let view = R::view(state, crate::ruleset::Viewer::Seat(seat));
        let legal = R::legal_commands(state, seat);
        let seen = Seen::<R>::new(options, players, seat, &view, &legal);
        (0..TWIN_SEEDS)
            .map(|k| {
                decide(
                    level,
                    &seen,
                    Budget::iterations(iterations),
                    &mut BotRng::seed_from_u64(k),
                )
            })
            .collect::<Vec<R::Command>>()
    };
    let mut controls_differ = vec![0usize; Level::ALL.len()];
    for (i, case) in cases.iter().enumerate() {
        let seat = case.seat;
        let viewer = crate::ruleset::Viewer::Seat(seat);
        let options = [
            &case.game.options,
            &case.twin.options,
            &case.control.options,
        ];
        let mut states = [
            case.game.state.clone(),
            case.twin.state.clone(),
            case.control.state.clone(),
        ];
        let randomness = Randomness::from_seed(&format!("twins {i}"));
        let mut script = rand_chacha::ChaCha8Rng::seed_from_u64(i as u64);
        let mut differs = vec![false; Level::ALL.len()];
        let mut decided = 0;
        for _ in 0..10_000 {
            let to_act = R::to_act(&states[0]);
            if to_act.is_empty() || states.iter().any(|s| R::to_act(s) != to_act) {
                break;
            }
            if to_act.contains(&seat) && !R::legal_commands(&states[0], seat).is_empty() {
                let same = R::view(&states[0], viewer) == R::view(&states[1], viewer);
                assert!(
                    same || decided > 0,
                    "case {i}: {seat} sees a difference between the twins"
                );
                if !same {
                    break;
                }
                for (l, &level) in Level::ALL.iter().enumerate() {
                    let mine = decisions(level, seat, options[0], &states[0]);
                    assert_eq!(
                        mine,
                        decisions(level, seat, options[1], &states[1]),
                        "case {i}: {level} decides differently in the twin for {seat}"
                    );
                    differs[l] |= mine != decisions(level, seat, options[2], &states[2]);
                }
                decided += 1;
                if decided == points {
                    break;
                }
            }
            let actor = to_act[crate::random::below(&mut script, to_act.len())];
            let common: Vec<R::Command> = R::legal_commands(&states[0], actor)
                .into_iter()
                .filter(|c| {
                    states[1..]
                        .iter()
                        .all(|s| R::legal_commands(s, actor).contains(c))
                })
                .collect();
            if common.is_empty() {
                break;
            }
            let command = &common[crate::random::below(&mut script, common.len())];
            let Ok(events) = states
                .iter()
                .map(|s| R::decide(s, actor, command, &randomness))
                .collect::<Result<Vec<_>, _>>()
            else {
                break;
            };
            for (state, events) in states.iter_mut().zip(&events) {
                apply_all::<R>(state, events);
            }
        }
        for (count, d) in controls_differ.iter_mut().zip(differs) {
            *count += usize::from(d);
        }
    }
    for (&level, &count) in Level::ALL.iter().zip(&controls_differ) {
        println!(
            "{} ({players} players), {level}: the control differs in {count} of {} cases",
            R::ID,
            cases.len()
        );
        assert!(
            2 * count > cases.len(),
            "{level}: the control differs in only {count} of {} cases",
            cases.len()
        );
    }
}

/// For twin games of an explicit deal given as `piles` (one per seat, seat
/// order, then the face-down piles: a kitty, a deck, left-over cards), where
/// `me` decides: the twin's piles (a card of one place `me` cannot see
/// exchanged with one of another) and the control's (a card of `me`'s hand
/// exchanged with the next seat's). Cards in `public` never move.
///
/// # Panics
/// When fewer than two hidden places hold a card that may move.
pub fn twin_piles<C: Copy + PartialEq>(
    piles: &[Vec<C>],
    players: usize,
    me: Seat,
    public: &[C],
    rng: &mut impl rand::RngCore,
) -> (Vec<Vec<C>>, Vec<Vec<C>>) {
    let movable = |p: usize| piles[p].iter().filter(|c| !public.contains(c)).count();
    let hidden: Vec<usize> = (0..piles.len())
        .filter(|&p| p != me.index() && movable(p) > 0)
        .collect();
    let from = hidden[crate::random::below(rng, hidden.len())];
    let others: Vec<usize> = hidden.iter().copied().filter(|&p| p != from).collect();
    let to = others[crate::random::below(rng, others.len())];
    let mut twin = piles.to_vec();
    exchange(&mut twin, from, to, public, rng);
    let mut control = piles.to_vec();
    exchange(
        &mut control,
        me.index(),
        (me.index() + 1) % players,
        public,
        rng,
    );
    (twin, control)
}

/// Exchanges a card of `piles[a]` with one of `piles[b]` (none of `public`).
fn exchange<C: Copy + PartialEq>(
    piles: &mut [Vec<C>],
    a: usize,
    b: usize,
    public: &[C],
    rng: &mut impl rand::RngCore,
) {
    let free = |pile: &[C]| -> Vec<usize> {
        (0..pile.len())
            .filter(|&i| !public.contains(&pile[i]))
            .collect()
    };
    let (free_a, free_b) = (free(&piles[a]), free(&piles[b]));
    let i = free_a[crate::random::below(rng, free_a.len())];
    let j = free_b[crate::random::below(rng, free_b.len())];
    let card = piles[a][i];
    piles[a][i] = piles[b][j];
    piles[b][j] = card;
}
