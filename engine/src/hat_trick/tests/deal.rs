//! Decks, deals, indicators, trump, options and seeds.

use super::*;
use crate::hat_trick::cards::{Suit, deck};
use crate::hat_trick::options::{Mode, TrumpMode};
use crate::hat_trick::rules::trump_of;
use crate::ruleset::{Seat, Viewer};

fn opts() -> HatTrickOptions {
    HatTrickOptions::default()
}

fn first_deal(players: usize, options: HatTrickOptions) -> crate::hat_trick::events::Dealt {
    let state = HatTrick::new_game(players, options).unwrap();
    match HatTrick::start(&state, &rng()).remove(0) {
        HatTrickEvent::Dealt(d) => d,
        other => panic!("{other:?}"),
    }
}

#[test]
fn given_each_player_count_then_the_deck_has_its_size() {
    assert_eq!(deck(2, false).len(), 25);
    assert_eq!(deck(3, false).len(), 33);
    assert_eq!(deck(4, false).len(), 45);
    assert_eq!(deck(4, true).len(), 44);
    assert_eq!(deck(5, false).len(), 54);
    assert_eq!(deck(6, false).len(), 61);
    assert_eq!(deck(6, true).len(), 60);
    assert!(deck(6, false).contains(c("11H")) && deck(6, false).contains(c("12S")));
    assert!(!deck(5, false).contains(c("11H")) && deck(5, false).contains(c("2H")));
    assert!(deck(5, false).contains(c("JK1")) && deck(5, false).contains(c("JK2")));
    assert!(!deck(5, false).contains(c("JK")));
    assert!(!deck(2, false).contains(c("8S")) && deck(2, false).contains(c("9S")));
    assert!(!deck(3, false).contains(c("6S")) && deck(3, false).contains(c("7S")));
    assert!(!deck(4, false).contains(c("3S")) && deck(4, false).contains(c("4S")));
}

#[test]
fn given_two_players_when_dealt_then_11_each_3_left_and_the_top_one_is_trump() {
    let d = first_deal(2, opts());
    assert_eq!(
        d.hands.iter().map(|h| h.len()).collect::<Vec<_>>(),
        [11, 11]
    );
    assert_eq!(d.left.len(), 3);
    assert_eq!(d.indicator, Some(d.left[0]));
    assert!(!d.indicator_is_cut);
    assert_eq!(d.trump, trump_of(&opts(), 0, d.indicator).0);
}

#[test]
fn given_three_players_when_dealt_then_11_each_and_the_cut_card_is_the_dealers() {
    for seed in 0..20 {
        let state = HatTrick::new_game(3, opts()).unwrap();
        let events = HatTrick::start(&state, &Randomness::from_seed(&format!("s{seed}")));
        let HatTrickEvent::Dealt(d) = &events[0] else {
            panic!()
        };
        assert_eq!(
            d.hands.iter().map(|h| h.len()).collect::<Vec<_>>(),
            [11, 11, 11]
        );
        assert!(d.left.is_empty() && d.indicator_is_cut);
        assert!(
            d.hands[0].contains(d.indicator.unwrap()),
            "dealer 0 holds the cut card"
        );
    }
}

#[test]
fn given_four_players_when_dealt_then_one_card_is_left_face_up_as_indicator() {
    let d = first_deal(4, opts());
    assert_eq!(d.hands.iter().map(|h| h.len()).collect::<Vec<_>>(), [11; 4]);
    assert_eq!(d.left.len(), 1);
    assert_eq!(d.indicator, Some(d.left[0]));
    let mut state = HatTrick::new_game(4, opts()).unwrap();
    apply_all::<HatTrick>(&mut state, &[HatTrickEvent::Dealt(d.clone())]);
    let view = serde_json::to_value(HatTrick::view(&state, Viewer::Spectator)).unwrap();
    assert_eq!(view["left"][0], d.left[0].code());
}

#[test]
fn given_four_players_without_joker_when_dealt_then_44_cards_and_the_cut_card() {
    let d = first_deal(
        4,
        HatTrickOptions {
            no_joker: true,
            ..opts()
        },
    );
    assert_eq!(d.hands.iter().map(|h| h.len()).sum::<usize>(), 44);
    assert!(d.left.is_empty() && d.indicator_is_cut);
    assert!(d.hands[0].contains(d.indicator.unwrap()));
    assert!(d.hands.iter().all(|h| !h.contains(Card::JOKER)));
}

