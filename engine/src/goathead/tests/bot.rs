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
use crate::random::below;
use crate::ruleset::Viewer;

/// Determinizations drawn at every decision point.
const SAMPLES: usize = 3;

/// Short matches, so that a playout covers a few deals and the ends of rounds.
fn options() -> GoatheadOptions {
    GoatheadOptions {
        rounds: 3,
        deals: vec![],
    }
}

/// Plays random commands from `state` to the end of the match.
fn finish(mut state: GoatheadState, chooser: &mut ChaCha8Rng) -> GoatheadState {
    for _ in 0..10_000 {
        let Some(actor) = state.actor() else {
            return state;
        };
        let legal = Goathead::legal_commands(&state, actor);
        let command = legal[below(chooser, legal.len())];
        let events = Goathead::decide(&state, actor, &command, &rng()).expect("legal");
        apply_all::<Goathead>(&mut state, &events);
    }
    panic!("no end");
}

/// Every decision point of a random match: (state, seat to act).
fn decision_points(
    players: usize,
    options: &GoatheadOptions,
    seed: u64,
) -> Vec<(GoatheadState, Seat)> {
    let mut chooser = ChaCha8Rng::seed_from_u64(seed);
    let randomness = Randomness::from_seed(&format!("bot-points-{seed}"));
    let mut state = Goathead::new_game(players, options.clone()).expect("options");
    let opening = Goathead::start(&state, &randomness);
    apply_all::<Goathead>(&mut state, &opening);
    let mut points = Vec::new();
    while let Some(actor) = state.actor() {
        points.push((state.clone(), actor));
        let legal = Goathead::legal_commands(&state, actor);
        let command = legal[below(&mut chooser, legal.len())];
        let events = Goathead::decide(&state, actor, &command, &randomness).expect("legal");
        apply_all::<Goathead>(&mut state, &events);
    }
    points
}

/// The cards a seat lacks by the tricks of this round (the led effective
/// suits it did not follow), in `state`.
fn shown_voids(state: &GoatheadState) -> Vec<CardSet> {
    let n = state.player_count();
    let contract = state.contract();
    let mut out = vec![CardSet::EMPTY; n];
    let cur = &state.current;
    let tricks = cur
        .tricks
        .iter()
        .map(|t| (t.leader, t.cards.clone()))
        .chain(
            cur.trick_leader
                .filter(|_| !cur.trick.is_empty())
                .map(|l| (l, cur.trick.clone())),
        );
    for (leader, cards) in tricks {
        let led = contract.effective_suit(cards[0]);
        for (k, &card) in cards.iter().enumerate().skip(1) {
            if contract.effective_suit(card) != led {
                let s = (leader.index() + k) % n;
                for c in Card::all().filter(|&c| contract.effective_suit(c) == led) {
                    out[s].insert(c);
                }
            }
        }
    }
    out
}

/// Asserts the laws of `determinize` for `seat` in `state`: the same view,
/// the same legal commands, every card once, the suits shown lacking not
/// held, and (when `finish_it`) a random playout from it reaches a result.
fn check_laws(state: &GoatheadState, seat: Seat, rng: &mut BotRng, finish_it: bool) {
    let options = options();
    let samples =
        determinizations::<Goathead>(&options, state.player_count(), state, seat, rng, SAMPLES);
    for (k, d) in samples.into_iter().enumerate() {
        let cur = &d.current;
        let held = cur.hands.iter().fold(cur.kitty, |acc, h| acc.union(*h));
        let played = cur
            .tricks
            .iter()
            .flat_map(|t| t.cards.iter().copied())
            .chain(cur.trick.iter().copied());
        let count = cur.hands.iter().map(|h| h.len()).sum::<usize>() + cur.kitty.len();
        assert_eq!(count + played.clone().count(), DECK_SIZE);
        assert_eq!(CardSet::of(played).union(held), CardSet::deck());
        for (hand, void) in cur.hands.iter().zip(shown_voids(&d)) {
            assert!(
                hand.intersection(void).is_empty(),
                "{hand:?} holds {void:?}"
            );
        }
        if matches!(d.phase, Phase::Play { .. }) {
            assert_eq!(
                d.current.declaring_side == 0,
                d.contract() == Contract::Leasters,
                "sides at {:?}",
                d.phase
            );
        }
        if finish_it && k == 0 {
            let end = finish(d, &mut ChaCha8Rng::seed_from_u64(k as u64));
            assert!(Goathead::result(&end).is_some());
        }
    }
}

