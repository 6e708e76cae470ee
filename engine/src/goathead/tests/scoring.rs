//! Scoring: the seed's three examples, bonuses, payments by side size,
//! Leasters with ties, the match result.

use super::*;
use GoatheadCommand as C;

#[allow(clippy::too_many_arguments)]
fn scored(
    contract: &str,
    declarer: usize,
    side: &[usize],
    trick_points: &[u8],
    tricks_won: &[u8],
    kitty_points: u8,
    kitty_bonus: bool,
    last_winner: usize,
) -> GoatheadRound {
    let contract = Contract::parse(contract).unwrap();
    let round = score(&RoundFacts {
        round: 0,
        dealer: s(0),
        players: trick_points.len(),
        contract,
        declarer: (contract != Contract::Leasters).then(|| s(declarer)),
        declaring_side: side.iter().fold(0, |m, &i| m | (1 << i)),
        trick_points,
        tricks_won,
        kitty_points,
        kitty_bonus,
        last_winner: s(last_winner),
    });
    assert_eq!(round.payments.iter().sum::<i32>(), 0, "{round:?}");
    round
}

#[test]
fn example_1_given_a_suit_declarer_with_66_then_defenders_lose_1_and_the_declarer_gains_2() {
    let round = scored("suit:S", 0, &[0], &[60, 30, 23], &[3, 2, 1], 7, false, 0);
    assert_eq!(round.side_points, Some(67));
    let round = scored("suit:S", 0, &[0], &[59, 31, 23], &[3, 2, 1], 7, false, 0);
    assert_eq!(round.side_points, Some(66));
    assert_eq!(round.made, Some(true));
    assert_eq!(round.value, 1);
    assert_eq!(round.payments, vec![2, -1, -1]);
}

#[test]
fn example_2_given_a_court_declarer_with_29_then_defenders_gain_3_and_the_declarer_loses_6() {
    // Kitty taken (no kitty bonus); 22 in tricks + 7 in the kitty = 29.
    let round = scored("court", 1, &[1], &[50, 22, 41], &[3, 1, 2], 7, false, 0);
    assert_eq!(round.side_points, Some(29));
    assert_eq!(round.made, Some(false));
    assert_eq!(round.value, 3);
    assert_eq!(round.payments, vec![3, -6, 3]);
}

#[test]
fn example_3_given_a_suit_declarer_taking_every_trick_with_the_kitty_left_then_4_each() {
    let mut state = game(3, deal3());
    act(&mut state, 1, pass());
    act(&mut state, 2, pass());
    act(&mut state, 0, bid("suit:C"));
    act(&mut state, 0, C::LeaveKitty {});
    act(&mut state, 0, C::KeepContract {});
    play_cards(
        &mut state,
        "JH JD JC  JS AS 10H  AC 10S KH  10C KS QH  KC QS AD  QC AH 10D",
    );
    let round = &state.history[0];
    assert_eq!(round.tricks_won, vec![6, 0, 0]);
    assert_eq!(round.side_points, Some(120));
    // Suit 1 + 2 for every trick (not also +1 for 90) + 1 for leaving the kitty.
    assert_eq!(round.value, 4);
    assert_eq!(round.payments, vec![8, -4, -4]);
    assert_eq!(state.game_points, vec![8, -4, -4]);
}

#[test]
fn given_exactly_61_then_made_and_60_then_failed() {
    assert_eq!(
        scored("suit:D", 0, &[0], &[61, 30, 29], &[3, 2, 1], 0, false, 0).made,
        Some(true)
    );
    let failed = scored("suit:D", 0, &[0], &[60, 30, 30], &[3, 2, 1], 0, false, 0);
    assert_eq!(failed.made, Some(false));
    assert_eq!(failed.payments, vec![-2, 1, 1]);
}

#[test]
fn given_a_winning_side_with_90_but_not_every_trick_then_plus_one() {
    let round = scored("suit:H", 0, &[0], &[88, 20, 5], &[4, 1, 1], 7, false, 0);
    assert_eq!(round.side_points, Some(95));
    assert_eq!(round.value, 2);
    assert_eq!(round.payments, vec![4, -2, -2]);
}