#[test]
fn given_five_players_when_dealt_then_the_dealer_gets_10_and_sits_out_trick_1() {
    let d = first_deal(5, opts());
    assert_eq!(
        d.hands.iter().map(|h| h.len()).collect::<Vec<_>>(),
        [10, 11, 11, 11, 11]
    );
    assert!(d.hands[0].contains(d.indicator.unwrap()));
    let mut state = started(5, opts());
    assert_eq!(state.sitting_out(), Some(seat(0)));
    let mut order = Vec::new();
    for _ in 0..4 {
        let who = HatTrick::to_act(&state)[0];
        order.push(who.0);
        let card = legal(&state, who.0)[0];
        play(&mut state, who.0, card, false);
    }
    assert_eq!(order, [1, 2, 3, 4], "forehand leads, the dealer is skipped");
    assert_eq!(state.trick_number, 2, "four cards make trick 1");
    assert_eq!(state.sitting_out(), None);
    let mut seen = Vec::new();
    for _ in 0..5 {
        let who = HatTrick::to_act(&state)[0];
        seen.push(who.0);
        let card = legal(&state, who.0)[0];
        play(&mut state, who.0, card, false);
    }
    seen.sort_unstable();
    assert_eq!(seen, [0, 1, 2, 3, 4], "everyone plays to trick 2");
    assert_eq!(
        state.hands.iter().map(|h| h.len()).collect::<Vec<_>>(),
        [9; 5]
    );
}

#[test]
fn given_six_players_when_dealt_then_10_each_one_left_and_10_tricks() {
    let d = first_deal(6, opts());
    assert_eq!(d.hands.iter().map(|h| h.len()).collect::<Vec<_>>(), [10; 6]);
    assert_eq!(d.left.len(), 1);
    assert_eq!(d.indicator, Some(d.left[0]));
    let mut state = started(6, opts());
    play_first_legal(&mut state, |s| s.round > 0 || s.finished);
    assert_eq!(state.results[0].scoring_tricks.len(), 3);
    assert_eq!(state.tricks(), 10);
    let d = first_deal(
        6,
        HatTrickOptions {
            no_joker: true,
            ..opts()
        },
    );
    assert!(d.left.is_empty() && d.indicator_is_cut);
}

#[test]
fn given_indicators_then_k_q_and_joker_give_no_trump_others_their_suit() {
    let o = opts();
    assert_eq!(trump_of(&o, 0, Some(c("KH"))), (Trump::NT, false));
    assert_eq!(trump_of(&o, 0, Some(c("QS"))), (Trump::NT, false));
    assert_eq!(trump_of(&o, 0, Some(c("JK"))), (Trump::NT, false));
    assert_eq!(trump_of(&o, 0, Some(c("JK2"))), (Trump::NT, false));
    assert_eq!(trump_of(&o, 0, Some(c("AD"))), (Trump::D, false));
    assert_eq!(trump_of(&o, 0, Some(c("JC"))), (Trump::C, false));
    assert_eq!(trump_of(&o, 0, Some(c("12S"))), (Trump::S, false));
}

#[test]
fn given_the_cycle_then_trump_goes_hearts_diamonds_clubs_spades_no_trump() {
    let o = HatTrickOptions {
        trump_mode: TrumpMode::Cycle,
        ..opts()
    };
    let trumps: Vec<Trump> = (0..7).map(|r| trump_of(&o, r, None).0).collect();
    assert_eq!(
        trumps,
        [
            Trump::H,
            Trump::D,
            Trump::C,
            Trump::S,
            Trump::NT,
            Trump::H,
            Trump::D
        ]
    );
    let d = first_deal(3, o.clone());
    assert_eq!(d.indicator, None, "no cut card with the cycle");
    let d = first_deal(2, o.clone());
    assert_eq!((d.indicator, d.left.len()), (None, 3));
    let mut state = HatTrick::new_game(2, o).unwrap();
    apply_all::<HatTrick>(&mut state, &[HatTrickEvent::Dealt(d)]);
    let view = serde_json::to_value(HatTrick::view(&state, Viewer::Seat(seat(0)))).unwrap();
    assert_eq!(view["left"], serde_json::json!([null, null, null]));
}

