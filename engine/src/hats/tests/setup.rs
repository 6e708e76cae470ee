//! The deal, the options and the command format.

use super::*;
use crate::hats::{HatsCommand, Step};
use crate::ruleset::Viewer;

fn dealt(state: &HatsState) -> (Vec<Card>, Vec<Vec<Card>>, Vec<Card>) {
    (state.line.clone(), state.hands.clone(), state.deck.clone())
}

fn random_game(players: usize, seed: &str) -> HatsState {
    let mut state = Hats::new_game(players, HatsOptions::default()).unwrap();
    let opening = Hats::start(&state, &Randomness::from_seed(seed));
    apply_all::<Hats>(&mut state, &opening);
    state
}

#[test]
fn given_two_players_when_dealt_then_thirty_cards_of_five_types_and_a_line_of_five() {
    let state = random_game(2, "two");
    let (line, hands, deck) = dealt(&state);
    assert_eq!(line.len(), 5);
    assert!(hands.iter().all(|h| h.len() == 9));
    assert_eq!(deck.len(), 30 - 5 - 18);
    let mut all: Vec<Card> = line
        .iter()
        .chain(hands.iter().flatten())
        .chain(&deck)
        .copied()
        .collect();
    all.sort();
    assert_eq!(all, cards_in_play(2).collect::<Vec<_>>());
    assert!(all.iter().all(|c| !matches!(&c.code()[..1], "F" | "W")));
}

#[test]
fn given_three_or_four_players_when_dealt_then_all_42_cards_and_a_line_of_six() {
    for (players, deck) in [(3, 9), (4, 0)] {
        let state = random_game(players, "more");
        let (line, hands, rest) = dealt(&state);
        assert_eq!(line.len(), 6);
        assert_eq!(hands.len(), players);
        assert!(hands.iter().all(|h| h.len() == 9));
        assert_eq!(rest.len(), deck);
        let mut all: Vec<Card> = line
            .iter()
            .chain(hands.iter().flatten())
            .chain(&rest)
            .copied()
            .collect();
        all.sort();
        assert_eq!(all.len(), 42);
        all.dedup();
        assert_eq!(all.len(), 42);
    }
}

#[test]
fn given_the_same_seed_when_started_twice_then_the_same_opening_events() {
    for players in 2..=4 {
        let state = Hats::new_game(players, HatsOptions::default()).unwrap();
        let a = Hats::start(&state, &Randomness::from_seed("same"));
        let b = Hats::start(&state, &Randomness::from_seed("same"));
        let other = Hats::start(&state, &Randomness::from_seed("other"));
        assert_eq!(a, b);
        assert_ne!(a, other);
    }
}