#[test]
fn given_any_decision_point_of_random_matches_then_determinizations_keep_the_view_and_the_legal_commands()
 {
    for players in 3..=4 {
        for seed in 0..12 {
            let mut rng = BotRng::seed_from_u64(seed);
            for (i, (state, s)) in decision_points(players, &options(), seed)
                .iter()
                .enumerate()
            {
                check_laws(state, *s, &mut rng, i % 5 == 0);
            }
        }
    }
}

#[test]
fn given_an_announcement_then_determinizations_give_the_announcer_both_black_jacks() {
    // Seat 0 holds JC and JS: a suit contract makes it announce.
    let mut state = game(4, deal4());
    act(&mut state, 1, pass());
    act(&mut state, 2, pass());
    act(&mut state, 3, bid("suit:H"));
    act(&mut state, 0, pass());
    act(&mut state, 3, GoatheadCommand::KittySkip {});
    act(&mut state, 3, GoatheadCommand::KeepContract {});
    for swapper in [0, 1, 2, 0] {
        act(&mut state, swapper, GoatheadCommand::KittySkip {});
    }
    assert_eq!(state.current.announced, Some(s(0)));
    let options = GoatheadOptions {
        rounds: 1,
        deals: vec![deal4()],
    };
    // Seat 1 leads (left of the dealer); seat 1 sees only its own hand.
    play_cards(&mut state, "AS");
    assert_eq!(state.actor(), Some(s(2)));
    let view1 = Goathead::view(&state, Viewer::Seat(s(2)));
    let legal1 = Goathead::legal_commands(&state, s(2));
    let seen = Seen::<Goathead>::new(&options, 4, s(2), &view1, &legal1);
    for seed in 0..20 {
        let d = Goathead::determinize(&seen, &mut BotRng::seed_from_u64(seed));
        assert!(d.current.hands[0].contains(JC) && d.current.hands[0].contains(JS));
        assert_eq!(Goathead::view(&d, Viewer::Seat(s(2))), view1);
    }
}

/// `state` with the cards `seat` cannot see dealt differently among the
/// other hands and the kitty (if hidden from it): the hidden cards, listed
/// holder by holder, shifted by one place, each holder keeping its count.
fn reshuffled(state: &GoatheadState, seat: Seat) -> GoatheadState {
    let mut other = state.clone();
    let cur = &state.current;
    let n = state.player_count();
    let known = cur.kitty_known[seat.index()];
    let mut holders: Vec<CardSet> = (0..n)
        .filter(|&i| i != seat.index())
        .map(|i| cur.hands[i])
        .collect();
    let kitty_hidden = !state.sees_kitty(seat);
    if kitty_hidden {
        holders.push(CardSet::from_bits(cur.kitty.bits() & !known.bits()));
    }
    let mut cards: Vec<Card> = holders.iter().flat_map(|h| h.iter()).collect();
    if cards.is_empty() {
        return other;
    }
    cards.rotate_left(1);
    let mut next = cards.into_iter();
    let mut filled: Vec<CardSet> = holders
        .iter()
        .map(|h| CardSet::of(next.by_ref().take(h.len())))
        .collect();
    if kitty_hidden {
        other.current.kitty = filled
            .pop()
            .unwrap_or_default()
            .union(known.intersection(cur.kitty));
    }
    for (i, hand) in (0..n).filter(|&i| i != seat.index()).zip(filled) {
        other.current.hands[i] = hand;
    }
    other
}