#[test]
fn given_cycle_with_negative_then_the_sixth_deal_is_negative_at_no_trump() {
    let o = HatTrickOptions {
        mode: Mode::CycleWithNegative,
        ..opts()
    };
    let deals: Vec<(Trump, bool)> = (0..7).map(|r| trump_of(&o, r, None)).collect();
    assert_eq!(deals[4], (Trump::NT, false));
    assert_eq!(deals[5], (Trump::NT, true));
    assert_eq!(deals[6], (Trump::H, false));
    assert!(deals[..5].iter().all(|d| !d.1));
    assert_eq!(
        first_deal(3, o).indicator,
        None,
        "the cycle, whatever trump_mode says"
    );
}

#[test]
fn given_jack_negative_when_a_jack_is_revealed_then_the_deal_is_negative_with_its_suit_trump() {
    let o = HatTrickOptions {
        mode: Mode::JackNegative,
        ..opts()
    };
    assert_eq!(trump_of(&o, 0, Some(c("JS"))), (Trump::S, true));
    assert_eq!(trump_of(&o, 0, Some(c("10S"))), (Trump::S, false));
    assert_eq!(trump_of(&o, 0, Some(c("KS"))), (Trump::NT, false));
    let cycle = HatTrickOptions {
        trump_mode: TrumpMode::Cycle,
        ..o
    };
    assert!(
        HatTrick::new_game(3, cycle).is_err(),
        "jack_negative needs the cut"
    );
}

#[test]
fn given_the_negative_game_then_every_deal_is_negative_and_trump_is_chosen_as_usual() {
    let o = HatTrickOptions {
        mode: Mode::Negative,
        ..opts()
    };
    assert_eq!(trump_of(&o, 0, Some(c("9H"))), (Trump::H, true));
    assert_eq!(trump_of(&o, 0, Some(c("KH"))), (Trump::NT, true));
    let cycle = HatTrickOptions {
        trump_mode: TrumpMode::Cycle,
        ..o
    };
    assert_eq!(trump_of(&cycle, 2, None), (Trump::C, true));
}

#[test]
fn given_bad_options_when_creating_then_refused() {
    let refused = |players, o: HatTrickOptions| HatTrick::new_game(players, o).is_err();
    assert!(refused(1, opts()) && refused(7, opts()));
    assert!(refused(
        3,
        HatTrickOptions {
            no_joker: true,
            ..opts()
        }
    ));
    assert!(refused(
        5,
        HatTrickOptions {
            no_joker: true,
            ..opts()
        }
    ));
    assert!(refused(
        3,
        HatTrickOptions {
            rounds: Some(0),
            ..opts()
        }
    ));
    assert!(refused(
        3,
        HatTrickOptions {
            rounds: Some(61),
            ..opts()
        }
    ));
    assert!(refused(
        3,
        HatTrickOptions {
            joker_by_trick: Some(4),
            ..opts()
        }
    ));
    assert!(!refused(
        3,
        HatTrickOptions {
            joker_by_trick: Some(5),
            rounds: Some(60),
            ..opts()
        }
    ));
    let json = serde_json::json!({"rounds": 2, "colour": "red"});
    assert!(
        serde_json::from_value::<HatTrickOptions>(json).is_err(),
        "unknown fields"
    );
    let json =
        serde_json::json!({"rounds": 2, "play_rule": "colour_or_trump", "joker_by_trick": 3});
    assert!(serde_json::from_value::<HatTrickOptions>(json).is_ok());
    assert_eq!(
        HatTrick::options_schema()["properties"]["mode"]["enum"][3],
        "jack_negative"
    );
}

fn three_player_deal() -> Deal {
    // 33 cards 7–A + JK; dealer 0 holds the cut card 9C.
    explicit(
        &[
            "7H 8H 9H 10H JH QH KH AH 7D 8D 9C",
            "9D 10D JD QD KD AD 7C 8C 10C JC QC",
            "KC AC 7S 8S 9S 10S JS QS KS AS JK",
        ],
        "",
        Some("9C"),
    )
}

