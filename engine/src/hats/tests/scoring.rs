//! Scoring: the worked examples, the cookie and the winner.

use super::*;
use crate::hats::scoring::{cookie_holder, type_positions};
use crate::hats::{collection_score, face_down_positions, favourite_score};

/// A finished game: `line`, and per seat its face-up collection, its black
/// hats and its favourite hat.
fn finished(players: usize, line: &str, seats: &[(&str, &str, &str)]) -> HatsState {
    let mut state = HatsState::new(players, 0, None);
    state.started = true;
    state.main_actions = u8::try_from(8 * players).unwrap();
    state.line = cards(line);
    for (i, (collection, black, favourite)) in seats.iter().enumerate() {
        state.collections[i] = cards(collection);
        state.black_hats[i] = cards(black);
        state.hands[i] = cards(favourite);
    }
    state
}

const SEED_LINE: &str = "C2 D4 H5 H4 F6 H6";
const SEED_COLLECTION: &str = "H2 S2 S3 F1 F3 W5 W6";

#[test]
fn given_the_seed_line_when_scoring_then_h4_and_h6_turn_face_down() {
    let line = cards(SEED_LINE);
    assert_eq!(face_down_positions(&line), vec![4, 6]);
    let positions = type_positions(&line);
    assert_eq!(positions[c("H1").kind()], 3);
    assert_eq!(positions[c("F1").kind()], 5);
    assert_eq!(positions[c("S1").kind()], 0);
}

#[test]
fn given_the_seed_collection_and_one_black_hat_then_the_collection_scores_14() {
    // 3 (heart at 3) + 0 + 0 (no spade) + 5 + 5 (flower at 5) + 0 + 0 (no helm) + 1
    assert_eq!(
        collection_score(&cards(SEED_LINE), &cards(SEED_COLLECTION), 1),
        14
    );
}

#[test]
fn given_the_seed_collection_and_favourite_f2_then_the_favourite_scores_2() {
    // flowers F1 + F3 = 4, minus 2 (the rule text; the seed's 9 is the helm sum)
    assert_eq!(favourite_score(&cards(SEED_COLLECTION), c("F2")), 2);
}

#[test]
fn given_the_seed_collection_and_favourite_w2_then_the_favourite_scores_9() {
    assert_eq!(favourite_score(&cards(SEED_COLLECTION), c("W2")), 9);
}

#[test]
fn given_a_favourite_of_a_type_not_collected_then_the_favourite_score_is_negative() {
    assert_eq!(favourite_score(&cards(SEED_COLLECTION), c("T5")), -5);
}

#[test]
fn given_the_seed_example_as_a_game_then_the_breakdown_has_every_category() {
    let state = finished(
        3,
        SEED_LINE,
        &[
            (SEED_COLLECTION, "T1", "W2"),
            ("C1", "", "C3"),
            ("", "", "D1"),
        ],
    );
    let result = Hats::result(&state).unwrap();
    let round = &result.rounds[0];
    assert_eq!(round.line, cards(SEED_LINE));
    assert_eq!(round.face_down, vec![4, 6]);
    let seat0 = &round.seats[0];
    assert_eq!(
        (
            seat0.collection,
            seat0.black_hats,
            seat0.favourite,
            seat0.cookie
        ),
        (14, 1, 9, 5)
    );
    assert_eq!(seat0.total, 28);
    assert_eq!(seat0.favourite_card, Some(c("W2")));
    // seat 1: club at 1 → 1; favourite C3: 1 − 3 = −2
    assert_eq!(
        (
            round.seats[1].collection,
            round.seats[1].favourite,
            round.seats[1].total
        ),
        (1, -2, -1)
    );
    assert_eq!(round.cookie, Some(Seat(0)));
    assert_eq!(result.scores, vec![28, -1, -1]);
    assert_eq!(result.winners, vec![Seat(0)]);
    assert_eq!(result.tie_break, None);
    assert!(result.teams.is_none());
}

fn holder(collections: &[&str], black: &[usize]) -> Option<Seat> {
    let collections: Vec<Vec<Card>> = collections.iter().map(|c| cards(c)).collect();
    cookie_holder(&collections, black)
}

#[test]
fn given_the_most_distinct_types_then_that_player_gets_the_cookie() {
    assert_eq!(holder(&["H1 H2 H3", "S6 C6"], &[0, 0]), Some(Seat(1)));
}

