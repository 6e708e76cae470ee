//! Scoring tricks, predictions, hat tricks, negative deals and the match result.

use super::*;
use crate::hat_trick::options::Mode;
use crate::hat_trick::rules::prediction_value;
use crate::hat_trick::scoring::{RoundResult, winners};
use crate::hat_trick::state::Prediction;
use crate::ruleset::Seat;

fn one_deal(mode: Mode) -> HatTrickOptions {
    HatTrickOptions {
        rounds: Some(1),
        mode,
        ..HatTrickOptions::default()
    }
}

/// Three players at the last trick (11): seat 0 leads AH, seat 1 has 7H, seat 2 8H
/// (♥ trump), so seat 0 takes it; the 1st and 6th went to `first` and `sixth`.
fn at_last_trick(options: HatTrickOptions, first: u8, sixth: u8) -> HatTrickState {
    let mut state = given_table(options, &["AH", "7H", "8H"], Trump::H, 11, 0);
    state.scoring = [Some(seat(first.into())), Some(seat(sixth.into())), None];
    state
}

fn scored(events: &[HatTrickEvent]) -> RoundResult {
    events
        .iter()
        .find_map(|e| match e {
            HatTrickEvent::RoundScored(r) => Some(r.clone()),
            _ => None,
        })
        .expect("the deal was scored")
}

fn finish(state: &mut HatTrickState) -> RoundResult {
    scored(&play_trick(state, &[(0, "AH"), (1, "7H"), (2, "8H")]))
}

#[test]
fn worked_example_prediction_values_by_trick() {
    // The rule book's table: 1 …4 …3 …2 …1 4 …4 …3 …2 …1 8.
    let values: Vec<i32> = [2, 3, 4, 5, 7, 8, 9, 10].map(prediction_value).to_vec();
    assert_eq!(values, [4, 3, 2, 1, 4, 3, 2, 1]);
}

#[test]
fn given_the_scoring_tricks_to_three_players_then_1_4_and_8() {
    let mut state = at_last_trick(one_deal(Mode::Standard), 1, 2);
    let r = finish(&mut state);
    assert_eq!(r.scoring_tricks, [seat(1), seat(2), seat(0)]);
    assert_eq!(r.points, [8, 1, 4]);
    assert_eq!(r.hat_trick, None);
    assert_eq!(state.scores, [8, 1, 4]);
}

#[test]
fn given_one_player_takes_all_three_then_a_hat_trick_plus_3_and_minus_3_to_the_others() {
    let mut state = at_last_trick(one_deal(Mode::Standard), 0, 0);
    let r = finish(&mut state);
    assert_eq!(r.hat_trick, Some(seat(0)));
    assert_eq!(r.points, [1 + 4 + 8 + 3, -3, -3]);
}

#[test]
fn given_predictions_then_won_scores_the_value_and_lost_costs_double() {
    let mut state = at_last_trick(one_deal(Mode::Standard), 1, 1);
    state.predictions = [
        Some(Prediction {
            seat: seat(1),
            made_on: 2,
            claims: 6,
            value: 4,
        }),
        Some(Prediction {
            seat: seat(2),
            made_on: 8,
            claims: 11,
            value: 3,
        }),
    ];
    let r = finish(&mut state);
    assert_eq!(r.points, [8, 1 + 4 + 4, -6]);
    assert!(r.predictions[0].won && !r.predictions[1].won);
    assert_eq!(r.predictions[1].points, -6);
}

#[test]
fn given_trick_2_when_a_player_predicts_then_only_that_first_claim_counts() {
    let mut state = given_table(
        one_deal(Mode::Standard),
        &["AS 7S 9D", "9S 10S 7D", "8S 10D KS"],
        Trump::H,
        2,
        0,
    );
    assert!(may_predict(&state, 0));
    play(&mut state, 0, "AS", false);
    assert!(may_predict(&state, 1));
    play(&mut state, 1, "9S", true);
    assert_eq!(
        state.predictions[0],
        Some(Prediction {
            seat: seat(1),
            made_on: 2,
            claims: 6,
            value: 4
        })
    );
    assert!(!may_predict(&state, 2), "only the first claim");
    assert!(try_play(&state, 2, "8S", true).is_err());
    play(&mut state, 2, "8S", false);
    assert_eq!(state.trick_number, 3);
    assert!(!may_predict(&state, 0), "the window stays closed");
}

