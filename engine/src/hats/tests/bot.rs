//! The bots: given what a seat sees, when a bot decides, then its
//! determinizations agree with the view, it cannot tell apart games that look
//! the same, and greedy beats random.

use crate::testing::{
    Twin, Twins, assert_same_choices, assert_twins_decide_alike, determinizations, twin_piles,
};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use super::*;
use crate::bots::arena::{self, Table};
use crate::bots::{BotRng, BotRules, Level, Seen};
use crate::hats::HatsView;
use crate::hats::state::Step;
use crate::random::below;
use crate::ruleset::{Viewer, seat};

/// Determinizations drawn at every decision point.
const SAMPLES: usize = 3;

/// Options with `first_seat` chosen by the seed.
fn options(players: usize, seed: u64) -> HatsOptions {
    HatsOptions {
        first_seat: u8::try_from(seed % players as u64).unwrap(),
        deals: vec![],
    }
}

/// Plays random commands from `state` to the end.
fn finish(mut state: HatsState, chooser: &mut ChaCha8Rng) -> HatsState {
    for _ in 0..10_000 {
        let Some(&s) = Hats::to_act(&state).first() else {
            return state;
        };
        let legal = Hats::legal_commands(&state, s);
        let command = legal[below(chooser, legal.len())];
        let events = Hats::decide(&state, s, &command, &rng()).unwrap();
        apply_all::<Hats>(&mut state, &events);
    }
    panic!("no end");
}

/// Every decision point of a random game: (state, seat to decide).
fn decision_points(players: usize, options: &HatsOptions, seed: u64) -> Vec<(HatsState, Seat)> {
    let mut chooser = ChaCha8Rng::seed_from_u64(seed);
    let randomness = Randomness::from_seed(&format!("bot-{seed}"));
    let mut state = Hats::new_game(players, options.clone()).unwrap();
    let opening = Hats::start(&state, &randomness);
    apply_all::<Hats>(&mut state, &opening);
    let mut points = Vec::new();
    while let Some(&s) = Hats::to_act(&state).first() {
        points.push((state.clone(), s));
        let legal = Hats::legal_commands(&state, s);
        let command = legal[below(&mut chooser, legal.len())];
        let events = Hats::decide(&state, s, &command, &randomness).unwrap();
        apply_all::<Hats>(&mut state, &events);
    }
    points
}

/// Every card of `state`, sorted: the line, hands, collections, black hats,
/// deck and discard pile.
fn all_cards(state: &HatsState) -> Vec<Card> {
    let mut out: Vec<Card> = state
        .line
        .iter()
        .chain(state.hands.iter().flatten())
        .chain(state.collections.iter().flatten())
        .chain(state.black_hats.iter().flatten())
        .chain(&state.deck)
        .chain(&state.discard)
        .copied()
        .collect();
    out.sort();
    out
}

/// What `seat` is told in `state`.
fn seen_of<'a>(
    options: &'a HatsOptions,
    state: &HatsState,
    seat: Seat,
    view: &'a HatsView,
    legal: &'a [HatsCommand],
) -> Seen<'a, Hats> {
    Seen::new(options, state.player_count(), seat, view, legal)
}

/// Asserts the laws of `determinize` for `seat` in `state`: the seat's view
/// and legal commands are the same, every card in play is somewhere exactly
/// once, and (when `finish_it`) a random playout from it ends with a result.
fn check_laws(
    state: &HatsState,
    options: &HatsOptions,
    s: Seat,
    rng: &mut BotRng,
    finish_it: bool,
) {
    let in_play: Vec<Card> = cards_in_play(state.player_count()).collect();
    let samples = determinizations::<Hats>(options, state.player_count(), state, s, rng, SAMPLES);
    for (k, d) in samples.into_iter().enumerate() {
        assert_eq!(Hats::to_act(&d), Hats::to_act(state));
        assert_eq!(all_cards(&d), in_play, "cards lost or made up");
        if let Some(offered) = d.offered {
            assert!(d.hands[usize::from(d.current)].contains(&offered));
        }
        if finish_it && k == 0 {
            let end = finish(d, &mut ChaCha8Rng::seed_from_u64(k as u64));
            assert!(Hats::result(&end).is_some());
        }
    }
}