#[test]
fn given_an_explicit_deal_when_started_then_exactly_that_deal() {
    let deal = three_player_deal();
    let state = started(
        3,
        HatTrickOptions {
            deals: vec![deal.clone()],
            ..opts()
        },
    );
    for (s, hand) in deal.hands.iter().enumerate() {
        assert_eq!(state.hands[s], Hand::of(hand));
    }
    assert_eq!(state.indicator, Some(c("9C")));
    assert_eq!(state.trump, Trump::C);
    assert_eq!(state.leader, seat(1));
    let view = serde_json::to_value(HatTrick::view(&state, Viewer::Spectator)).unwrap();
    assert_eq!(view["indicator_holder"], 0);
}

#[test]
fn given_a_wrong_explicit_deal_when_creating_then_refused() {
    let with = |d: Deal| {
        HatTrick::new_game(
            3,
            HatTrickOptions {
                deals: vec![d],
                ..opts()
            },
        )
    };
    let mut d = three_player_deal();
    d.indicator = Some(c("9D"));
    assert!(
        with(d).is_err(),
        "the cut card must be in the dealer's hand"
    );
    let mut d = three_player_deal();
    d.indicator = None;
    assert!(with(d).is_err(), "the indicator is needed");
    let mut d = three_player_deal();
    d.hands[0][0] = c("6H");
    assert!(with(d).is_err(), "6H is not in the 3-player deck");
    let mut d = three_player_deal();
    d.hands[0][0] = c("8D");
    assert!(with(d).is_err(), "a card twice, another missing");
    let mut d = three_player_deal();
    let moved = d.hands[1].pop().unwrap();
    d.hands[0].push(moved);
    assert!(with(d).is_err(), "sizes");
    let two = explicit(
        &[
            "9H 10H JH QH KH AH 9D 10D JD QD KD",
            "AD 9C 10C JC QC KC AC 9S 10S JS QS",
        ],
        "KS AS JK",
        Some("AS"),
    );
    let with2 = |d: Deal| {
        HatTrick::new_game(
            2,
            HatTrickOptions {
                deals: vec![d],
                ..opts()
            },
        )
    };
    assert!(
        with2(two.clone()).is_err(),
        "the indicator is the top left-over card"
    );
    let mut ok = two.clone();
    ok.indicator = Some(c("KS"));
    assert!(with2(ok).is_ok());
    let cycle = HatTrickOptions {
        trump_mode: TrumpMode::Cycle,
        deals: vec![two],
        ..opts()
    };
    assert!(
        HatTrick::new_game(2, cycle).is_err(),
        "no indicator with the cycle"
    );
    let many = HatTrickOptions {
        rounds: Some(1),
        deals: vec![three_player_deal(); 2],
        ..opts()
    };
    assert!(HatTrick::new_game(3, many).is_err());
}

#[test]
fn given_explicit_deals_then_they_parse_from_the_rules_file_shape() {
    let json = serde_json::json!({"deals": [{
        "hands": [["7H","8H","9H","10H","JH","QH","KH","AH","7D","8D","9C"],
                  ["9D","10D","JD","QD","KD","AD","7C","8C","10C","JC","QC"],
                  ["KC","AC","7S","8S","9S","10S","JS","QS","KS","AS","JK"]],
        "indicator": "9C"}]});
    let o: HatTrickOptions = serde_json::from_value(json).unwrap();
    assert_eq!(o.deals[0], three_player_deal());
    assert!(HatTrick::new_game(3, o).is_ok());
}

#[test]
fn given_the_same_seed_then_the_same_deals_and_another_seed_other_deals() {
    for players in 2..=6 {
        let state = HatTrick::new_game(players, opts()).unwrap();
        let a = HatTrick::start(&state, &Randomness::from_seed("one"));
        let b = HatTrick::start(&state, &Randomness::from_seed("one"));
        let other = HatTrick::start(&state, &Randomness::from_seed("two"));
        assert_eq!(a, b);
        assert_ne!(a, other);
    }
}