#[test]
fn given_two_games_that_differ_only_in_hidden_cards_then_every_level_decides_the_same() {
    let options = options();
    let mut differing = 0;
    for players in 3..=4 {
        let points = decision_points(players, &options, 21 + players as u64);
        for (state, s) in points.iter().step_by(points.len() / 10) {
            let other = reshuffled(state, *s);
            differing += usize::from(other != *state);
            assert_same_choices::<Goathead>(&options, players, *s, state, &other);
        }
    }
    assert!(differing >= 15, "only {differing} states differed");
}

/// A shuffled deal of `players` seats, as an explicit deal.
fn shuffled_deal(players: usize, seed: u64) -> Deal {
    let mut state = Goathead::new_game(players, options()).unwrap();
    let opening = Goathead::start(&state, &Randomness::from_seed(&format!("twin {seed}")));
    apply_all::<Goathead>(&mut state, &opening);
    Deal {
        hands: state
            .current
            .hands
            .iter()
            .map(|h| h.iter().collect())
            .collect(),
        kitty: state.current.kitty.iter().collect(),
    }
}

/// Twin games of two explicit deals for the first seat to bid (see
/// [`twin_piles`]: the piles are the hands, then the kitty); the twin also
/// has another deal 1.
fn deal_twins(players: usize, case: u64) -> Twins<Goathead> {
    let mut rng = ChaCha8Rng::seed_from_u64(case);
    let first = shuffled_deal(players, case);
    let second = shuffled_deal(players, case + 1000);
    let game_of = |piles: &[Vec<Card>], second: &Deal| {
        let deal = Deal {
            hands: piles[..players].to_vec(),
            kitty: piles[players].clone(),
        };
        let options = GoatheadOptions {
            rounds: 2,
            deals: vec![deal, second.clone()],
        };
        Twin {
            state: game_with(players, 2, options.deals.clone()),
            options,
        }
    };
    let mut piles = first.hands.clone();
    piles.push(first.kitty.clone());
    let game = game_of(&piles, &second);
    let me = Goathead::to_act(&game.state)[0];
    let (twin, control) = twin_piles(&piles, players, me, &[], &mut rng);
    Twins {
        seat: me,
        game,
        twin: game_of(&twin, &shuffled_deal(players, case + 2000)),
        control: game_of(&control, &second),
    }
}

#[test]
fn given_twin_games_of_explicit_deals_then_every_level_decides_the_same_and_a_changed_own_hand_differs()
 {
    for players in 3..=4 {
        let cases: Vec<Twins<Goathead>> = (0..30).map(|k| deal_twins(players, k)).collect();
        assert_twins_decide_alike::<Goathead>(players, &cases, 8, 64);
    }
}

#[test]
fn given_any_decision_point_then_greedy_sends_a_legal_command_and_the_same_one_for_the_same_seed() {
    let options = options();
    for players in 3..=4 {
        for seed in 0..4 {
            for (state, s) in decision_points(players, &options, seed) {
                let view = Goathead::view(&state, Viewer::Seat(s));
                let legal = Goathead::legal_commands(&state, s);
                let seen = Seen::<Goathead>::new(&options, players, s, &view, &legal);
                let a = Goathead::greedy(&seen, &mut BotRng::seed_from_u64(9));
                let b = Goathead::greedy(&seen, &mut BotRng::seed_from_u64(9));
                assert!(legal.contains(&a), "{a:?} is not legal");
                assert_eq!(a, b);
            }
        }
    }
}

/// The greedy command of seat `seat` in `state`.
fn greedy_in(state: &GoatheadState, seat: u8) -> GoatheadCommand {
    let options = options();
    let view = Goathead::view(state, Viewer::Seat(s(usize::from(seat))));
    let legal = Goathead::legal_commands(state, s(usize::from(seat)));
    let seen = Seen::<Goathead>::new(
        &options,
        state.player_count(),
        s(usize::from(seat)),
        &view,
        &legal,
    );
    Goathead::greedy(&seen, &mut BotRng::seed_from_u64(1))
}

