//! Options, deals, seeds, the dealer's rotation and the wire format.

use super::*;

#[test]
fn given_default_options_then_a_match_is_fifteen_rounds_without_explicit_deals() {
    let options = GoatheadOptions::default();
    assert_eq!(options.rounds, 15);
    assert!(options.deals.is_empty());
    let parsed: GoatheadOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(parsed, options);
    assert!(serde_json::from_str::<GoatheadOptions>(r#"{"round": 3}"#).is_err());
    let schema = Goathead::options_schema();
    assert_eq!(schema["properties"]["rounds"]["default"], 15);
}

#[test]
fn given_a_wrong_table_or_length_when_creating_then_it_is_refused() {
    for players in [2, 5] {
        assert!(Goathead::new_game(players, GoatheadOptions::default()).is_err());
    }
    for rounds in [0, 101] {
        let options = GoatheadOptions {
            rounds,
            deals: vec![],
        };
        assert!(Goathead::new_game(3, options).is_err());
    }
    let options = GoatheadOptions {
        rounds: 100,
        deals: vec![],
    };
    assert!(Goathead::new_game(4, options).is_ok());
}

#[test]
fn given_a_malformed_explicit_deal_when_creating_then_it_is_refused() {
    let bad = [
        // wrong hand size
        deal(
            &[
                "AC 10C KC QC JC",
                "AS 10S KS QS AH JH JS",
                "10H KH QH AD 10D JD",
            ],
            "KD QD",
        ),
        // a card twice, one missing
        deal(
            &[
                "AC 10C KC QC JC AC",
                "AS 10S KS QS AH JH",
                "10H KH QH AD 10D JD",
            ],
            "KD QD",
        ),
        // 4-player shape at a 3-player table
        deal4(),
    ];
    for deal in bad {
        let options = GoatheadOptions {
            rounds: 1,
            deals: vec![deal],
        };
        assert!(Goathead::new_game(3, options).is_err());
    }
    let too_many = GoatheadOptions {
        rounds: 1,
        deals: vec![deal3(), deal3()],
    };
    assert!(Goathead::new_game(3, too_many).is_err());
}

#[test]
fn given_an_explicit_deal_when_the_match_starts_then_exactly_that_deal_is_dealt() {
    let state = Goathead::new_game(
        3,
        GoatheadOptions {
            rounds: 1,
            deals: vec![deal3()],
        },
    )
    .unwrap();
    let events = Goathead::start(&state, &rng());
    assert_eq!(
        events,
        vec![GoatheadEvent::Dealt {
            round: 0,
            dealer: s(0),
            hands: vec![
                set("AC 10C KC QC JC JS"),
                set("AS 10S KS QS AH JH"),
                set("10H KH QH AD 10D JD")
            ],
            kitty: set("KD QD"),
        }]
    );
}

#[test]
fn given_the_same_seed_when_two_matches_start_then_the_deals_are_the_same() {
    for players in [3, 4] {
        let state = Goathead::new_game(players, GoatheadOptions::default()).unwrap();
        let a = Goathead::start(&state, &Randomness::from_seed("seed A"));
        let b = Goathead::start(&state, &Randomness::from_seed("seed A"));
        let c = Goathead::start(&state, &Randomness::from_seed("seed B"));
        assert_eq!(a, b);
        assert_ne!(a, c);
        let GoatheadEvent::Dealt { hands, kitty, .. } = &a[0] else {
            panic!("a deal")
        };
        assert!(hands.iter().all(|h| h.len() == hand_size(players)));
        assert_eq!(kitty.len(), kitty_size(players));
        let all = hands.iter().fold(*kitty, |acc, h| acc.union(*h));
        assert_eq!(all, CardSet::deck());
    }
}

#[test]
fn given_a_shuffled_round_then_it_is_drawn_from_the_deal_stream_of_that_round() {
    use crate::random::shuffle;
    let state = Goathead::new_game(3, GoatheadOptions::default()).unwrap();
    let randomness = Randomness::from_seed("audit me");
    let mut deck: Vec<Card> = Card::all().collect();
    shuffle(&mut deck, &mut randomness.stream("deal", 0));
    let GoatheadEvent::Dealt { hands, kitty, .. } = &Goathead::start(&state, &randomness)[0] else {
        panic!("a deal")
    };
    assert_eq!(hands[0], CardSet::of(deck[0..6].iter().copied()));
    assert_eq!(hands[2], CardSet::of(deck[12..18].iter().copied()));
    assert_eq!(*kitty, CardSet::of(deck[18..].iter().copied()));
}

fn everyone_passes_to(state: &mut GoatheadState) {
    // Everyone passes: Leasters, then every seat plays its lowest playable card.
    for _ in 0..3 {
        let actor = state.actor().unwrap();
        act(state, actor.0, pass());
    }
    while let Some(actor) = state.actor() {
        let round = state.round;
        let legal = Goathead::legal_commands(state, actor);
        act(state, actor.0, legal[0]);
        if state.round != round {
            break;
        }
    }
}

#[test]
fn given_a_match_when_rounds_end_then_the_dealer_moves_left_game_points_carry_and_the_view_shows_the_last_round()
 {
    let mut state = game_with(3, 4, vec![]);
    let mut totals = vec![0; 3];
    for r in 0..4u8 {
        assert_eq!(state.round, r);
        assert_eq!(state.dealer, s(usize::from(r) % 3));
        // Bidding and play start left of the dealer.
        assert_eq!(state.actor(), Some(state.left(state.dealer)));
        everyone_passes_to(&mut state);
        let last = state.history.last().unwrap();
        for (t, p) in totals.iter_mut().zip(&last.payments) {
            *t += p;
        }
        assert_eq!(state.game_points, totals);
    }
    assert!(state.finished());
    let view = Goathead::view(&state, crate::ruleset::Viewer::Spectator);
    assert_eq!(view.game_points, totals);
    // The view shows the last scored round only; the result keeps them all.
    assert_eq!(view.last_round.as_ref(), state.history.last());
    assert_eq!(Goathead::result(&state).expect("finished").rounds.len(), 4);
}

#[test]
fn given_commands_as_json_then_they_parse_in_the_documented_shape() {
    let parse = |s: &str| serde_json::from_str::<GoatheadCommand>(s);
    assert_eq!(parse(r#"{"type":"pass"}"#).unwrap(), pass());
    assert_eq!(
        parse(r#"{"type":"steal"}"#).unwrap(),
        GoatheadCommand::Steal {}
    );
    assert_eq!(
        parse(r#"{"type":"bid","contract":"suit:H"}"#).unwrap(),
        bid("suit:H")
    );
    assert_eq!(
        parse(r#"{"type":"upgrade","contract":"nil"}"#).unwrap(),
        GoatheadCommand::Upgrade {
            contract: Contract::Nil
        }
    );
    assert_eq!(
        parse(r#"{"type":"play","card":"10S"}"#).unwrap(),
        play("10S")
    );
    assert_eq!(
        parse(r#"{"type":"kitty_swap","hand_card":"JC","kitty_card":"QD"}"#).unwrap(),
        GoatheadCommand::KittySwap {
            hand_card: c("JC"),
            kitty_card: c("QD")
        }
    );
    for json in [
        r#"{"type":"take_kitty"}"#,
        r#"{"type":"leave_kitty"}"#,
        r#"{"type":"bury","card":"AC"}"#,
        r#"{"type":"keep_contract"}"#,
        r#"{"type":"kitty_skip"}"#,
    ] {
        assert!(parse(json).is_ok(), "{json}");
    }
    assert!(parse(r#"{"type":"pass","extra":1}"#).is_err());
    assert!(parse(r#"{"type":"play","card":"9C"}"#).is_err());
    assert!(parse(r#"{"type":"bid","contract":"suit:X"}"#).is_err());
}

#[test]
fn given_events_as_json_then_they_have_a_type_and_data_and_no_reserved_prefix() {
    let mut state = game(3, deal3());
    let mut events = Goathead::start(
        &Goathead::new_game(3, GoatheadOptions::default()).unwrap(),
        &rng(),
    );
    events.extend(act(&mut state, 1, pass()));
    let json = serde_json::to_value(&events[1]).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"type": "passed", "data": {"seat": 1}})
    );
    let dealt = serde_json::to_value(&events[0]).unwrap();
    assert_eq!(dealt["type"], "dealt");
    assert_eq!(dealt["data"]["hands"].as_array().unwrap().len(), 3);
    for event in &events {
        let kind = serde_json::to_value(event).unwrap()["type"]
            .as_str()
            .unwrap()
            .to_string();
        for reserved in ["game_", "player_", "seat_", "turn_", "deadline_"] {
            assert!(!kind.starts_with(reserved), "{kind}");
        }
    }
}

#[test]
fn given_the_card_codes_then_they_round_trip_and_the_deck_holds_120_points() {
    for card in Card::all() {
        assert_eq!(Card::parse(&card.to_string()), Some(card));
    }
    assert_eq!(c("10S").to_string(), "10S");
    assert_eq!(CardSet::deck().points(), 120);
    assert_eq!(Card::parse("1S"), None);
    assert_eq!(Card::parse(""), None);
}