#[test]
fn given_any_decision_point_of_random_games_then_determinizations_keep_the_view_and_the_legal_commands()
 {
    for players in 2..=4 {
        for seed in 0..6 {
            let options = options(players, seed);
            let mut rng = BotRng::seed_from_u64(seed);
            for (i, (state, s)) in decision_points(players, &options, seed).iter().enumerate() {
                check_laws(state, &options, *s, &mut rng, i % 4 == 0);
            }
        }
    }
}

#[test]
fn given_a_swap_offer_then_the_answering_partner_determinizes_an_offer_from_the_offerers_hand() {
    let mut state = game(4, 0, deal(4, "T1 T2 T3 T4 T5 T6", &["S1 S2"], ""));
    play(&mut state, 0, offer_swap("S1"));
    let options = options(4, 0);
    let mut rng = BotRng::seed_from_u64(3);
    check_laws(&state, &options, Seat(2), &mut rng, true);
    let view = Hats::view(&state, Viewer::Seat(Seat(2)));
    let legal = Hats::legal_commands(&state, Seat(2));
    let seen = seen_of(&options, &state, Seat(2), &view, &legal);
    let offers: Vec<Card> = (0..40)
        .filter_map(|_| Hats::determinize(&seen, &mut rng).offered)
        .collect();
    assert_eq!(offers.len(), 40);
    assert!(
        offers.iter().any(|&o| o != c("S1")),
        "the offer is guessed, not known"
    );
}

/// `state` with every card `s` cannot see moved one place along: other
/// seats' hands, their black hats, the discard pile and the deck, in turn.
/// An offer `s` cannot see stays the card at the offered place.
fn reshuffled(state: &HatsState, s: Seat) -> HatsState {
    let mut other = state.clone();
    let offered_at = state.offered.and_then(|o| {
        let hand = &state.hands[usize::from(state.current)];
        hand.iter().position(|&c| c == o)
    });
    let hidden_seats: Vec<usize> = (0..state.player_count())
        .filter(|&i| i != s.index())
        .collect();
    let mut places: Vec<&mut Card> = Vec::new();
    let (hands, black_hats) = (&mut other.hands, &mut other.black_hats);
    for (i, hand) in hands.iter_mut().enumerate() {
        if hidden_seats.contains(&i) {
            places.extend(hand.iter_mut());
        }
    }
    for (i, black) in black_hats.iter_mut().enumerate() {
        if hidden_seats.contains(&i) {
            places.extend(black.iter_mut());
        }
    }
    places.extend(other.discard.iter_mut());
    places.extend(other.deck.iter_mut());
    let cards: Vec<Card> = places.iter().map(|c| **c).collect();
    for (j, place) in places.into_iter().enumerate() {
        *place = cards[(j + 1) % cards.len()];
    }
    if state.step == Step::AnsweringSwap && s != state.current_seat() {
        other.offered = offered_at.map(|i| other.hands[usize::from(other.current)][i]);
    }
    other
}

#[test]
fn given_two_games_that_differ_only_in_hidden_cards_then_every_level_decides_the_same() {
    let mut differing = 0;
    for players in 2..=4 {
        let options = options(players, 1);
        let points = decision_points(players, &options, 21 + players as u64);
        for (state, s) in points.iter().step_by(points.len() / 8) {
            let other = reshuffled(state, *s);
            differing += usize::from(other != *state);
            assert_same_choices::<Hats>(&options, players, *s, state, &other);
        }
    }
    assert!(differing > 15, "only {differing} states differed");
}

/// Twin games of an explicit deal for the seat that starts (see
/// [`twin_piles`]: the piles are the hands, then the deck).
fn deal_twins(players: usize, case: u64) -> Twins<Hats> {
    let mut swaps = ChaCha8Rng::seed_from_u64(case);
    let first_seat = u8::try_from(case % players as u64).unwrap();
    let mut shuffled = Hats::new_game(players, HatsOptions::default()).unwrap();
    let opening = Hats::start(&shuffled, &Randomness::from_seed(&format!("twin {case}")));
    apply_all::<Hats>(&mut shuffled, &opening);
    let game_of = |piles: &[Vec<Card>]| {
        let deal = Deal {
            line: shuffled.line.clone(),
            hands: piles[..players].to_vec(),
            deck: piles[players].clone(),
        };
        let options = HatsOptions {
            first_seat,
            deals: vec![deal],
        };
        let mut state = Hats::new_game(players, options.clone()).unwrap();
        let opening = Hats::start(&state, &rng());
        apply_all::<Hats>(&mut state, &opening);
        Twin { options, state }
    };
    let mut piles = shuffled.hands.clone();
    piles.push(shuffled.deck.clone());
    let game = game_of(&piles);
    let me = Hats::to_act(&game.state)[0];
    let (twin, control) = twin_piles(&piles, players, me, &[], &mut swaps);
    Twins {
        seat: me,
        game,
        twin: game_of(&twin),
        control: game_of(&control),
    }
}