#[test]
fn given_black_hats_then_they_count_as_one_type_for_the_cookie() {
    // seat 0: heart + black hats = 2 types; seat 1: spade = 1 type
    assert_eq!(holder(&["H6", "S1"], &[3, 0]), Some(Seat(0)));
    // two black hats are still one type: 2 types each, then the lowest number
    assert_eq!(holder(&["H6", "S1 C1"], &[2, 0]), Some(Seat(1)));
}

#[test]
fn given_a_tie_on_types_then_the_lowest_face_up_number_wins_the_cookie() {
    assert_eq!(holder(&["H2 S5", "C3 D1"], &[0, 0]), Some(Seat(1)));
}

#[test]
fn given_the_same_lowest_number_then_the_second_lowest_decides() {
    assert_eq!(holder(&["H1 S4", "C1 D3"], &[0, 0]), Some(Seat(1)));
    assert_eq!(holder(&["H1 S4 S2", "C1 D3 D4"], &[0, 0]), Some(Seat(0)));
}

#[test]
fn given_a_tie_then_black_hats_take_no_part_and_running_out_of_cards_loses() {
    // seat 0: heart + black hat (2 types), numbers [1]; seat 1: heart + spade, numbers [1, 6]
    assert_eq!(holder(&["H1", "H1 S6"], &[1, 0]), Some(Seat(1)));
}

#[test]
fn given_an_unbreakable_tie_then_nobody_gets_the_cookie() {
    assert_eq!(holder(&["H1 S4", "C1 D4"], &[0, 0]), None);
    assert_eq!(holder(&["", "", ""], &[0, 0, 0]), None);
    // a three-way tie: two identical best collections → nobody
    assert_eq!(holder(&["H1 S2", "C1 D2", "C3 D3"], &[0, 0, 0]), None);
    // ... but a unique best among three wins
    assert_eq!(
        holder(&["H2 S2", "C1 D2", "C3 D3"], &[0, 0, 0]),
        Some(Seat(1))
    );
}

const LINE_2P: &str = "T1 S2 H3 C4 D5";

#[test]
fn given_most_points_then_that_player_wins_without_a_tie_break() {
    // seat 0: heart 3, favourite T2 → −2 → 1; seat 1: club 4, favourite T3 → −3 → 1 … plus D1 → 5
    let state = finished(2, LINE_2P, &[("H1", "", "T2"), ("C1 D1", "", "T3")]);
    let result = Hats::result(&state).unwrap();
    // seat 1: 4 + 5 − 3 = 6, two types → cookie → 11
    assert_eq!(result.scores, vec![1, 11]);
    assert_eq!(result.winners, vec![Seat(1)]);
    assert_eq!(result.tie_break, None);
}

#[test]
fn given_a_tie_on_points_then_most_black_hats_wins() {
    // seat 0: heart 3 + 1 black hat − 2 = 2; seat 1: spade 2 + 2 black hats − 2 = 2;
    // both 2 types with numbers [1]: nobody gets the cookie
    let state = finished(2, LINE_2P, &[("H1", "T2", "C2"), ("S1", "T3 T4", "D2")]);
    let result = Hats::result(&state).unwrap();
    assert_eq!(result.rounds[0].cookie, None);
    assert_eq!(result.scores, vec![2, 2]);
    assert_eq!(result.winners, vec![Seat(1)]);
    assert_eq!(result.tie_break.as_deref(), Some("black_hats"));
}

#[test]
fn given_a_tie_on_points_and_black_hats_then_the_cookie_holder_wins() {
    // seat 0: 3 + 2 − 2 = 3, two types → cookie → 8; seat 1: club 4 + (6 − 2) = 8, one type
    let state = finished(2, LINE_2P, &[("H1 S1", "", "T2"), ("C6", "", "C2")]);
    let result = Hats::result(&state).unwrap();
    assert_eq!(result.scores, vec![8, 8]);
    assert_eq!(result.rounds[0].cookie, Some(Seat(0)));
    assert_eq!(result.rounds[0].seats[0].cookie, 5);
    assert_eq!(result.winners, vec![Seat(0)]);
    assert_eq!(result.tie_break.as_deref(), Some("cookie"));
}

#[test]
fn given_a_tie_on_everything_then_the_win_is_shared() {
    // seat 0: 3 − 2 = 1; seat 1: 4 − 3 = 1; one type each with numbers [1]: no cookie
    let state = finished(2, LINE_2P, &[("H1", "", "T2"), ("C1", "", "T3")]);
    let result = Hats::result(&state).unwrap();
    assert_eq!(result.scores, vec![1, 1]);
    assert_eq!(result.rounds[0].cookie, None);
    assert_eq!(result.winners, vec![Seat(0), Seat(1)]);
    assert_eq!(result.tie_break.as_deref(), Some("shared"));
}