#[test]
fn given_the_declarer_fails_below_31_with_the_kitty_left_then_defenders_get_both_bonuses() {
    let round = scored("suit:H", 0, &[0], &[13, 50, 50], &[1, 3, 2], 7, true, 0);
    assert_eq!(round.side_points, Some(20));
    assert_eq!(round.value, 3);
    assert_eq!(round.payments, vec![-6, 3, 3]);
}

#[test]
fn given_defenders_take_every_trick_then_they_get_the_all_tricks_bonus() {
    let round = scored("court", 2, &[2], &[60, 53, 0], &[3, 3, 0], 7, false, 0);
    assert_eq!(round.value, 4);
    assert_eq!(round.payments, vec![4, 4, -8]);
}

#[test]
fn given_nil_then_the_kitty_counts_for_nobody_and_only_the_kitty_bonus_applies() {
    let round = scored("nil", 0, &[0], &[0, 60, 53], &[0, 3, 3], 7, false, 2);
    assert_eq!(round.kitty_points, 0);
    assert_eq!(round.side_points, Some(0));
    assert_eq!(round.value, 2);
    assert_eq!(round.payments, vec![4, -2, -2]);
    let round = scored("nil", 0, &[0], &[0, 60, 53], &[0, 3, 3], 7, true, 2);
    assert_eq!(round.value, 3);
}

#[test]
fn given_4p_two_against_two_then_each_gains_or_loses_the_value() {
    let round = scored(
        "suit:H",
        1,
        &[1, 3],
        &[20, 40, 10, 43],
        &[1, 2, 0, 1],
        7,
        true,
        0,
    );
    assert_eq!(round.side_points, Some(90));
    assert_eq!(round.value, 3);
    assert_eq!(round.payments, vec![-3, 3, -3, 3]);
    assert_eq!(round.declaring_side, vec![s(1), s(3)]);
    assert_eq!(round.defending_side, vec![s(0), s(2)]);
}

#[test]
fn given_4p_one_against_three_then_the_one_moves_three_times_the_value() {
    let made = scored(
        "court",
        0,
        &[0],
        &[70, 20, 10, 13],
        &[2, 1, 1, 0],
        7,
        false,
        0,
    );
    assert_eq!(made.value, 2);
    assert_eq!(made.payments, vec![6, -2, -2, -2]);
    let failed = scored(
        "court",
        0,
        &[0],
        &[30, 40, 10, 33],
        &[1, 1, 1, 1],
        7,
        false,
        0,
    );
    assert_eq!(failed.value, 2);
    assert_eq!(failed.payments, vec![-6, 2, 2, 2]);
    // Someone else alone: the declaring three gain the value each.
    let three = scored(
        "suit:D",
        1,
        &[1, 2, 3],
        &[50, 30, 20, 13],
        &[1, 1, 1, 1],
        7,
        false,
        0,
    );
    assert_eq!(three.payments, vec![-3, 1, 1, 1]);
}

#[test]
fn given_leasters_then_the_most_points_pays_one_to_the_fewest() {
    let round = scored("leasters", 0, &[], &[50, 40, 23], &[3, 2, 1], 7, false, 0);
    assert_eq!(round.payments, vec![-1, 0, 1]);
    assert_eq!(round.made, None);
    assert!(round.declaring_side.is_empty());
    // The kitty goes to the winner of the last trick.
    let round = scored("leasters", 0, &[], &[40, 35, 38], &[2, 2, 2], 7, false, 1);
    assert_eq!(round.payments, vec![0, -1, 1]);
}