#[test]
fn given_the_windows_then_predictions_on_tricks_2_to_5_and_7_to_10_only() {
    let hands = ["AS 7S", "9S 10S", "8S 10D"];
    let offered = |players_hands: &[&str], t: u8| {
        let state = given_table(HatTrickOptions::default(), players_hands, Trump::H, t, 0);
        may_predict(&state, 0)
    };
    let open: Vec<u8> = (1..=11).filter(|&t| offered(&hands, t)).collect();
    assert_eq!(open, [2, 3, 4, 5, 7, 8, 9, 10]);
    let six = ["AS", "9S", "8S", "7S", "6S", "5S"];
    let open: Vec<u8> = (1..=10).filter(|&t| offered(&six, t)).collect();
    assert_eq!(
        open,
        [2, 3, 4, 5, 7, 8, 9],
        "6 players: the second window is tricks 7–9"
    );
    let mut state = given_table(HatTrickOptions::default(), &six, Trump::H, 9, 0);
    play(&mut state, 0, "AS", true);
    assert_eq!(
        state.predictions[1].map(|p| (p.claims, p.value)),
        Some((10, 2))
    );
}

#[test]
fn given_a_second_window_claim_then_it_is_independent_of_the_first() {
    let mut state = given_table(
        HatTrickOptions::default(),
        &["AS", "9S", "8S"],
        Trump::H,
        7,
        1,
    );
    state.predictions[0] = Some(Prediction {
        seat: seat(0),
        made_on: 3,
        claims: 6,
        value: 3,
    });
    assert!(may_predict(&state, 1));
    play(&mut state, 1, "9S", true);
    assert_eq!(
        state.predictions[1].map(|p| (p.seat, p.made_on, p.claims, p.value)),
        Some((seat(1), 7, 11, 4))
    );
}

#[test]
fn given_five_players_then_the_dealer_predicts_only_on_tricks_they_play() {
    let state = started(5, HatTrickOptions::default());
    assert!(
        HatTrick::legal_commands(&state, seat(0)).is_empty(),
        "sits out trick 1"
    );
    let mut state = given_table(
        HatTrickOptions::default(),
        &["2S 3S", "4S 5S", "6S 7S", "8S 9S", "10S JS"],
        Trump::H,
        2,
        1,
    );
    for s in 1..5 {
        let card = legal(&state, s)[0];
        play(&mut state, s, card, false);
    }
    assert!(
        may_predict(&state, 0),
        "the dealer plays to trick 2 and may predict"
    );
}

#[test]
fn given_a_negative_deal_then_no_predictions() {
    let o = HatTrickOptions {
        mode: Mode::Negative,
        ..HatTrickOptions::default()
    };
    let mut state = given_table(o, &["AS 7S", "9S 10S", "8S 10D"], Trump::H, 2, 0);
    state.negative = true;
    assert!(!may_predict(&state, 0));
    assert!(try_play(&state, 0, "AS", true).is_err());
}

#[test]
fn given_the_negative_game_then_penalty_points_and_the_lowest_total_wins() {
    let mut state = at_last_trick(one_deal(Mode::Negative), 1, 2);
    state.negative = true;
    let r = finish(&mut state);
    assert_eq!(r.points, [8, 1, 4]);
    let result = HatTrick::result(&state).unwrap();
    assert_eq!(result.winners, [seat(1)]);
    let mut state = at_last_trick(one_deal(Mode::Negative), 0, 0);
    state.negative = true;
    let r = finish(&mut state);
    assert_eq!(
        r.points,
        [16, -3, -3],
        "hat trick: +3 penalty, −3 to the others"
    );
    assert_eq!(
        HatTrick::result(&state).unwrap().winners,
        [seat(1), seat(2)]
    );
}