#[test]
fn given_twin_games_of_explicit_deals_then_every_level_decides_the_same_and_a_changed_own_hand_differs()
 {
    for players in 2..=4 {
        let cases: Vec<Twins<Hats>> = (0..12).map(|k| deal_twins(players, k)).collect();
        assert_twins_decide_alike::<Hats>(players, &cases, 4, 64);
    }
}

#[test]
fn given_any_decision_point_then_greedy_sends_a_legal_command_and_the_same_one_for_the_same_seed() {
    for players in 2..=4 {
        let options = options(players, 2);
        for (state, s) in decision_points(players, &options, 3).iter().step_by(2) {
            let view = Hats::view(state, Viewer::Seat(*s));
            let legal = Hats::legal_commands(state, *s);
            let seen = seen_of(&options, state, *s, &view, &legal);
            let a = Hats::greedy(&seen, &mut BotRng::seed_from_u64(9));
            let b = Hats::greedy(&seen, &mut BotRng::seed_from_u64(9));
            assert!(legal.contains(&a), "{a:?} is not legal");
            assert_eq!(a, b);
        }
    }
}

#[test]
fn given_an_exchange_that_scores_and_keeps_a_good_favourite_then_greedy_makes_it() {
    // C5 at position 5 scores 4 (C's face-up card stays at position 4) and
    // the club C1 kept as favourite scores 5 - 1; the cookie comes with any
    // main action.
    let d = deal(2, "T1 S2 H3 C4 C5", &["D1 C6 C1 T2 S1 S3 H1 H2 T3"], "D2");
    let mut state = game(2, 0, d);
    play(&mut state, 0, discard_draw("D1"));
    let options = options(2, 0);
    let view = Hats::view(&state, Viewer::Seat(Seat(0)));
    let legal = Hats::legal_commands(&state, Seat(0));
    let seen = seen_of(&options, &state, Seat(0), &view, &legal);
    for seed in 0..5 {
        assert_eq!(
            Hats::greedy(&seen, &mut BotRng::seed_from_u64(seed)),
            exchange("C6", 5)
        );
    }
}

/// Over `games` seeded arena games of `players` with one greedy seat
/// (rotating) and random others: (greedy won, greedy lost).
fn greedy_against_random(players: usize, games: u64) -> (u32, u32) {
    let (mut wins, mut losses) = (0, 0);
    for seed in 0..games {
        let mine = (seed % players as u64) as usize;
        let seats: Vec<Level> = (0..players)
            .map(|i| {
                if i == mine {
                    Level::Greedy
                } else {
                    Level::Random
                }
            })
            .collect();
        let played = arena::play::<Hats>(
            &HatsOptions::default(),
            Table {
                seats: &seats,
                iterations: 1,
                think_limit: None,
            },
            seed,
        )
        .unwrap();
        if played.result.winners.contains(&seat(mine)) {
            wins += 1;
        } else {
            losses += 1;
        }
    }
    (wins, losses)
}

#[test]
fn given_forty_seeded_games_then_greedy_beats_random_clearly() {
    let (wins, losses) = greedy_against_random(2, 40);
    eprintln!("greedy vs random: {wins} won, {losses} lost of 40");
    assert!(wins >= 34, "{wins} won, {losses} lost");
}

#[test]
fn given_twenty_seeded_three_player_games_then_greedy_wins_most() {
    let (wins, losses) = greedy_against_random(3, 20);
    eprintln!("greedy vs 2 random: {wins} won, {losses} lost of 20");
    assert!(wins >= 14, "{wins} won, {losses} lost");
}
