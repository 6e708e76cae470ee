//! The bots: given what a seat sees, when a bot decides, then its
//! determinizations agree with the view, it cannot tell apart games that look
//! the same, and greedy beats random.

use crate::hat_trick::rules;
use crate::testing::{
    Twin, Twins, assert_same_choices, assert_twins_decide_alike, determinizations, twin_piles,
};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use super::property::variant;
use super::*;
use crate::bots::arena::{self, Table};
use crate::bots::{BotRng, BotRules, Level, Seen};
use crate::hat_trick::cards::Suit;
use crate::random::below;
use crate::ruleset::{Seat, Viewer, seat};

/// Determinizations drawn at every decision point.
const SAMPLES: usize = 3;

/// Plays a game with random commands from `state` to its end.
fn finish(mut state: HatTrickState, chooser: &mut ChaCha8Rng) -> HatTrickState {
    for _ in 0..10_000 {
        let Some(&s) = HatTrick::to_act(&state).first() else {
            return state;
        };
        let legal = HatTrick::legal_commands(&state, s);
        let command = &legal[below(chooser, legal.len())];
        let events = HatTrick::decide(&state, s, command, &rng()).unwrap();
        apply_all::<HatTrick>(&mut state, &events);
    }
    panic!("no end");
}

/// Every decision point of a random game: (state, seat to decide).
fn decision_points(
    players: usize,
    options: &HatTrickOptions,
    seed: u64,
) -> Vec<(HatTrickState, Seat)> {
    let mut chooser = ChaCha8Rng::seed_from_u64(seed);
    let randomness = Randomness::from_seed(&format!("bot points {seed}"));
    let mut state = HatTrick::new_game(players, options.clone()).unwrap();
    let opening = HatTrick::start(&state, &randomness);
    apply_all::<HatTrick>(&mut state, &opening);
    let mut points = Vec::new();
    while let Some(&s) = HatTrick::to_act(&state).first() {
        points.push((state.clone(), s));
        let legal = HatTrick::legal_commands(&state, s);
        let command = &legal[below(&mut chooser, legal.len())];
        let events = HatTrick::decide(&state, s, command, &randomness).unwrap();
        apply_all::<HatTrick>(&mut state, &events);
    }
    points
}

/// The cards of a state that are still somewhere in the deal: hands, the
/// left-over cards and the trick; asserts no card is in two places.
fn cards_in_deal(state: &HatTrickState) -> u64 {
    let places = state
        .hands
        .iter()
        .map(|h| h.0)
        .chain(state.left.iter().map(|c| c.bit()))
        .chain(state.trick.iter().map(|p| p.card.bit()));
    places.fold(0, |all, m| {
        assert_eq!(all & m, 0, "a card in two places");
        all | m
    })
}

/// Asserts the laws of `determinize` for `seat` in `state`: the seat's view
/// and legal commands are the same, every card comes from the deck once, and
/// (when `finish_it`) a random playout from it ends with a result.
fn check_laws(
    state: &HatTrickState,
    options: &HatTrickOptions,
    seat: Seat,
    rng: &mut BotRng,
    finish_it: bool,
) {
    let samples = determinizations::<HatTrick>(options, state.n(), state, seat, rng, SAMPLES);
    for (k, d) in samples.into_iter().enumerate() {
        let deck = state.table().deck.0;
        assert_eq!(cards_in_deal(&d) & !deck, 0, "a card from outside the deck");
        if finish_it && k == 0 {
            let end = finish(d, &mut ChaCha8Rng::seed_from_u64(k as u64));
            assert!(HatTrick::result(&end).is_some());
        }
    }
}

#[test]
fn given_any_decision_point_of_random_games_then_determinizations_keep_the_view_and_the_legal_commands()
 {
    for players in 2..=6 {
        for seed in 0..3u64 {
            let options = HatTrickOptions {
                rounds: Some(2),
                ..HatTrickOptions::default()
            };
            let mut rng = BotRng::seed_from_u64(seed);
            for (i, (state, s)) in decision_points(players, &options, seed).iter().enumerate() {
                check_laws(state, &options, *s, &mut rng, i % 5 == 0);
            }
        }
    }
}

#[test]
fn given_every_variant_then_determinizations_keep_the_view_and_the_legal_commands() {
    // The variants of the property tests: cycle trump, the negative modes,
    // colour rules, `joker_by_trick`, `no_joker`.
    for i in 0..48u64 {
        let players = 2 + (i % 5) as usize;
        let options = variant(players, i * 3 + 1);
        let mut rng = BotRng::seed_from_u64(i);
        for (j, (state, s)) in decision_points(players, &options, 100 + i)
            .iter()
            .enumerate()
        {
            check_laws(state, &options, *s, &mut rng, j % 11 == 0);
        }
    }
}

#[test]
fn given_an_explicit_deal_then_determinizations_keep_the_view_and_the_legal_commands() {
    for players in 2..=6 {
        let options = HatTrickOptions {
            rounds: Some(1),
            deals: vec![shuffled_deal(players, 0, 3)],
            ..HatTrickOptions::default()
        };
        let mut rng = BotRng::seed_from_u64(players as u64);
        for (state, s) in decision_points(players, &options, 7) {
            check_laws(&state, &options, s, &mut rng, false);
        }
    }
}