#[test]
fn given_a_negative_deal_in_a_mixed_game_then_its_points_are_subtracted() {
    for mode in [Mode::CycleWithNegative, Mode::JackNegative] {
        let mut state = at_last_trick(one_deal(mode), 1, 2);
        state.negative = true;
        assert_eq!(finish(&mut state).points, [-8, -1, -4]);
        let mut state = at_last_trick(one_deal(mode), 0, 0);
        state.negative = true;
        assert_eq!(finish(&mut state).points, [-16, 3, 3]);
        assert_eq!(
            HatTrick::result(&state).unwrap().winners,
            [seat(1), seat(2)]
        );
    }
}

#[test]
fn given_tied_totals_then_the_win_is_shared() {
    assert_eq!(winners(Mode::Standard, &[5, 9, 9]), [seat(1), seat(2)]);
    assert_eq!(winners(Mode::Negative, &[5, 9, 5]), [seat(0), seat(2)]);
    assert_eq!(winners(Mode::JackNegative, &[-1, -2, -3]), [seat(0)]);
    let mut state = at_last_trick(one_deal(Mode::Standard), 0, 0);
    state.negative = true;
    finish(&mut state);
    assert_eq!(
        HatTrick::result(&state).unwrap().tie_break.as_deref(),
        Some("shared")
    );
}

#[test]
fn given_the_last_deal_when_its_last_trick_is_taken_then_the_match_ends_with_a_breakdown() {
    let mut state = at_last_trick(one_deal(Mode::Standard), 1, 2);
    let events = play_trick(&mut state, &[(0, "AH"), (1, "7H"), (2, "8H")]);
    let names: Vec<String> = events
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        names,
        [
            "played",
            "played",
            "played",
            "trick_won",
            "round_scored",
            "match_ended"
        ]
    );
    let result = HatTrick::result(&state).unwrap();
    assert_eq!(result.scores, [8, 1, 4]);
    assert_eq!(result.winners, [seat(0)]);
    assert_eq!(result.tie_break, None);
    assert_eq!(result.rounds.len(), 1);
    assert_eq!(result.rounds[0].totals, [8, 1, 4]);
    assert!(HatTrick::to_act(&state).is_empty());
}

#[test]
fn given_a_deal_that_is_not_the_last_when_it_ends_then_the_next_deal_follows() {
    let options = HatTrickOptions {
        rounds: Some(2),
        ..HatTrickOptions::default()
    };
    let mut state = at_last_trick(options, 1, 2);
    let events = play_trick(&mut state, &[(0, "AH"), (1, "7H"), (2, "8H")]);
    assert!(
        matches!(events.last(), Some(HatTrickEvent::Dealt(d)) if d.round == 1 && d.dealer == Seat(1))
    );
    assert_eq!(
        (state.round, state.trick_number, state.leader),
        (1, 1, seat(2))
    );
    assert_eq!(state.scores, [8, 1, 4]);
    assert_eq!(state.predictions, [None, None]);
}

#[test]
fn given_deals_scored_when_viewed_then_only_the_last_deal_is_shown_and_the_result_has_them_all() {
    let mut state = started(
        2,
        HatTrickOptions {
            rounds: Some(3),
            ..HatTrickOptions::default()
        },
    );
    play_first_legal(&mut state, |s| s.results.len() == 2);
    let view = super::super::view::view(&state, crate::ruleset::Viewer::Seat(seat(0)));
    assert_eq!(view.last_result.as_ref(), state.results.last());
    assert_eq!(view.last_result.as_ref().map(|r| r.round), Some(1));
    play_first_legal(&mut state, |s| s.finished);
    let result = HatTrick::result(&state).expect("finished");
    assert_eq!(result.rounds.len(), 3, "the result keeps every deal");
}
