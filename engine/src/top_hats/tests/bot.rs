//! The bots: given what a seat sees, when a bot decides, then its
//! determinizations agree with the view, it cannot tell apart games that look
//! the same, and greedy beats random.

use crate::testing::{
    Twin, Twins, assert_same_choices, assert_twins_decide_alike, determinizations,
};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use super::*;
use crate::bots::arena::{self, Table};
use crate::bots::{BotRng, BotRules, Level, Seen};
use crate::random::below;
use crate::ruleset::{Viewer, seat};
use crate::top_hats::board::{Stack, cells_of};
use crate::top_hats::state::{Phase, STACKS};

/// Determinizations drawn at every decision point.
const SAMPLES: usize = 3;

/// The seats with something to do.
fn deciders(state: &State) -> Vec<Seat> {
    TopHats::to_act(state)
        .into_iter()
        .filter(|&s| !TopHats::legal_commands(state, s).is_empty())
        .collect()
}

/// Plays a game with random commands from `state` to its end.
fn finish(mut state: State, chooser: &mut ChaCha8Rng) -> State {
    for _ in 0..100_000 {
        let to_act = TopHats::to_act(&state);
        if to_act.is_empty() {
            return state;
        }
        let s = to_act[below(chooser, to_act.len())];
        let legal = TopHats::legal_commands(&state, s);
        let command = &legal[below(chooser, legal.len())];
        let events = TopHats::decide(&state, s, command, &rng()).unwrap();
        apply_all::<TopHats>(&mut state, &events);
    }
    panic!("no end");
}

/// Every decision point of a random game: (state, seat to decide).
fn decision_points(players: usize, options: &Options, seed: u64) -> Vec<(State, Seat)> {
    let mut chooser = ChaCha8Rng::seed_from_u64(seed);
    let mut state = TopHats::new_game(players, options.clone()).unwrap();
    let opening = TopHats::start(&state, &rng());
    apply_all::<TopHats>(&mut state, &opening);
    let mut points = Vec::new();
    loop {
        let to_act = deciders(&state);
        if to_act.is_empty() {
            return points;
        }
        for &s in &to_act {
            points.push((state.clone(), s));
        }
        let s = to_act[below(&mut chooser, to_act.len())];
        let legal = TopHats::legal_commands(&state, s);
        let command = &legal[below(&mut chooser, legal.len())];
        let events = TopHats::decide(&state, s, command, &rng()).unwrap();
        apply_all::<TopHats>(&mut state, &events);
    }
}

/// Per colour: the hats on the board (hidden ones included), built into
/// stacks not yet placed, and left in the pools.
fn hats_in_play(state: &State) -> [u32; 3] {
    let mut n = [0u32; 3];
    for c in cells_of(state.board.occupied()) {
        for &h in state.board.get(c).unwrap().hats() {
            if let Some(x) = n.get_mut(usize::from(h)) {
                *x += 1;
            }
        }
    }
    for s in 0..state.player_count() {
        for (x, &p) in n.iter_mut().zip(&state.pools[s]) {
            *x += u32::from(p);
        }
        for k in 0..STACKS {
            if usize::from(state.built_count[s]) > k && state.placed[s] & (1 << k) == 0 {
                for &h in &state.built[s][k] {
                    n[usize::from(h)] += 1;
                }
            }
        }
    }
    n
}

/// Asserts the laws of `determinize` for `seat` in `state`: the seat's view
/// and legal commands are the same, every hat of a built game is accounted
/// for, and (when `finish_it`) a random playout from it ends.
fn check_laws(state: &State, options: &Options, seat: Seat, rng: &mut BotRng, finish_it: bool) {
    let samples =
        determinizations::<TopHats>(options, state.player_count(), state, seat, rng, SAMPLES);
    for (k, d) in samples.into_iter().enumerate() {
        assert_eq!(TopHats::to_act(&d), TopHats::to_act(state));
        if options.position.is_none() {
            let total: Vec<u32> = hats_in_play(&d)
                .iter()
                .zip(&d.removed)
                .map(|(&n, &r)| n + u32::from(r))
                .take(state.player_count())
                .collect();
            assert_eq!(
                total,
                vec![15; state.player_count()],
                "hats lost or made up in {:?}: {:?} for {seat}",
                d.phase,
                TopHats::view(state, Viewer::Auditor).board
            );
        }
        if finish_it && k == 0 {
            let end = finish(d, &mut ChaCha8Rng::seed_from_u64(k as u64));
            assert!(TopHats::result(&end).is_some());
        }
    }
}