/// Deal `round` of a `players`-seat game shuffled from `seed`, as an
/// explicit deal.
fn shuffled_deal(players: usize, round: u8, seed: u64) -> Deal {
    let state = HatTrick::new_game(players, HatTrickOptions::default()).unwrap();
    let dealt = rules::deal(
        &state,
        round,
        &Randomness::from_seed(&format!("twin deal {seed}")),
    );
    Deal {
        hands: dealt.hands.iter().map(|h| h.cards().collect()).collect(),
        left: dealt.left,
        indicator: dealt.indicator,
    }
}

/// `piles` with the lowest card of pile `me` exchanged for the highest of
/// another seat's hand (none of `public`, no joker): a change the seat sees,
/// large enough that even the greedy player's cheap discards change.
fn weakest_for_strongest(
    piles: &[Vec<Card>],
    players: usize,
    me: usize,
    public: &[Card],
) -> Vec<Vec<Card>> {
    let free = |c: &Card| !public.contains(c) && c.suit().is_some();
    let mine = (0..piles[me].len())
        .filter(|&i| free(&piles[me][i]))
        .min_by_key(|&i| piles[me][i].rank());
    let theirs = (0..players)
        .filter(|&p| p != me)
        .flat_map(|p| (0..piles[p].len()).map(move |j| (p, j)))
        .filter(|&(p, j)| free(&piles[p][j]))
        .max_by_key(|&(p, j)| piles[p][j].rank());
    let mut out = piles.to_vec();
    if let (Some(i), Some((p, j))) = (mine, theirs) {
        let card = out[me][i];
        out[me][i] = out[p][j];
        out[p][j] = card;
    }
    out
}

/// Twin games of two explicit deals for the first seat to play (see
/// [`twin_piles`]): the twin also has another deal 1.
fn deal_twins(players: usize, case: u64) -> Twins<HatTrick> {
    let mut rng = ChaCha8Rng::seed_from_u64(case);
    let first = shuffled_deal(players, 0, case);
    let second = shuffled_deal(players, 1, case + 1000);
    let game_of = |piles: Vec<Vec<Card>>, second: Deal| {
        let mut hands = piles;
        let left = hands.pop().unwrap_or_default();
        let deal = Deal {
            hands,
            left,
            indicator: first.indicator,
        };
        let options = HatTrickOptions {
            rounds: Some(2),
            deals: vec![deal, second],
            ..HatTrickOptions::default()
        };
        Twin {
            state: started(players, options.clone()),
            options,
        }
    };
    let mut piles = first.hands.clone();
    piles.push(first.left.clone());
    let game = game_of(piles.clone(), second.clone());
    let me = HatTrick::to_act(&game.state)[0];
    let public: Vec<Card> = first.indicator.into_iter().collect();
    let (twin, _) = twin_piles(&piles, players, me, &public, &mut rng);
    let control = weakest_for_strongest(&piles, players, me.index(), &public);
    Twins {
        seat: me,
        game,
        twin: game_of(twin, shuffled_deal(players, 1, case + 2000)),
        control: game_of(control, second),
    }
}

#[test]
fn given_twin_games_of_explicit_deals_then_every_level_decides_the_same_and_a_changed_own_hand_differs()
 {
    for players in 2..=6 {
        let cases: Vec<Twins<HatTrick>> = (0..TWIN_CASES).map(|k| deal_twins(players, k)).collect();
        assert_twins_decide_alike::<HatTrick>(players, &cases, 11, 64);
    }
}

/// Twin cases per table.
const TWIN_CASES: u64 = 16;

#[test]
fn given_a_seat_that_did_not_follow_then_determinizations_give_it_none_of_the_led_suit_nor_trump() {
    // Trump ♠; seat 0 leads 9♥, seat 1 cannot follow and plays 9♣: it has
    // neither ♥ nor ♠ (it would have had to play its highest trump).
    let mut state = given_table(
        HatTrickOptions::default(),
        &[
            "9H 10H JH QH KH AH 7D 8D 9D 10D JD",
            "7C 8C 9C 10C JC QC KC AC QD KD AD",
            "7H 8H 7S 8S 9S 10S JS QS KS AS JK",
        ],
        Trump::S,
        2,
        0,
    );
    play(&mut state, 0, "9H", false);
    play(&mut state, 1, "9C", false);
    let options = HatTrickOptions::default();
    let view = HatTrick::view(&state, Viewer::Seat(seat(2)));
    let legal = HatTrick::legal_commands(&state, seat(2));
    let seen = Seen::<HatTrick>::new(&options, 3, seat(2), &view, &legal);
    for k in 0..20 {
        let d = HatTrick::determinize(&seen, &mut BotRng::seed_from_u64(k));
        let hearts_or_trump = Suit::H.mask() | Suit::S.mask();
        assert_eq!(d.hands[1].0 & hearts_or_trump, 0, "{:?}", d.hands[1]);
        assert_eq!(d.hands[1].len(), 10);
    }
}

