//! 4-player sides: the black-Jack partnership, the announcement and the trump
//! Queen, playing alone; the declaring side.

use super::*;
use GoatheadCommand as C;

fn hands(list: [&str; 4]) -> Vec<CardSet> {
    list.iter().map(|h| set(h)).collect()
}

fn seats(list: &[usize]) -> u8 {
    list.iter().fold(0, |m, &i| m | (1 << i))
}

const HEARTS: Contract = Contract::Suit(Suit::Hearts);

#[test]
fn given_two_players_hold_the_black_jacks_then_they_are_partners() {
    let h = hands([
        "JC AC 10C KC",
        "JS AS 10S KS",
        "AH 10H KH QH",
        "AD 10D KD QD",
    ]);
    assert_eq!(sides(4, HEARTS, s(0), &h), (seats(&[0, 1]), None));
    // The declaring side is the side with the declarer.
    assert_eq!(sides(4, HEARTS, s(2), &h), (seats(&[2, 3]), None));
}

#[test]
fn given_one_player_holds_both_black_jacks_then_it_announces_and_partners_the_trump_queen() {
    let h = hands([
        "JC JS AC 10C",
        "AS 10S KS QS",
        "AH 10H KH QH",
        "AD 10D KD QD",
    ]);
    assert_eq!(sides(4, HEARTS, s(0), &h), (seats(&[0, 2]), Some(s(0))));
    // Seat 1 declared: it is with the other two, seat 1 and seat 3.
    assert_eq!(sides(4, HEARTS, s(1), &h), (seats(&[1, 3]), Some(s(0))));
}

#[test]
fn given_the_holder_of_both_black_jacks_has_the_trump_queen_too_then_it_plays_alone() {
    let h = hands([
        "JC JS QH 10C",
        "AS 10S KS QS",
        "AH 10H KH AC",
        "AD 10D KD QD",
    ]);
    assert_eq!(sides(4, HEARTS, s(0), &h), (seats(&[0]), Some(s(0))));
    // Someone else declared: the three play against the one.
    assert_eq!(sides(4, HEARTS, s(3), &h), (seats(&[1, 2, 3]), Some(s(0))));
}

#[test]
fn given_the_trump_queen_is_in_the_kitty_then_the_holder_of_both_black_jacks_plays_alone() {
    // QH not in any hand: it lies in the kitty.
    let h = hands([
        "JC JS AC 10C",
        "AS 10S KS QS",
        "AH 10H KH KC",
        "AD 10D KD QD",
    ]);
    assert_eq!(sides(4, HEARTS, s(0), &h), (seats(&[0]), Some(s(0))));
}

#[test]
fn given_a_black_jack_in_the_kitty_then_the_other_black_jack_partners_the_trump_queen() {
    // JS in the kitty; seat 0 holds JC, seat 2 the Queen of hearts.
    let h = hands([
        "JC AC 10C KC",
        "AS 10S KS QS",
        "AH 10H KH QH",
        "AD 10D KD QD",
    ]);
    assert_eq!(sides(4, HEARTS, s(2), &h), (seats(&[0, 2]), None));
    // The Queen with the black Jack's holder: alone.
    let h = hands([
        "JC QH 10C KC",
        "AS 10S KS QS",
        "AH 10H KH AC",
        "AD 10D KD QD",
    ]);
    assert_eq!(sides(4, HEARTS, s(1), &h), (seats(&[1, 2, 3]), None));
}

#[test]
fn given_no_black_jack_in_any_hand_then_the_declarer_plays_alone() {
    let h = hands([
        "AC 10C KC QC",
        "AS 10S KS QS",
        "AH 10H KH QH",
        "AD 10D KD QD",
    ]);
    assert_eq!(sides(4, HEARTS, s(3), &h), (seats(&[3]), None));
}

#[test]
fn given_court_nil_or_three_players_then_the_declarer_plays_alone() {
    let h = hands([
        "JC AC 10C KC",
        "JS AS 10S KS",
        "AH 10H KH QH",
        "AD 10D KD QD",
    ]);
    assert_eq!(sides(4, Contract::Court, s(0), &h), (seats(&[0]), None));
    assert_eq!(sides(4, Contract::Nil, s(0), &h), (seats(&[0]), None));
    assert_eq!(sides(3, HEARTS, s(0), &h[..3]), (seats(&[0]), None));
    assert_eq!(sides(4, Contract::Leasters, s(0), &h), (0, None));
}

#[test]
fn given_a_4p_suit_contract_when_play_begins_then_the_announcement_is_public_and_sides_are_set() {
    let mut state = game(4, deal4());
    act(&mut state, 1, bid("suit:H"));
    for i in [2, 3, 0] {
        act(&mut state, i, pass());
    }
    act(&mut state, 1, C::KittySkip {});
    act(&mut state, 1, C::KeepContract {});
    act(&mut state, 2, C::KittySkip {});
    act(&mut state, 3, C::KittySkip {});
    act(&mut state, 0, C::KittySkip {});
    let events = act(&mut state, 0, C::KittySkip {});
    assert_eq!(
        events,
        vec![
            GoatheadEvent::KittySkipped { seat: s(0) },
            GoatheadEvent::Announced {
                seat: s(0),
                partner_card: c("QH")
            },
            GoatheadEvent::PlayStarted {
                leader: s(1),
                declaring_side: vec![s(1), s(3)]
            },
        ]
    );
    assert_eq!(state.current.announced, Some(s(0)));
    let view = Goathead::view(&state, crate::ruleset::Viewer::Seat(s(2)));
    assert_eq!(view.announced, Some(s(0)));
    assert_eq!(view.declaring_side, None);
}

#[test]
fn given_the_final_dealer_swap_takes_a_black_jack_then_the_sides_come_from_the_hands_after_it() {
    // Seat 0 (dealer) has JC; JS is in the kitty until the dealer's last swap.
    let d = deal(
        &[
            "JC AC 10C KC",
            "AS 10S KS QS",
            "AH 10H KH QH",
            "AD 10D KD QD",
        ],
        "JS QC JH JD",
    );
    let mut state = game(4, d);
    act(&mut state, 1, bid("suit:D"));
    for i in [2, 3, 0] {
        act(&mut state, i, pass());
    }
    act(&mut state, 1, C::KittySkip {});
    act(&mut state, 1, C::KeepContract {});
    for i in [2, 3, 0] {
        act(&mut state, i, C::KittySkip {});
    }
    let events = act(
        &mut state,
        0,
        C::KittySwap {
            hand_card: c("KC"),
            kitty_card: c("JS"),
        },
    );
    // Seat 0 now holds both: it announces; seat 3 holds the Queen of diamonds.
    assert_eq!(
        events[1..],
        [
            GoatheadEvent::Announced {
                seat: s(0),
                partner_card: c("QD")
            },
            GoatheadEvent::PlayStarted {
                leader: s(1),
                declaring_side: vec![s(1), s(2)]
            },
        ]
    );
}

#[test]
fn given_a_4p_upgrade_to_court_then_the_declarer_plays_alone() {
    let mut state = game(4, deal4());
    act(&mut state, 1, bid("suit:H"));
    for i in [2, 3, 0] {
        act(&mut state, i, pass());
    }
    act(&mut state, 1, C::KittySkip {});
    act(
        &mut state,
        1,
        C::Upgrade {
            contract: Contract::Court,
        },
    );
    for i in [2, 3, 0, 0] {
        act(&mut state, i, C::KittySkip {});
    }
    assert_eq!(state.current.declaring_side, 1 << 1);
    assert_eq!(state.current.announced, None);
}