#[test]
fn given_leasters_ties_then_each_of_the_most_pays_each_of_the_fewest() {
    let four = |tp: &[u8]| scored("leasters", 0, &[], tp, &[1, 1, 1, 1], 0, false, 0).payments;
    assert_eq!(four(&[40, 40, 20, 20]), vec![-2, -2, 2, 2]);
    assert_eq!(four(&[40, 40, 30, 10]), vec![-1, -1, 0, 2]);
    assert_eq!(four(&[60, 20, 20, 20]), vec![-3, 1, 1, 1]);
    assert_eq!(four(&[30, 30, 30, 30]), vec![0, 0, 0, 0]);
    let three = scored("leasters", 0, &[], &[40, 40, 40], &[2, 2, 2], 0, false, 0);
    assert_eq!(three.payments, vec![0, 0, 0]);
}

#[test]
fn given_a_4p_declarer_who_swapped_nothing_then_the_kitty_bonus_applies() {
    // Seat 0 declares court, nobody swaps; seat 0 holds JC JS, wins what it can.
    let mut state = game(4, deal4());
    for i in [1, 2, 3] {
        act(&mut state, i, pass());
    }
    act(&mut state, 0, bid("court"));
    act(&mut state, 0, C::KittySkip {});
    act(&mut state, 0, C::KeepContract {});
    for i in [1, 2, 3, 0] {
        act(&mut state, i, C::KittySkip {});
    }
    // Seat 1 leads spades; seat 0 trumps. Then seat 0 leads its Jacks and clubs.
    play_cards(
        &mut state,
        "AS AH AD JC  JS 10S 10H 10D  AC KS KH KD  10C QS QH QD",
    );
    let round = &state.history[0];
    assert_eq!(round.tricks_won, vec![4, 0, 0, 0]);
    // Court 2 + 2 for every trick + 1 for swapping nothing.
    assert_eq!(round.value, 5);
    assert_eq!(round.payments, vec![15, -5, -5, -5]);
}

#[test]
fn given_a_finished_match_then_the_result_has_totals_shared_winners_and_every_round() {
    let mut state = GoatheadState::new(3, 2, vec![]);
    state.game_points = vec![4, 4, -8];
    state.phase = Phase::Finished;
    let result = Goathead::result(&state).unwrap();
    assert_eq!(result.scores, vec![4, 4, -8]);
    assert_eq!(result.winners, vec![s(0), s(1)]);
    assert_eq!(result.tie_break.as_deref(), Some("shared"));
    let running = game(3, deal3());
    assert!(Goathead::result(&running).is_none());
}

#[test]
fn given_a_two_round_match_then_the_result_lists_each_round_and_the_single_winner() {
    let mut state = game_with(3, 2, vec![deal3(), deal3()]);
    for _ in 0..2 {
        let dealer = state.dealer.index();
        let declarer = u8::try_from(dealer).unwrap();
        // Everyone but the dealer passes, the dealer bids court and leaves the kitty.
        for k in 1..3 {
            act(&mut state, u8::try_from((dealer + k) % 3).unwrap(), pass());
        }
        act(&mut state, declarer, bid("court"));
        act(&mut state, declarer, C::LeaveKitty {});
        act(&mut state, declarer, C::KeepContract {});
        let round = state.round;
        while state.round == round && !state.finished() {
            let actor = state.actor().unwrap();
            let legal = Goathead::legal_commands(&state, actor);
            act(&mut state, actor.0, legal[0]);
        }
    }
    let result = Goathead::result(&state).unwrap();
    assert_eq!(result.rounds.len(), 2);
    assert_eq!(result.rounds[0].declarer, Some(s(0)));
    assert_eq!(result.rounds[1].declarer, Some(s(1)));
    assert_eq!(result.rounds[1].dealer, s(1));
    let totals: Vec<i32> = (0..3)
        .map(|i| result.rounds.iter().map(|r| r.payments[i]).sum())
        .collect();
    assert_eq!(result.scores, totals);
    let best = totals.iter().max().unwrap();
    let expected: Vec<Seat> = (0..3).filter(|&i| totals[i] == *best).map(s).collect();
    assert_eq!(result.winners, expected);
    let json = serde_json::to_value(&result).unwrap();
    assert_eq!(json["rounds"][0]["contract"], "court");
    assert!(json["rounds"][0]["payments"].is_array());
    assert!(json["rounds"][0]["trick_points"].is_array());
}