/// `state` with two cards `seat` cannot see swapped: between two other
/// seats' hands, or (two players) between the other hand and a face-down
/// left-over card.
fn swapped(state: &HatTrickState, seat: Seat) -> Option<HatTrickState> {
    let mut s = state.clone();
    let others: Vec<usize> = (0..state.n()).filter(|&o| o != seat.index()).collect();
    let a = *others.first()?;
    let card_a = state.hands[a].cards().next()?;
    if let Some(&b) = others.get(1) {
        let card_b = state.hands[b].cards().last()?;
        s.hands[a].0 ^= card_a.bit() | card_b.bit();
        s.hands[b].0 ^= card_a.bit() | card_b.bit();
    } else {
        let hidden = state
            .left
            .iter()
            .position(|&c| Some(c) != state.indicator)?;
        let card_b = state.left[hidden];
        s.hands[a].0 ^= card_a.bit() | card_b.bit();
        s.left[hidden] = card_a;
    }
    Some(s)
}

#[test]
fn given_two_games_that_differ_only_in_hidden_cards_then_every_level_decides_the_same() {
    let options = HatTrickOptions {
        rounds: Some(1),
        ..HatTrickOptions::default()
    };
    let mut differing = 0;
    for players in 2..=4 {
        let points = decision_points(players, &options, 21 + players as u64);
        for (state, s) in points.iter().step_by(points.len() / 6) {
            let Some(other) = swapped(state, *s) else {
                continue;
            };
            differing += usize::from(other != *state);
            assert_same_choices::<HatTrick>(&options, players, *s, state, &other);
        }
    }
    assert!(differing >= 12, "only {differing} states differed");
}

#[test]
fn given_any_decision_point_then_greedy_sends_a_legal_command_and_the_same_one_for_the_same_seed() {
    for players in 2..=6 {
        let options = variant(players, players as u64);
        for (state, s) in decision_points(players, &options, 3).iter().step_by(2) {
            let view = HatTrick::view(state, Viewer::Seat(*s));
            let legal = HatTrick::legal_commands(state, *s);
            let seen = Seen::<HatTrick>::new(&options, players, *s, &view, &legal);
            let a = HatTrick::greedy(&seen, &mut BotRng::seed_from_u64(9));
            let b = HatTrick::greedy(&seen, &mut BotRng::seed_from_u64(9));
            assert!(legal.contains(&a), "{a:?} is not legal");
            assert_eq!(a, b);
        }
    }
}

/// What greedy plays as `who` in `state`.
fn greedy_in(state: &HatTrickState, who: u8) -> HatTrickCommand {
    let view = HatTrick::view(state, Viewer::Seat(seat(usize::from(who))));
    let legal = HatTrick::legal_commands(state, seat(usize::from(who)));
    let seen = Seen::<HatTrick>::new(
        &state.options,
        state.n(),
        seat(usize::from(who)),
        &view,
        &legal,
    );
    HatTrick::greedy(&seen, &mut BotRng::seed_from_u64(1))
}

/// Seat 1 answering a lead of Q♥ on trick `trick` (trump ♠).
fn answer_to_queen_of_hearts(trick: u8) -> HatTrickCommand {
    let mut state = given_table(
        HatTrickOptions::default(),
        &["QH 10C JC QC KC AC", "10H AH KH 9S JS 9D"],
        Trump::S,
        trick,
        0,
    );
    play(&mut state, 0, "QH", false);
    greedy_in(&state, 1)
}

#[test]
fn given_the_sixth_trick_played_last_then_greedy_takes_it_with_its_cheapest_winning_card() {
    let card = c("KH");
    assert_eq!(
        answer_to_queen_of_hearts(6),
        HatTrickCommand::Play {
            card,
            predict: false
        }
    );
}

#[test]
fn given_a_trick_that_does_not_score_then_greedy_keeps_its_strength() {
    let card = c("10H");
    assert_eq!(
        answer_to_queen_of_hearts(3),
        HatTrickCommand::Play {
            card,
            predict: false
        }
    );
}

#[test]
fn given_the_trump_ace_kept_for_the_last_trick_then_greedy_predicts_it() {
    let state = given_table(
        HatTrickOptions::default(),
        &["9H AS", "10H JD"],
        Trump::S,
        10,
        0,
    );
    assert_eq!(
        greedy_in(&state, 0),
        HatTrickCommand::Play {
            card: c("9H"),
            predict: true
        }
    );
}

#[test]
fn given_forty_seeded_games_then_greedy_beats_random_clearly() {
    let options = HatTrickOptions::default();
    let mut wins = 0.0;
    for seed in 0..40u64 {
        let seats = if seed % 2 == 0 {
            [Level::Greedy, Level::Random]
        } else {
            [Level::Random, Level::Greedy]
        };
        let played = arena::play::<HatTrick>(
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
        let winners = &played.result.winners;
        if winners.contains(&greedy) {
            wins += 1.0 / winners.len() as f64;
        }
    }
    eprintln!("greedy vs random: {wins} of 40");
    assert!(wins >= 28.0, "greedy won only {wins} of 40");
}