#[test]
fn given_a_strong_club_hand_then_greedy_bids_and_a_weak_hand_passes() {
    // Seat 1 holds AS 10S KS QS AH JH: weak in trumps for every contract but
    // strong in spades; seat 0 holds ♣ A 10 K Q J and JS: a club hand.
    let mut state = game(3, deal3());
    let first = greedy_in(&state, 1);
    assert!(
        matches!(
            first,
            GoatheadCommand::Bid {
                contract: Contract::Suit(Suit::Spades)
            } | GoatheadCommand::Pass {}
        ),
        "{first:?}"
    );
    act(&mut state, 1, pass());
    act(&mut state, 2, pass());
    assert_eq!(greedy_in(&state, 0), bid("suit:C"));
}

#[test]
fn given_the_last_seat_can_take_points_then_greedy_takes_them_and_else_throws_cheap() {
    // Seat 0 declares clubs and leaves the kitty; seat 1 leads AH, seat 2
    // follows with QH.
    let mut state = game(3, deal3());
    act(&mut state, 1, pass());
    act(&mut state, 2, pass());
    act(&mut state, 0, bid("suit:C"));
    act(&mut state, 0, GoatheadCommand::LeaveKitty {});
    act(&mut state, 0, GoatheadCommand::KeepContract {});
    // Seat 1 leads (left of the dealer, seat 0).
    play_cards(&mut state, "AH QH");
    // Seat 0, last, has no heart and may trump AH with its lowest trump.
    assert_eq!(greedy_in(&state, 0), play("QC"));
}

#[test]
fn given_forty_seeded_matches_then_greedy_beats_random_clearly() {
    let options = GoatheadOptions::default();
    let mut wins = 0.0;
    for seed in 0..40u64 {
        let greedy = (seed % 3) as usize;
        let mut seats = [Level::Random; 3];
        seats[greedy] = Level::Greedy;
        let played = arena::play::<Goathead>(
            &options,
            Table {
                seats: &seats,
                iterations: 1,
                think_limit: None,
            },
            seed,
        )
        .expect("a finished match");
        let winners = &played.result.winners;
        if winners.contains(&s(greedy)) {
            wins += 1.0 / winners.len() as f64;
        }
    }
    eprintln!("greedy (one seat of three) vs random: {wins} of 40");
    assert!(wins >= 28.0, "greedy won only {wins} of 40");
}

#[test]
fn given_a_finished_match_then_each_reward_is_the_logistic_margin_over_the_best_other_seat() {
    let result = crate::ruleset::GameResult::<GoatheadRound> {
        scores: vec![8, -4, -4],
        winners: vec![s(0)],
        tie_break: None,
        teams: None,
        outcome: None,
        rounds: vec![],
    };
    let rewards = Goathead::rewards(&result, 3);
    // Seat 0 leads by 12 game points, two scales: 1 / (1 + e^-2).
    assert!((rewards[0] - 1.0 / (1.0 + (-2.0f64).exp())).abs() < 1e-12);
    assert!((rewards[1] - rewards[2]).abs() < 1e-12);
    assert!((rewards[1] - 1.0 / (1.0 + 2.0f64.exp())).abs() < 1e-12);
}

/// Sends greedy's command for whoever is to act until `done` holds.
fn greedy_until(state: &mut GoatheadState, done: impl Fn(&GoatheadState) -> bool) {
    while !done(state) {
        let actor = state.actor().expect("someone to act");
        let command = greedy_in(state, actor.0);
        act(state, actor.0, command);
    }
}

