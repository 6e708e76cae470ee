//! Turns: discard and draw, partner swaps, exchanges, black hats, the end.

use super::*;
use crate::hats::Step;
use crate::random::shuffle;

/// Two players: line T1 T2 T3 T4 T5; seat 0 holds S1 S6 H3 …; deck top D1 D2.
fn two_player_game() -> HatsState {
    game(
        2,
        0,
        deal(
            2,
            "T1 T2 T3 T4 T5",
            &["S1 S6 H3 T6 C2 C3 C4 C5 C6", "S2 S3 S4 S5 H1 H2 H4 H5 H6"],
            "D1 D2",
        ),
    )
}

#[test]
fn given_the_main_step_then_legal_commands_are_discards_exchanges_and_every_black_hat() {
    let state = two_player_game();
    let legal = Hats::legal_commands(&state, Seat(0));
    for card in &state.hands[0] {
        assert!(legal.contains(&HatsCommand::BlackHat { card: *card }));
        assert!(legal.contains(&HatsCommand::DiscardDraw { card: *card }));
        assert!(!legal.contains(&HatsCommand::OfferSwap { card: *card }));
    }
    // S1 beats nothing of another type with a number above 1 … and T1 has number 1.
    assert!(!legal.contains(&exchange("S1", 1)));
    // S6 beats every line card (higher number).
    for p in 1..=5 {
        assert!(legal.contains(&exchange("S6", p)));
    }
    // T6 is the same type as every line card.
    assert!(legal.contains(&exchange("T6", 5)));
    // H3 beats T1 and T2 only.
    assert!(legal.contains(&exchange("H3", 2)));
    assert!(!legal.contains(&exchange("H3", 3)));
    assert_eq!(
        legal.len(),
        9 + 9
            + legal
                .iter()
                .filter(|c| matches!(c, HatsCommand::Exchange { .. }))
                .count()
    );
    assert!(Hats::legal_commands(&state, Seat(1)).is_empty());
}

#[test]
fn given_a_line_card_of_the_same_type_when_exchanging_a_lower_number_then_it_is_legal() {
    let mut state = game(2, 0, deal(2, "T5 S2 H3 C4 D5", &["T1 S1"], ""));
    let events = play(&mut state, 0, exchange("T1", 1));
    assert_eq!(
        events,
        vec![HatsEvent::Exchanged {
            seat: Seat(0),
            card: c("T1"),
            position: 1,
            taken: c("T5")
        }]
    );
    assert_eq!(state.line[0], c("T1"));
    assert_eq!(state.collections[0], vec![c("T5")]);
    assert_eq!(state.hands[0].len(), 8);
    assert!(!state.hands[0].contains(&c("T1")));
    assert_eq!(Hats::to_act(&state), vec![Seat(1)]);
}

#[test]
fn given_another_type_when_exchanging_then_only_a_higher_number_is_legal() {
    let state = game(2, 0, deal(2, "T5 S2 H3 C4 D5", &["H2 C3 S3 D6"], ""));
    assert!(refused(&state, 0, exchange("H2", 2)).contains("may not replace"));
    assert!(refused(&state, 0, exchange("C3", 3)).contains("may not replace"));
    assert!(refused(&state, 0, exchange("S3", 4)).contains("may not replace"));
    let mut higher = state.clone();
    play(&mut higher, 0, exchange("D6", 3));
    assert_eq!(higher.line[2], c("D6"));
    assert_eq!(higher.collections[0], vec![c("H3")]);
    let mut same = state;
    play(&mut same, 0, exchange("S3", 2));
    assert_eq!(same.collections[0], vec![c("S2")]);
}

#[test]
fn given_bad_exchanges_then_refused_with_reasons() {
    let state = two_player_game();
    assert!(refused(&state, 0, exchange("S6", 0)).contains("positions 1 to 5"));
    assert!(refused(&state, 0, exchange("S6", 6)).contains("positions 1 to 5"));
    assert!(refused(&state, 0, exchange("S2", 1)).contains("not in your hand"));
    assert!(refused(&state, 1, exchange("S2", 1)).contains("not your turn"));
    assert!(refused(&state, 5, exchange("S2", 1)).contains("no seat 5"));
}

#[test]
fn given_a_card_when_making_a_black_hat_then_it_goes_face_down_to_the_collection_and_the_turn_ends()
{
    let mut state = two_player_game();
    let events = play(&mut state, 0, black_hat("H3"));
    assert_eq!(
        events,
        vec![HatsEvent::BlackHatMade {
            seat: Seat(0),
            card: c("H3")
        }]
    );
    assert_eq!(state.black_hats[0], vec![c("H3")]);
    assert!(state.collections[0].is_empty());
    assert_eq!(state.hands[0].len(), 8);
    assert_eq!(Hats::to_act(&state), vec![Seat(1)]);
    assert!(refused(&state, 0, black_hat("S1")).contains("not your turn"));
}