#[test]
fn given_any_decision_point_of_random_games_then_determinizations_keep_the_view_and_the_legal_commands()
 {
    for players in 2..=3 {
        for seed in 0..8 {
            let options = Options::default();
            let mut rng = BotRng::seed_from_u64(seed);
            for (i, (state, s)) in decision_points(players, &options, seed).iter().enumerate() {
                check_laws(state, &options, *s, &mut rng, i % 4 == 0);
            }
        }
    }
}

#[test]
fn given_a_preset_position_then_determinizations_keep_the_view_and_the_legal_commands() {
    let options = options("d4=n b2=bbr c3=yrb d3=brr@1 e5=rby f6=b c6=r c5=ryb", 0);
    for players in [3] {
        for seed in 0..20 {
            let mut rng = BotRng::seed_from_u64(seed);
            for (state, s) in decision_points(players, &options, seed) {
                check_laws(&state, &options, s, &mut rng, true);
            }
        }
    }
    let options = super::options("d4=n b2=bbr c3=rrb d3=brr e5=rbb f6=b c6=r", 1);
    for seed in 0..20 {
        let mut rng = BotRng::seed_from_u64(seed);
        for (state, s) in decision_points(2, &options, seed) {
            check_laws(&state, &options, s, &mut rng, true);
        }
    }
}

#[test]
fn given_a_chain_that_removed_a_hat_then_determinizations_say_so() {
    let (mut state, _) = given(2, "d4=n c3=bbr d3=rrb f3=b b6=r", 0);
    when(&mut state, 0, jump("c3", "e3"));
    assert!(state.chain.unwrap().removed);
    let view = TopHats::view(&state, Viewer::Seat(Seat(0)));
    let legal = TopHats::legal_commands(&state, Seat(0));
    let opts = options("d4=n c3=bbr d3=rrb f3=b b6=r", 0);
    let seen = Seen::<TopHats>::new(&opts, 2, Seat(0), &view, &legal);
    let d = TopHats::determinize(&seen, &mut BotRng::seed_from_u64(1));
    assert_eq!(d.chain, state.chain);
}

/// `state` with the hats `seat` cannot see dealt differently among each
/// other builder's stacks (a rotation of each builder's hidden hats).
fn reshuffled(state: &State, seat: Seat) -> State {
    let mut s = state.clone();
    for b in (0..state.player_count()).filter(|&b| b != seat.index()) {
        let cells: Vec<_> = cells_of(state.board.occupied())
            .filter(|&c| state.board.get(c).unwrap().builder == b as u8)
            .collect();
        let places: Vec<(usize, usize)> = cells
            .iter()
            .enumerate()
            .flat_map(|(k, &c)| {
                (0..usize::from(state.board.get(c).unwrap().len) - 1).map(move |i| (k, i))
            })
            .collect();
        let mut stacks: Vec<Stack> = cells
            .iter()
            .map(|&c| *state.board.get(c).unwrap())
            .collect();
        for (j, &(k, i)) in places.iter().enumerate() {
            let (k2, i2) = places[(j + 1) % places.len()];
            stacks[k].hats[i] = state.board.get(cells[k2]).unwrap().hats[i2];
        }
        for (&c, st) in cells.iter().zip(stacks) {
            s.board.put(c, st);
        }
        // Stacks built and not yet placed: rotate their under-hats.
        let unplaced: Vec<usize> = (0..usize::from(state.built_count[b]).min(STACKS))
            .filter(|&k| state.placed[b] & (1 << k) == 0)
            .collect();
        let hats: Vec<u8> = unplaced
            .iter()
            .flat_map(|&k| state.built[b][k][..2].to_vec())
            .collect();
        for (j, &k) in unplaced.iter().enumerate() {
            for i in 0..2 {
                s.built[b][k][i] = hats[(2 * j + i + 1) % hats.len()];
            }
        }
    }
    s
}

#[test]
fn given_two_games_that_differ_only_in_hidden_hats_then_every_level_decides_the_same() {
    let options = Options::default();
    let mut differing = 0;
    for players in 2..=3 {
        let points = decision_points(players, &options, 11 + players as u64);
        for (state, s) in points.iter().step_by(points.len() / 12) {
            let other = reshuffled(state, *s);
            differing += usize::from(other != *state);
            assert_same_choices::<TopHats>(&options, players, *s, state, &other);
        }
    }
    assert!(differing > 10, "only {differing} states differed");
}