#[test]
fn given_a_seed_when_dealt_then_the_deal_is_the_deal_stream_shuffle_of_the_cards_in_play() {
    let mut expected: Vec<Card> = cards_in_play(3).collect();
    crate::random::shuffle(
        &mut expected,
        &mut Randomness::from_seed("audit").stream("deal", 0),
    );
    let state = random_game(3, "audit");
    let (line, hands, deck) = dealt(&state);
    let got: Vec<Card> = line
        .into_iter()
        .chain(hands.into_iter().flatten())
        .chain(deck)
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn given_an_explicit_deal_when_started_then_exactly_that_deal() {
    let d = deal(3, "C2 D4 H5 H4 F6 H6", &["T1 T2", "S1"], "W6 W5");
    let state = Hats::new_game(
        3,
        HatsOptions {
            first_seat: 0,
            deals: vec![d.clone()],
        },
    )
    .unwrap();
    let opening = Hats::start(&state, &rng());
    assert_eq!(
        opening,
        vec![HatsEvent::Dealt {
            line: d.line.clone(),
            hands: d.hands.clone(),
            deck: d.deck.clone()
        }]
    );
    let state = game(3, 0, d.clone());
    assert_eq!(dealt(&state), (d.line, d.hands, d.deck));
}

#[test]
fn given_bad_explicit_deals_when_new_game_then_options_errors() {
    let good = deal(2, "T1 T2 T3 T4 T5", &[], "");
    assert!(
        Hats::new_game(
            2,
            HatsOptions {
                first_seat: 0,
                deals: vec![good.clone()]
            }
        )
        .is_ok()
    );
    let err = |d: Deal, players: usize| {
        Hats::new_game(
            players,
            HatsOptions {
                first_seat: 0,
                deals: vec![d],
            },
        )
        .unwrap_err()
        .0
    };
    // a duplicate card
    let mut dup = good.clone();
    dup.deck[0] = dup.line[0];
    assert!(err(dup, 2).contains("twice"));
    // a missing card
    let mut missing = good.clone();
    missing.deck.pop();
    assert!(err(missing, 2).contains("missing"));
    // a flower in a 2-player game
    let mut flower = good.clone();
    flower.deck[0] = c("F1");
    assert!(err(flower, 2).contains("not in play"));
    // a hand of eight
    let mut short = good.clone();
    let moved = short.hands[0].pop().unwrap();
    short.deck.push(moved);
    assert!(err(short, 2).contains("hand 0"));
    // a line of six with two players
    let mut long = good.clone();
    let moved = long.deck.pop().unwrap();
    long.line.push(moved);
    assert!(err(long, 2).contains("line"));
    // a deal for three players used by two
    assert!(err(deal(3, "T1 T2 T3 T4 T5 T6", &[], ""), 2).contains("line"));
    // too many hands
    let mut three_hands = deal(2, "T1 T2 T3 T4 T5", &[], "");
    three_hands.hands.push(vec![]);
    assert!(err(three_hands, 2).contains("hands"));
}

#[test]
fn given_bad_options_when_new_game_then_options_errors() {
    let two_deals = HatsOptions {
        first_seat: 0,
        deals: vec![
            deal(2, "T1 T2 T3 T4 T5", &[], ""),
            deal(2, "T1 T2 T3 T4 T5", &[], ""),
        ],
    };
    assert!(
        Hats::new_game(2, two_deals)
            .unwrap_err()
            .0
            .contains("one deal")
    );
    let far_seat = HatsOptions {
        first_seat: 3,
        deals: vec![],
    };
    assert!(Hats::new_game(3, far_seat.clone()).is_err());
    assert!(Hats::new_game(4, far_seat).is_ok());
    assert!(Hats::new_game(1, HatsOptions::default()).is_err());
    assert!(Hats::new_game(5, HatsOptions::default()).is_err());
}

#[test]
fn given_options_json_when_parsed_then_fields_are_first_seat_and_deals() {
    let json = serde_json::json!({
        "first_seat": 1,
        "deals": [{"line": ["T1","T2","T3","T4","T5"], "hands": [["S1"], ["S2"]], "deck": ["H5"]}]
    });
    let options: HatsOptions = serde_json::from_value(json).unwrap();
    assert_eq!(options.first_seat, 1);
    assert_eq!(options.deals[0].line[4], c("T5"));
    assert_eq!(options.deals[0].deck, vec![c("H5")]);
    let defaults: HatsOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(defaults, HatsOptions::default());
    assert!(serde_json::from_str::<HatsOptions>(r#"{"seat": 1}"#).is_err());
    assert!(
        serde_json::from_str::<HatsOptions>(
            r#"{"deals": [{"line": ["X9"], "hands": [], "deck": []}]}"#
        )
        .is_err()
    );
    assert_eq!(Hats::options_schema()["properties"]["deals"]["maxItems"], 1);
}

#[test]
fn given_command_json_when_parsed_then_the_exact_shapes_of_the_rules_file() {
    let parse = |s: &str| serde_json::from_str::<HatsCommand>(s).unwrap();
    assert_eq!(
        parse(r#"{"type":"discard_draw","card":"H5"}"#),
        discard_draw("H5")
    );
    assert_eq!(
        parse(r#"{"type":"offer_swap","card":"F2"}"#),
        offer_swap("F2")
    );
    assert_eq!(
        parse(r#"{"type":"answer_swap","card":"W6"}"#),
        answer_swap("W6")
    );
    assert_eq!(
        parse(r#"{"type":"exchange","card":"T1","position":3}"#),
        exchange("T1", 3)
    );
    assert_eq!(
        parse(r#"{"type":"black_hat","card":"D4"}"#),
        black_hat("D4")
    );
    assert_eq!(
        serde_json::to_string(&exchange("H5", 2)).unwrap(),
        r#"{"type":"exchange","card":"H5","position":2}"#
    );
    assert!(
        serde_json::from_str::<HatsCommand>(r#"{"type":"black_hat","card":"D4","x":1}"#).is_err()
    );
    assert!(serde_json::from_str::<HatsCommand>(r#"{"type":"black_hat","card":"D7"}"#).is_err());
    assert!(serde_json::from_str::<HatsCommand>(r#"{"type":"pass"}"#).is_err());
}

#[test]
fn given_first_seat_when_started_then_that_seat_is_on_turn_at_the_main_step() {
    let state = game(3, 2, deal(3, "T1 T2 T3 T4 T5 T6", &[], ""));
    assert_eq!(Hats::to_act(&state), vec![Seat(2)]);
    assert_eq!(state.step, Step::Main);
    assert!(Hats::legal_commands(&state, Seat(0)).is_empty());
    let default_first = game(2, 0, deal(2, "T1 T2 T3 T4 T5", &[], ""));
    assert_eq!(Hats::to_act(&default_first), vec![Seat(0)]);
}

#[test]
fn given_a_new_game_before_the_deal_then_nobody_acts_and_commands_are_refused() {
    let state = Hats::new_game(2, HatsOptions::default()).unwrap();
    assert!(Hats::to_act(&state).is_empty());
    assert!(Hats::result(&state).is_none());
    assert!(Hats::decide(&state, Seat(0), &black_hat("T1"), &rng()).is_err());
    let view = serde_json::to_value(Hats::view(&state, Viewer::Spectator)).unwrap();
    assert_eq!(view["to_act"], serde_json::json!([]));
}

#[test]
fn card_codes_round_trip_and_unknown_codes_are_refused() {
    for card in cards_in_play(4) {
        assert_eq!(Card::parse(card.code()), Some(card));
    }
    assert_eq!(c("H5").number(), 5);
    assert_eq!(c("W1").kind(), 6);
    for bad in ["", "H", "H0", "H7", "X1", "H55", "10"] {
        assert_eq!(Card::parse(bad), None, "{bad}");
    }
}