#[test]
fn given_a_match_then_the_deal_moves_left_and_forehand_leads() {
    let mut state = started(
        4,
        HatTrickOptions {
            rounds: Some(5),
            ..opts()
        },
    );
    let mut dealers = vec![state.dealer];
    let mut leaders = vec![state.leader];
    for r in 1..5 {
        play_first_legal(&mut state, |s| s.round == r);
        dealers.push(state.dealer);
        leaders.push(state.leader);
    }
    assert_eq!(dealers, [0, 1, 2, 3, 0].map(Seat));
    assert_eq!(leaders, [1, 2, 3, 0, 1].map(Seat));
    play_first_legal(&mut state, |s| s.finished);
    let result = HatTrick::result(&state).unwrap();
    assert_eq!(result.rounds.len(), 5);
    let sum: Vec<i32> = (0..4)
        .map(|s| result.rounds.iter().map(|r| r.points[s]).sum())
        .collect();
    assert_eq!(result.scores, sum);
    assert_eq!(HatTrick::to_act(&state), []);
}

#[test]
fn given_default_rounds_then_one_deal_per_player() {
    for players in 2..=6 {
        let mut state = started(players, opts());
        play_first_legal(&mut state, |s| s.finished);
        assert_eq!(state.results.len(), players);
    }
}

#[test]
fn given_suits_then_colours_pair_hearts_diamonds_and_clubs_spades() {
    assert_eq!(Suit::H.partner(), Suit::D);
    assert_eq!(Suit::D.partner(), Suit::H);
    assert_eq!(Suit::C.partner(), Suit::S);
    assert_eq!(Suit::S.partner(), Suit::C);
    assert_eq!(c("10H").code(), "10H");
    assert_eq!(c("12C").rank(), 12);
    assert!(c("JC").rank() > c("12C").rank());
    assert!(Card::parse("13H").is_none() && Card::parse("??").is_none());
}

#[test]
fn given_jack_negative_when_the_cut_card_is_a_jack_then_the_deal_is_negative() {
    let mut deal = three_player_deal();
    // Dealer 0 takes JC as the cut card, seat 1 the 9C.
    deal.hands[0][10] = c("JC");
    deal.hands[1][9] = c("9C");
    deal.indicator = Some(c("JC"));
    let o = HatTrickOptions {
        mode: Mode::JackNegative,
        deals: vec![deal],
        ..opts()
    };
    let state = started(3, o);
    assert_eq!((state.trump, state.negative), (Trump::C, true));
    assert!(!may_predict(&state, 1));
}

#[test]
fn given_cycle_with_negative_when_the_sixth_deal_comes_then_it_is_played_negative_at_no_trump() {
    let o = HatTrickOptions {
        mode: Mode::CycleWithNegative,
        rounds: Some(6),
        ..opts()
    };
    let mut state = started(3, o);
    play_first_legal(&mut state, |s| s.round == 5);
    assert_eq!(
        (state.trump, state.negative, state.indicator),
        (Trump::NT, true, None)
    );
    play_first_legal(&mut state, |s| s.finished);
    let r = &state.results[5];
    assert!(r.negative && r.predictions.is_empty());
    assert!(
        r.points.iter().all(|&p| p <= 3),
        "a negative deal's points are subtracted"
    );
    assert!(state.results[..5].iter().all(|r| !r.negative));
}

#[test]
fn given_explicit_deals_for_some_rounds_then_each_is_used_for_its_round() {
    let mut second = three_player_deal();
    // Deal 2's dealer is seat 1: it must hold the cut card.
    second.indicator = Some(c("QC"));
    let o = HatTrickOptions {
        rounds: Some(3),
        deals: vec![three_player_deal(), second.clone()],
        ..opts()
    };
    let mut state = started(3, o);
    play_first_legal(&mut state, |s| s.round == 1);
    assert_eq!(state.hands[1], Hand::of(&second.hands[1]));
    assert_eq!(
        (state.indicator, state.trump, state.dealer),
        (Some(c("QC")), Trump::NT, seat(1))
    );
    play_first_legal(&mut state, |s| s.round == 2);
    assert_ne!(
        state.hands[0],
        Hand::of(&second.hands[0]),
        "round 3 is shuffled"
    );
}

#[test]
fn given_the_same_seed_and_the_same_play_then_the_same_whole_match() {
    let log = |seed: &str| {
        let randomness = Randomness::from_seed(seed);
        let mut state = HatTrick::new_game(4, opts()).unwrap();
        let mut log = HatTrick::start(&state, &randomness);
        apply_all::<HatTrick>(&mut state, &log);
        while let Some(&who) = HatTrick::to_act(&state).first() {
            let command = HatTrick::legal_commands(&state, who).pop().unwrap();
            let events = HatTrick::decide(&state, who, &command, &randomness).unwrap();
            apply_all::<HatTrick>(&mut state, &events);
            log.extend(events);
        }
        log
    };
    assert_eq!(log("match"), log("match"));
    assert_ne!(log("match"), log("other match"));
}