/// `state` where `seat` built its first stack with another hat under its top
/// (one of another colour from what is left of its pool): a difference only
/// `seat` sees, and its legal builds change with its pool. `None` when its
/// pool holds no other colour.
fn own_stack_changed(state: &State, seat: Seat) -> Option<State> {
    let me = seat.index();
    let mut s = state.clone();
    let under = s.built[me][0][0];
    let other = (0..3u8).find(|&c| c != under && s.pools[me][usize::from(c)] > 0)?;
    s.built[me][0][0] = other;
    s.pools[me][usize::from(other)] -= 1;
    s.pools[me][usize::from(under)] += 1;
    Some(s)
}

#[test]
fn given_twin_games_while_building_then_every_level_decides_the_same_and_a_changed_own_stack_differs()
 {
    // Top Hats has no explicit deals (a preset position is public): the
    // twins differ in the hats other seats built under their tops.
    let options = Options::default();
    for players in 2..=3 {
        let mut cases = Vec::new();
        for seed in 0..40u64 {
            let points = decision_points(players, &options, 300 + seed);
            let building = points.iter().filter(|(state, s)| {
                state.phase == Phase::Building
                    && state.built_count[s.index()] >= 3
                    && (0..players).all(|b| state.built_count[b] >= 1)
            });
            for (state, s) in building.skip(usize::try_from(seed % 3).unwrap()).take(1) {
                let Some(control) = own_stack_changed(state, *s) else {
                    continue;
                };
                let twin = reshuffled(state, *s);
                if twin == *state {
                    continue;
                }
                let game = |state: State| Twin {
                    options: options.clone(),
                    state,
                };
                cases.push(Twins {
                    seat: *s,
                    game: game(state.clone()),
                    twin: game(twin),
                    control: game(control),
                });
            }
            if cases.len() == 12 {
                break;
            }
        }
        assert_eq!(cases.len(), 12, "too few building states");
        assert_twins_decide_alike::<TopHats>(players, &cases, 4, 64);
    }
}

#[test]
fn given_any_decision_point_then_greedy_sends_a_legal_command_and_the_same_one_for_the_same_seed() {
    let options = Options::default();
    for players in 2..=3 {
        for (state, s) in decision_points(players, &options, 3).iter().step_by(3) {
            let view = TopHats::view(state, Viewer::Seat(*s));
            let legal = TopHats::legal_commands(state, *s);
            let seen = Seen::<TopHats>::new(&options, players, *s, &view, &legal);
            let a = TopHats::greedy(&seen, &mut BotRng::seed_from_u64(9));
            let b = TopHats::greedy(&seen, &mut BotRng::seed_from_u64(9));
            assert!(legal.contains(&a), "{a:?} is not legal");
            assert_eq!(a, b);
        }
    }
}

#[test]
fn given_two_captures_then_greedy_takes_the_one_that_gives_it_the_stack() {
    // Red must capture d3 (a red hat under the blue top: the stack turns red)
    // or c4 (blue under blue: the stack stays blue). Red built both, so it
    // sees under them.
    let spec = "d4=n c3=bbr d3=rb@0 c4=bb@0 g7=b";
    let (state, _) = given(2, spec, 0);
    let view = TopHats::view(&state, Viewer::Seat(Seat(0)));
    let legal = TopHats::legal_commands(&state, Seat(0));
    assert_eq!(legal.len(), 2);
    let opts = options(spec, 0);
    let seen = Seen::<TopHats>::new(&opts, 2, Seat(0), &view, &legal);
    for seed in 0..5 {
        assert_eq!(
            TopHats::greedy(&seen, &mut BotRng::seed_from_u64(seed)),
            jump("c3", "e3")
        );
    }
}

#[test]
fn given_forty_seeded_games_then_greedy_beats_random_clearly() {
    let options = Options::default();
    let mut wins = 0;
    let mut losses = 0;
    for seed in 0..40u64 {
        let seats = if seed % 2 == 0 {
            [Level::Greedy, Level::Random]
        } else {
            [Level::Random, Level::Greedy]
        };
        let played = arena::play::<TopHats>(
            &options,
            Table {
                seats: &seats,
                iterations: 1,
                think_limit: None,
            },
            seed,
        )
        .unwrap();
        let greedy = seat((seed % 2) as usize);
        if played.result.winners.contains(&greedy) {
            wins += 1;
        } else if !played.result.winners.is_empty() {
            losses += 1;
        }
    }
    eprintln!("greedy vs random: {wins} won, {losses} lost of 40");
    assert!(wins >= 30 && losses <= 3, "{wins} won, {losses} lost");
}