#[test]
fn given_a_deck_when_discarding_then_the_top_card_is_drawn_and_only_the_main_action_remains() {
    let mut state = two_player_game();
    let events = play(&mut state, 0, discard_draw("S1"));
    assert_eq!(
        events,
        vec![
            HatsEvent::Discarded {
                seat: Seat(0),
                card: c("S1")
            },
            HatsEvent::Drew {
                seat: Seat(0),
                card: c("D1")
            },
        ]
    );
    assert_eq!(state.discard, vec![c("S1")]);
    assert_eq!(state.deck.first(), Some(&c("D2")));
    assert_eq!(state.hands[0].len(), 9);
    assert!(state.hands[0].contains(&c("D1")));
    assert_eq!(Hats::to_act(&state), vec![Seat(0)]);
    assert!(refused(&state, 0, discard_draw("S6")).contains("already"));
    let legal = Hats::legal_commands(&state, Seat(0));
    assert!(legal.iter().all(|c| matches!(
        c,
        HatsCommand::Exchange { .. } | HatsCommand::BlackHat { .. }
    )));
    assert!(legal.contains(&black_hat("D1")));
    play(&mut state, 0, black_hat("D1"));
    // the next turn may discard again
    assert!(Hats::legal_commands(&state, Seat(1)).contains(&discard_draw("S2")));
}

#[test]
fn given_an_empty_deck_when_discarding_then_the_discard_pile_with_that_card_is_reshuffled_first() {
    // Deck of exactly one card: the first discard draws it, the second reshuffles.
    let mut state = game(
        2,
        0,
        deal(
            2,
            "T1 T2 T3 T4 T5",
            &["S1 S2 S3 S4 S5 S6 H1 H2 H3", "C1 C2 C3 C4 C5 C6 D1 D2 D3"],
            "H4",
        ),
    );
    // keep the card set: move all of the deck but its top onto the discard pile
    state.discard = state.deck.split_off(1);
    assert_eq!(state.discard, cards("T6 H5 H6 D4 D5 D6"));
    play(&mut state, 0, discard_draw("S1"));
    assert!(state.deck.is_empty());
    assert_eq!(state.discard, cards("T6 H5 H6 D4 D5 D6 S1"));
    play(&mut state, 0, black_hat("S2"));
    let events = play(&mut state, 1, discard_draw("C1"));
    let mut expected = cards("T6 H5 H6 D4 D5 D6 S1 C1");
    shuffle(&mut expected, &mut rng().stream("reshuffle", 0));
    assert_eq!(
        events,
        vec![
            HatsEvent::Discarded {
                seat: Seat(1),
                card: c("C1")
            },
            HatsEvent::Reshuffled {
                deck: expected.clone()
            },
            HatsEvent::Drew {
                seat: Seat(1),
                card: expected[0]
            },
        ]
    );
    assert!(state.discard.is_empty());
    assert_eq!(state.deck, expected[1..].to_vec());
    assert_eq!(state.reshuffles, 1);
    assert!(state.hands[1].contains(&expected[0]));
    assert_eq!(state.hands[1].len(), 9);
}

#[test]
fn given_the_second_reshuffle_then_it_uses_the_next_reshuffle_stream() {
    let mut state = game(
        2,
        0,
        deal(
            2,
            "T1 T2 T3 T4 T5",
            &["S1 S2 S3 S4 S5 S6 H1 H2 H3", "C1 C2 C3 C4 C5 C6 D1 D2 D3"],
            "",
        ),
    );
    let hidden = std::mem::take(&mut state.deck);
    state.discard = hidden.clone();
    state.reshuffles = 1;
    let events = play(&mut state, 0, discard_draw("S1"));
    let mut expected = hidden;
    expected.push(c("S1"));
    shuffle(&mut expected, &mut rng().stream("reshuffle", 1));
    assert_eq!(events[1], HatsEvent::Reshuffled { deck: expected });
    assert_eq!(state.reshuffles, 2);
}

#[test]
fn given_an_empty_deck_and_discard_pile_then_discard_draw_is_illegal() {
    // four players: every card is dealt, the deck and the discard pile are empty
    let state = game(4, 0, deal(4, "T1 T2 T3 T4 T5 T6", &[], ""));
    assert!(state.deck.is_empty() && state.discard.is_empty());
    let first = state.hands[0][0];
    assert!(refused(&state, 0, HatsCommand::DiscardDraw { card: first }).contains("both empty"));
    assert!(
        !Hats::legal_commands(&state, Seat(0)).contains(&HatsCommand::DiscardDraw { card: first })
    );
}