#[test]
fn given_a_search_from_a_round_then_its_horizon_is_that_round_scored() {
    // Two rounds: seat 1 decides in round 0.
    let options = GoatheadOptions {
        rounds: 2,
        deals: vec![deal3(), deal3()],
    };
    let mut state = game_with(3, 2, options.deals.clone());
    let view = Goathead::view(&state, Viewer::Seat(s(1)));
    let legal = Goathead::legal_commands(&state, s(1));
    let seen = Seen::<Goathead>::new(&options, 3, s(1), &view, &legal);
    // When the round is being played, then the search plays on.
    assert_eq!(Goathead::horizon_rewards(&seen, &state), None);
    greedy_until(&mut state, |st| st.current.tricks.len() == 5);
    assert_eq!(Goathead::horizon_rewards(&seen, &state), None);
    // When round 0 is scored (round 1 dealt), then it stops there, with the
    // match score's margins.
    greedy_until(&mut state, |st| st.round == 1);
    let points = &state.game_points;
    assert!(points.iter().any(|&p| p != 0), "{points:?}");
    let rewards = Goathead::horizon_rewards(&seen, &state).expect("the horizon");
    for (seat, reward) in rewards.iter().enumerate() {
        let best_other = (0..3)
            .filter(|&j| j != seat)
            .map(|j| points[j])
            .max()
            .expect("two others");
        assert_eq!(*reward > 0.5, points[seat] > best_other, "{rewards:?}");
    }
    // When the match is over, then too.
    greedy_until(&mut state, GoatheadState::finished);
    assert!(Goathead::horizon_rewards(&seen, &state).is_some());
}

#[test]
fn given_any_decision_point_then_the_playout_command_is_legal_and_mostly_greedy() {
    let options = options();
    let (mut agree, mut total) = (0, 0);
    let mut rng = BotRng::seed_from_u64(3);
    for players in 3..=4 {
        for (state, seat) in decision_points(players, &options, 7) {
            let legal = Goathead::legal_commands(&state, seat);
            let command = Goathead::playout_command(&state, seat, &legal, &mut rng);
            assert!(legal.contains(&command), "{command:?} is not legal");
            agree += usize::from(command == greedy_in(&state, seat.0));
            total += 1;
        }
    }
    // Greedy nine times in ten (a random command may agree as well).
    assert!(agree * 100 >= total * 85, "{agree} of {total}");
    assert!(agree < total, "never random");
}

/// Seat 2's determinizations of `state` (seat 2 to bid).
fn seat2_samples(state: &GoatheadState, samples: u64) -> Vec<GoatheadState> {
    let options = options();
    let view = Goathead::view(state, Viewer::Seat(s(2)));
    let legal = Goathead::legal_commands(state, s(2));
    let seen = Seen::<Goathead>::new(&options, 3, s(2), &view, &legal);
    (0..samples)
        .map(|seed| Goathead::determinize(&seen, &mut BotRng::seed_from_u64(seed)))
        .collect()
}

/// The mean number of Jacks seat 1 holds in `samples`.
fn seat1_jacks(samples: &[GoatheadState]) -> f64 {
    let jacks = set("JC JS JH JD");
    let held: usize = samples
        .iter()
        .map(|d| d.current.hands[1].intersection(jacks).len())
        .sum();
    held as f64 / samples.len() as f64
}

#[test]
fn given_a_seat_bid_court_then_determinizations_mostly_give_it_the_jacks() {
    // Seat 2 holds JD; JC JS JH are among the 14 cards it cannot see, of
    // which seat 1 holds 6: 9/7 Jacks on average in a uniform deal. Greedy
    // bids Court only with about two Jacks or more.
    let mut state = game(3, deal3());
    act(&mut state, 1, bid("court"));
    let samples = seat2_samples(&state, 60);
    let jacks = seat1_jacks(&samples);
    assert!(jacks >= 2.0, "seat 1 holds {jacks} Jacks on average");
}

#[test]
fn given_a_seat_passed_then_determinizations_mostly_give_it_a_hand_too_weak_to_bid() {
    // Greedy passes only with a hand good for no contract: hardly two Jacks.
    let mut state = game(3, deal3());
    act(&mut state, 1, pass());
    let samples = seat2_samples(&state, 60);
    let jacks = seat1_jacks(&samples);
    assert!(jacks < 9.0 / 7.0, "seat 1 holds {jacks} Jacks on average");
}