/// The `Dealt` events of a whole match played to the end by always playing
/// the first legal card (every deal of the match, not only the first).
fn dealt_events(players: usize, options: HatTrickOptions, rng: &Randomness) -> Vec<HatTrickEvent> {
    let mut state = HatTrick::new_game(players, options).unwrap();
    let mut events = HatTrick::start(&state, rng);
    let mut dealt = Vec::new();
    loop {
        for e in &events {
            HatTrick::evolve(&mut state, e);
            if matches!(e, HatTrickEvent::Dealt(_)) {
                dealt.push(e.clone());
            }
        }
        let Some(&s) = HatTrick::to_act(&state).first() else {
            return dealt;
        };
        let command = HatTrick::legal_commands(&state, s).remove(0);
        events = HatTrick::decide(&state, s, &command, rng).unwrap();
    }
}

#[test]
fn given_the_drawn_deals_when_a_game_is_given_them_then_it_deals_as_a_game_from_that_seed() {
    let cases = [
        (2, HatTrickOptions::default()),
        (3, HatTrickOptions::default()),
        (4, HatTrickOptions::default()),
        (
            4,
            HatTrickOptions {
                no_joker: true,
                ..opts()
            },
        ),
        (5, HatTrickOptions::default()),
        (
            6,
            HatTrickOptions {
                trump_mode: TrumpMode::Cycle,
                rounds: Some(7),
                ..opts()
            },
        ),
        (
            3,
            HatTrickOptions {
                mode: Mode::JackNegative,
                rounds: Some(4),
                ..opts()
            },
        ),
    ];
    for (players, options) in cases {
        // Given the deals drawn from a round seed for every deal of the match,
        let seed = Randomness::from_seed("round seed");
        let rounds = options.round_count(players);
        let drawn: Vec<Deal> = (0..rounds)
            .map(|r| Deal::drawn(&options, players, r, &seed))
            .collect();
        // when a game is given them (and another seed),
        let given = HatTrickOptions {
            deals: drawn,
            ..options.clone()
        };
        let table = dealt_events(players, given, &Randomness::from_seed("a table's own seed"));
        // then every deal opens as in a game dealt from the round seed.
        let shuffled = dealt_events(players, options, &seed);
        assert_eq!(table.len(), usize::from(rounds), "{players} players");
        assert_eq!(table, shuffled, "{players} players");
    }
}

#[test]
fn given_drawn_deals_then_they_are_valid_deals_and_another_seed_draws_other_cards() {
    for players in 2..=6 {
        let options = opts();
        let a = Randomness::from_seed("round 0");
        let deals: Vec<Deal> = (0..options.round_count(players))
            .map(|r| Deal::drawn(&options, players, r, &a))
            .collect();
        // Each deal passes the validation of explicit deals (the dealer rotates).
        let given = HatTrickOptions {
            deals: deals.clone(),
            ..opts()
        };
        assert_eq!(given.validate(players), Ok(()), "{players} players");
        // The same seed draws the same; another draws other cards.
        assert_eq!(Deal::drawn(&options, players, 0, &a), deals[0]);
        let b = Randomness::from_seed("round 1");
        assert_ne!(Deal::drawn(&options, players, 0, &b), deals[0]);
        // Deal 1 is not deal 0 again.
        assert_ne!(deals[1], deals[0]);
    }
}

#[test]
fn given_trump_by_the_cycle_then_the_drawn_deal_has_no_indicator() {
    let options = HatTrickOptions {
        trump_mode: TrumpMode::Cycle,
        ..opts()
    };
    let d = Deal::drawn(&options, 4, 0, &rng());
    assert_eq!(d.indicator, None);
    assert_eq!(d.left.len(), 1);
    // With the cut card by the indicator, the 5-player dealer of deal 2 holds it.
    let d = Deal::drawn(&opts(), 5, 2, &rng());
    assert_eq!(d.hands[2].len(), 10);
    assert!(d.hands[2].contains(&d.indicator.unwrap()));
}