#[test]
fn given_four_players_when_offering_a_swap_then_the_partner_must_answer_and_the_cards_change_hands()
{
    let mut state = game(
        4,
        1,
        deal(4, "T1 T2 T3 T4 T5 T6", &["", "S1 S2", "", "H1 H2"], ""),
    );
    assert!(Hats::legal_commands(&state, Seat(1)).contains(&offer_swap("S1")));
    let events = play(&mut state, 1, offer_swap("S1"));
    assert_eq!(
        events,
        vec![HatsEvent::SwapOffered {
            seat: Seat(1),
            card: c("S1")
        }]
    );
    assert_eq!(state.step, Step::AnsweringSwap);
    assert_eq!(Hats::to_act(&state), vec![Seat(3)]);
    assert!(Hats::legal_commands(&state, Seat(1)).is_empty());
    let answers = Hats::legal_commands(&state, Seat(3));
    assert_eq!(answers.len(), 9);
    assert!(
        answers
            .iter()
            .all(|c| matches!(c, HatsCommand::AnswerSwap { .. }))
    );
    assert!(refused(&state, 1, black_hat("S2")).contains("answer"));
    assert!(refused(&state, 3, answer_swap("S2")).contains("not in your hand"));
    assert!(refused(&state, 2, answer_swap("T1")).contains("no swap offer"));
    let events = play(&mut state, 3, answer_swap("H2"));
    assert_eq!(
        events,
        vec![HatsEvent::Swapped {
            seat: Seat(1),
            partner: Seat(3),
            offered: c("S1"),
            answered: c("H2")
        }]
    );
    assert_eq!(state.hands[1][0], c("H2"));
    assert!(!state.hands[1].contains(&c("S1")));
    assert_eq!(state.hands[3][1], c("S1"));
    assert!(!state.hands[3].contains(&c("H2")));
    assert_eq!(
        state.hands.iter().map(Vec::len).collect::<Vec<_>>(),
        vec![9; 4]
    );
    // the turn returns to the offerer, for the main action only
    assert_eq!(Hats::to_act(&state), vec![Seat(1)]);
    assert!(refused(&state, 1, offer_swap("S2")).contains("already"));
    let legal = Hats::legal_commands(&state, Seat(1));
    assert!(legal.iter().all(|c| matches!(
        c,
        HatsCommand::Exchange { .. } | HatsCommand::BlackHat { .. }
    )));
    play(&mut state, 1, black_hat("H2"));
    assert_eq!(Hats::to_act(&state), vec![Seat(2)]);
    assert!(
        Hats::legal_commands(&state, Seat(2))
            .iter()
            .any(|c| matches!(c, HatsCommand::OfferSwap { .. }))
    );
}

#[test]
fn given_fewer_than_four_players_then_there_is_no_partner_swap() {
    let state = game(3, 0, deal(3, "T1 T2 T3 T4 T5 T6", &["S1"], ""));
    assert!(refused(&state, 0, offer_swap("S1")).contains("4 players"));
    assert!(refused(&state, 0, answer_swap("S1")).contains("no swap offer"));
}

#[test]
fn given_a_partner_with_one_card_left_when_offered_a_swap_then_they_answer_with_it() {
    let mut state = game(4, 0, deal(4, "T1 T2 T3 T4 T5 T6", &[], ""));
    // seven full rounds and the eighth main action of seats 0 and 1
    for _ in 0..30 {
        pass_with_black_hat(&mut state);
    }
    assert_eq!(state.current, 2);
    assert_eq!(state.hands[0].len(), 1);
    let last = state.hands[0][0];
    let offered = state.hands[2][0];
    play(&mut state, 2, HatsCommand::OfferSwap { card: offered });
    assert_eq!(
        Hats::legal_commands(&state, Seat(0)),
        vec![HatsCommand::AnswerSwap { card: last }]
    );
    play(&mut state, 0, HatsCommand::AnswerSwap { card: last });
    assert_eq!(state.hands[0], vec![offered]);
}

#[test]
fn given_every_player_made_eight_main_actions_then_the_game_ends_and_favourites_are_revealed() {
    let mut state = two_player_game();
    for _ in 0..15 {
        pass_with_black_hat(&mut state);
        assert!(Hats::result(&state).is_none());
    }
    assert_eq!(state.hands[0].len(), 1);
    assert_eq!(state.hands[1].len(), 2);
    let favourite_0 = state.hands[0][0];
    let played = state.hands[1][0];
    let favourite_1 = state.hands[1][1];
    let events = play(&mut state, 1, HatsCommand::BlackHat { card: played });
    assert_eq!(
        events,
        vec![
            HatsEvent::BlackHatMade {
                seat: Seat(1),
                card: played
            },
            HatsEvent::FavouritesRevealed {
                favourites: vec![favourite_0, favourite_1]
            },
        ]
    );
    assert!(Hats::to_act(&state).is_empty());
    assert!(Hats::legal_commands(&state, Seat(0)).is_empty());
    assert!(refused(&state, 0, HatsCommand::BlackHat { card: favourite_0 }).contains("over"));
    let result = Hats::result(&state).expect("a result");
    assert_eq!(result.rounds.len(), 1);
    assert_eq!(result.rounds[0].seats[0].favourite_card, Some(favourite_0));
    assert_eq!(
        state.black_hats.iter().map(Vec::len).collect::<Vec<_>>(),
        vec![8, 8]
    );
}

#[test]
fn given_three_players_then_turns_go_clockwise_from_the_first_seat() {
    let mut state = game(3, 2, deal(3, "T1 T2 T3 T4 T5 T6", &[], ""));
    let mut order = vec![];
    for _ in 0..6 {
        order.push(state.current);
        pass_with_black_hat(&mut state);
    }
    assert_eq!(order, vec![2, 0, 1, 2, 0, 1]);
}
