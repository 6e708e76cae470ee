//! The rules of play: following, the joker, the alternative rules of play,
//! `joker_by_trick`, and who takes a trick.

use super::*;
use crate::hat_trick::events::TrickWon;
use crate::hat_trick::options::{Mode, PlayRule};
use crate::hat_trick::rules::trick_winner;
use crate::hat_trick::state::Play;

fn opts() -> HatTrickOptions {
    HatTrickOptions::default()
}

fn rule(play_rule: PlayRule) -> HatTrickOptions {
    HatTrickOptions {
        play_rule,
        ..opts()
    }
}

fn winner_of(events: &[HatTrickEvent]) -> u8 {
    events
        .iter()
        .find_map(|e| match e {
            HatTrickEvent::TrickWon(TrickWon { winner, .. }) => Some(winner.0),
            _ => None,
        })
        .expect("a trick was won")
}

#[test]
fn given_spades_led_when_holding_spades_then_must_follow_suit() {
    let mut state = given_table(opts(), &["AS 7S", "9S 10H JK", "8S 9H"], Trump::H, 2, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["9S", "JK"]);
    assert!(try_play(&state, 1, "10H", false).is_err());
}

#[test]
fn given_a_trump_deal_when_void_in_the_led_suit_then_must_play_the_highest_trump() {
    let mut state = given_table(
        opts(),
        &["AS 7S", "8H 10H 7D 9C JK", "8S 9H"],
        Trump::H,
        2,
        0,
    );
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["10H", "JK"]);
    assert!(try_play(&state, 1, "8H", false).is_err());
}

#[test]
fn given_a_trump_deal_when_void_in_led_suit_and_trump_then_anything() {
    let mut state = given_table(opts(), &["AS 7S", "7D 9C", "8S 9H"], Trump::H, 2, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(
        legal(&state, 1),
        ["7D", "9C"],
        "no same-colour duty in a trump deal"
    );
}

#[test]
fn given_no_trump_when_void_in_the_led_suit_then_must_play_the_highest_of_the_same_colour() {
    let mut state = given_table(opts(), &["AS 7S", "7C 9C 10D AH", "8S 9H"], Trump::NT, 2, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["9C"]);
    let mut state = given_table(opts(), &["AH 7S", "7C 9C 10D", "8S 9H"], Trump::NT, 2, 0);
    play(&mut state, 0, "AH", false);
    assert_eq!(legal(&state, 1), ["10D"], "♥ ↔ ♦");
}

#[test]
fn given_no_trump_when_void_in_the_led_suit_and_its_colour_then_anything() {
    let mut state = given_table(opts(), &["AS 7S", "10D AH", "8S 9H"], Trump::NT, 2, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["AH", "10D"]);
}

#[test]
fn given_any_trick_then_the_joker_may_always_be_played() {
    let mut state = given_table(opts(), &["AS 7S", "9S JK", "8S 9H"], Trump::H, 2, 0);
    assert_eq!(legal(&state, 0), ["7S", "AS"]);
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["9S", "JK"]);
    play(&mut state, 1, "JK", false);
    assert_eq!(legal(&state, 2), ["8S"]);
}

#[test]
fn given_a_led_joker_then_the_next_card_sets_the_suit_and_the_joker_never_wins() {
    let mut state = given_table(opts(), &["JK 7S", "9D 9S", "8S 7D 9H"], Trump::H, 2, 0);
    play(&mut state, 0, "JK", false);
    assert_eq!(
        legal(&state, 1),
        ["9D", "9S"],
        "after a led joker: anything"
    );
    play(&mut state, 1, "9D", false);
    assert_eq!(legal(&state, 2), ["7D"], "the 9D set the suit");
    let events = play(&mut state, 2, "7D", false);
    assert_eq!(winner_of(&events), 1);
    assert_eq!(state.leader, seat(1));
}

#[test]
fn given_two_jokers_led_then_the_first_suit_card_sets_the_suit() {
    let trick = [
        Play {
            seat: seat(1),
            card: c("JK1"),
        },
        Play {
            seat: seat(2),
            card: c("JK2"),
        },
        Play {
            seat: seat(3),
            card: c("2C"),
        },
        Play {
            seat: seat(4),
            card: c("AS"),
        },
        Play {
            seat: seat(0),
            card: c("3C"),
        },
    ];
    assert_eq!(trick_winner(&trick, Trump::NT, false), seat(0));
    assert_eq!(trick_winner(&trick, Trump::S, false), seat(4));
}

#[test]
fn given_a_trick_then_the_highest_trump_wins_else_the_highest_of_the_led_suit() {
    let trick = [
        Play {
            seat: seat(0),
            card: c("9S"),
        },
        Play {
            seat: seat(1),
            card: c("AD"),
        },
        Play {
            seat: seat(2),
            card: c("7H"),
        },
        Play {
            seat: seat(3),
            card: c("10S"),
        },
    ];
    assert_eq!(trick_winner(&trick, Trump::H, false), seat(2));
    assert_eq!(trick_winner(&trick, Trump::NT, false), seat(3));
    assert_eq!(trick_winner(&trick, Trump::D, false), seat(1));
    let six = [
        Play {
            seat: seat(0),
            card: c("12S"),
        },
        Play {
            seat: seat(1),
            card: c("JS"),
        },
        Play {
            seat: seat(2),
            card: c("11S"),
        },
    ];
    assert_eq!(
        trick_winner(&six, Trump::NT, false),
        seat(1),
        "J ranks above 12"
    );
}