const LINE_4P: &str = "T1 S2 H3 C4 D5 F6";

#[test]
fn given_four_players_then_teams_0_2_and_1_3_win_on_summed_scores() {
    // seat 0: 3 − 1 = 2; seat 1: 2 − 2 = 0; seat 2: 4 − 3 = 1; seat 3: 5 − 4 = 1
    let state = finished(
        4,
        LINE_4P,
        &[
            ("H1", "", "W1"),
            ("S1", "", "W2"),
            ("C1", "", "W3"),
            ("D1", "", "W4"),
        ],
    );
    let result = Hats::result(&state).unwrap();
    assert_eq!(result.scores, vec![2, 0, 1, 1]);
    let teams = result.teams.clone().unwrap();
    assert_eq!(teams[0].seats, vec![Seat(0), Seat(2)]);
    assert_eq!(teams[0].score, 3);
    assert_eq!(teams[1].seats, vec![Seat(1), Seat(3)]);
    assert_eq!(teams[1].score, 1);
    assert_eq!(result.winners, vec![Seat(0), Seat(2)]);
    assert_eq!(result.tie_break, None);
}

#[test]
fn given_four_players_and_tied_teams_then_summed_black_hats_decide() {
    // team {0,2}: (3 + 1 − 1) + (4 − 3) = 4 with 1 black hat;
    // team {1,3}: (2 + 1 − 2) + (5 + 2 − 4) = 4 with 3 black hats
    let state = finished(
        4,
        LINE_4P,
        &[
            ("H1", "T2", "W1"),
            ("S1", "T3", "W2"),
            ("C1", "", "W3"),
            ("D1", "T4 T5", "W4"),
        ],
    );
    let result = Hats::result(&state).unwrap();
    assert_eq!(result.rounds[0].cookie, None);
    assert_eq!(
        result
            .teams
            .as_ref()
            .unwrap()
            .iter()
            .map(|t| t.score)
            .collect::<Vec<_>>(),
        vec![4, 4]
    );
    assert_eq!(result.winners, vec![Seat(1), Seat(3)]);
    assert_eq!(result.tie_break.as_deref(), Some("black_hats"));
}

#[test]
fn given_four_players_and_tied_teams_then_the_team_holding_the_cookie_wins() {
    // seat 0: 3 − 1 = 2; seat 1: 2 + (4 − 3) = 3; seat 2: 4 + (6 − 2) = 8;
    // seat 3: 5 + 1 − 4 = 2, the only one with two types → cookie → 7. Teams 10 vs 10.
    let state = finished(
        4,
        LINE_4P,
        &[
            ("H1", "", "W1"),
            ("S4", "", "S3"),
            ("C6", "", "C2"),
            ("D1 T2", "", "W4"),
        ],
    );
    let result = Hats::result(&state).unwrap();
    assert_eq!(result.scores, vec![2, 3, 8, 7]);
    assert_eq!(result.rounds[0].cookie, Some(Seat(3)));
    assert_eq!(
        result
            .teams
            .as_ref()
            .unwrap()
            .iter()
            .map(|t| t.score)
            .collect::<Vec<_>>(),
        vec![10, 10]
    );
    assert_eq!(result.winners, vec![Seat(1), Seat(3)]);
    assert_eq!(result.tie_break.as_deref(), Some("cookie"));
}

#[test]
fn given_four_players_and_teams_tied_on_everything_then_all_four_share_the_win() {
    // seat 0: 2; seat 1: 2 + (1 − 3) = 0; seat 2: 1; seat 3: 5 + (1 − 3) = 3 → 3 vs 3
    let state = finished(
        4,
        LINE_4P,
        &[
            ("H1", "", "W1"),
            ("S1", "", "S3"),
            ("C1", "", "W3"),
            ("D1", "", "D3"),
        ],
    );
    let result = Hats::result(&state).unwrap();
    assert_eq!(result.rounds[0].cookie, None);
    assert_eq!(result.scores, vec![2, 0, 1, 3]);
    assert_eq!(result.winners, vec![Seat(0), Seat(1), Seat(2), Seat(3)]);
    assert_eq!(result.tie_break.as_deref(), Some("shared"));
}