#[test]
fn given_a_negative_deal_then_the_joker_wins_and_of_two_the_first() {
    let trick = [
        Play {
            seat: seat(0),
            card: c("AS"),
        },
        Play {
            seat: seat(1),
            card: c("JK2"),
        },
        Play {
            seat: seat(2),
            card: c("JK1"),
        },
        Play {
            seat: seat(3),
            card: c("KH"),
        },
    ];
    assert_eq!(trick_winner(&trick, Trump::H, true), seat(1));
    assert_eq!(trick_winner(&trick, Trump::H, false), seat(3));
    let o = HatTrickOptions {
        mode: Mode::Negative,
        ..opts()
    };
    let mut state = given_table(o, &["AS 7S", "9S JK", "8S 9H"], Trump::H, 2, 0);
    let events = play_trick(&mut state, &[(0, "AS"), (1, "JK"), (2, "8S")]);
    assert_eq!(winner_of(&events), 1);
}

#[test]
fn given_colour_first_when_void_then_the_highest_of_the_same_colour_before_trump() {
    let o = rule(PlayRule::ColourFirst);
    let mut state = given_table(o.clone(), &["AS 7S", "7C 9C 10H", "8S 9H"], Trump::H, 2, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["9C"]);
    let mut state = given_table(o.clone(), &["AS 7S", "7D 10H 8H", "8S 9H"], Trump::H, 2, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["10H"], "no ♣: the highest trump");
    let mut state = given_table(o, &["AS 7S", "7D 9D", "8S 9H"], Trump::H, 2, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["7D", "9D"], "neither: anything");
}

#[test]
fn given_colour_first_when_trump_is_led_and_void_then_the_same_colour_literally() {
    let o = rule(PlayRule::ColourFirst);
    let mut state = given_table(o, &["AH 7S", "7D 9D 8C", "8S 9H"], Trump::H, 2, 0);
    play(&mut state, 0, "AH", false);
    assert_eq!(legal(&state, 1), ["9D"]);
    let mut state = given_table(opts(), &["AH 7S", "7D 9D 8C", "8S 9H"], Trump::H, 2, 0);
    play(&mut state, 0, "AH", false);
    assert_eq!(legal(&state, 1), ["7D", "9D", "8C"], "standard: anything");
}

#[test]
fn given_colour_or_trump_when_void_then_either_the_highest_of_colour_or_the_highest_trump() {
    let o = rule(PlayRule::ColourOrTrump);
    let mut state = given_table(
        o.clone(),
        &["AS 7S", "7C 9C 8H 10H 8D JK", "8S 9H"],
        Trump::H,
        2,
        0,
    );
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["10H", "9C", "JK"]);
    let mut state = given_table(o, &["AS 7S", "7C 9C 10D", "8S 9H"], Trump::NT, 2, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["9C"], "at no-trump: the same colour");
}

#[test]
fn given_joker_by_trick_3_when_the_tricks_left_are_no_more_than_the_jokers_then_only_jokers() {
    let o = HatTrickOptions {
        joker_by_trick: Some(3),
        ..opts()
    };
    let mut state = given_table(o.clone(), &["AS 7S", "9S JK", "8S 9H"], Trump::H, 2, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(legal(&state, 1), ["9S", "JK"], "trick 2: not yet");
    let mut state = given_table(o, &["AS 7S", "9S JK", "8S 9H"], Trump::H, 3, 0);
    play(&mut state, 0, "AS", false);
    assert_eq!(
        legal(&state, 1),
        ["JK"],
        "trick 3: the joker, overriding suit"
    );
    assert!(try_play(&state, 1, "9S", false).is_err());
}

#[test]
fn given_joker_by_trick_when_holding_both_jokers_then_forced_one_trick_earlier() {
    let o = HatTrickOptions {
        joker_by_trick: Some(5),
        ..opts()
    };
    let hands = ["2S 3S", "4S JK1 JK2", "5S 6S", "7S 8S", "9S 10S"];
    let mut state = given_table(o.clone(), &hands, Trump::H, 3, 0);
    play(&mut state, 0, "2S", false);
    assert_eq!(
        legal(&state, 1),
        ["4S", "JK1", "JK2"],
        "trick 3 of 5: not yet"
    );
    let mut state = given_table(o, &hands, Trump::H, 4, 0);
    play(&mut state, 0, "2S", false);
    assert_eq!(
        legal(&state, 1),
        ["JK1", "JK2"],
        "trick 4: both must still go"
    );
}

#[test]
fn given_a_command_then_it_parses_from_the_rules_file_shape() {
    let json = serde_json::json!({"type": "play", "card": "10H", "predict": true});
    let cmd: HatTrickCommand = serde_json::from_value(json).unwrap();
    assert_eq!(
        cmd,
        HatTrickCommand::Play {
            card: c("10H"),
            predict: true
        }
    );
    let json = serde_json::json!({"type": "play", "card": "JK"});
    let cmd: HatTrickCommand = serde_json::from_value(json).unwrap();
    assert_eq!(
        cmd,
        HatTrickCommand::Play {
            card: c("JK"),
            predict: false
        }
    );
    let bad = serde_json::json!({"type": "play", "card": "JK", "bid": 3});
    assert!(serde_json::from_value::<HatTrickCommand>(bad).is_err());
    let bad = serde_json::json!({"type": "play", "card": "1H"});
    assert!(serde_json::from_value::<HatTrickCommand>(bad).is_err());
}

#[test]
fn given_a_seat_out_of_turn_or_a_card_not_held_then_refused() {
    let state = given_table(opts(), &["AS 7S", "9S JK", "8S 9H"], Trump::H, 2, 0);
    assert!(try_play(&state, 1, "9S", false).is_err());
    assert!(try_play(&state, 0, "9S", false).is_err());
    assert!(HatTrick::legal_commands(&state, seat(1)).is_empty());
    assert_eq!(HatTrick::to_act(&state), [seat(0)]);
}
