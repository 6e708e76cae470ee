//! Views and redaction: own hand only, the kitty only where the rules allow,
//! public scores; the audit sees everything.

use serde_json::json;

use super::*;
use crate::ruleset::Viewer;
use GoatheadCommand as C;

fn seat_view(state: &GoatheadState, i: usize) -> GoatheadView {
    Goathead::view(state, Viewer::Seat(s(i)))
}

#[test]
fn given_a_deal_then_each_seat_sees_its_own_hand_and_only_counts_of_the_others() {
    let state = game(3, deal3());
    let view = seat_view(&state, 1);
    assert_eq!(view.hand, Some(set("AS 10S KS QS AH JH")));
    assert_eq!(view.hands, None);
    assert_eq!(view.hand_sizes, vec![6, 6, 6]);
    assert_eq!(view.kitty, None);
    assert_eq!(view.kitty_size, 2);
    assert_eq!(view.to_act, vec![s(1)]);
    assert_eq!(view.phase, "bidding");
    let spectator = Goathead::view(&state, Viewer::Spectator);
    assert_eq!(spectator.hand, None);
    let audit = Goathead::view(&state, Viewer::Auditor);
    assert_eq!(audit.hands.as_ref().map(Vec::len), Some(3));
    assert_eq!(audit.kitty, Some(set("KD QD")));
}

#[test]
fn given_the_deal_event_then_a_seat_sees_its_hand_and_counts_for_the_rest() {
    let state = Goathead::new_game(
        3,
        GoatheadOptions {
            rounds: 1,
            deals: vec![deal3()],
        },
    )
    .unwrap();
    let event = &Goathead::start(&state, &rng())[0];
    let seen = serde_json::to_value(Goathead::redact(event, Viewer::Seat(s(2)))).unwrap();
    assert_eq!(
        seen,
        json!({"type": "dealt", "data": {
            "round": 0, "dealer": 0,
            "hands": [6, 6, ["10H", "KH", "QH", "AD", "10D", "JD"]],
            "kitty": 2,
        }})
    );
    let spectator = serde_json::to_value(Goathead::redact(event, Viewer::Spectator)).unwrap();
    assert_eq!(spectator["data"]["hands"], json!([6, 6, 6]));
    let audit = serde_json::to_value(Goathead::redact(event, Viewer::Auditor)).unwrap();
    assert_eq!(audit["data"]["kitty"], json!(["KD", "QD"]));
}

#[test]
fn given_a_3p_declarer_takes_and_buries_then_only_it_sees_the_buried_cards() {
    let mut state = game(3, deal3());
    act(&mut state, 1, pass());
    act(&mut state, 2, pass());
    act(&mut state, 0, bid("suit:C"));
    let taken = act(&mut state, 0, C::TakeKitty {});
    let own = serde_json::to_value(Goathead::redact(&taken[0], Viewer::Seat(s(0)))).unwrap();
    assert_eq!(own["data"]["cards"], json!(["KD", "QD"]));
    let other = serde_json::to_value(Goathead::redact(&taken[0], Viewer::Seat(s(1)))).unwrap();
    assert_eq!(other["data"]["cards"], json!(2));
    let buried = act(&mut state, 0, C::Bury { card: c("AC") });
    let other = serde_json::to_value(Goathead::redact(&buried[0], Viewer::Seat(s(2)))).unwrap();
    assert_eq!(
        other,
        json!({"type": "buried", "data": {"seat": 0, "card": null}})
    );
    act(&mut state, 0, C::Bury { card: c("KD") });
    act(&mut state, 0, C::KeepContract {});
    assert_eq!(seat_view(&state, 0).kitty_known, set("AC KD"));
    assert_eq!(seat_view(&state, 0).kitty, None);
    assert_eq!(seat_view(&state, 1).kitty_known, CardSet::EMPTY);
    assert_eq!(seat_view(&state, 1).kitty_size, 2);
}

#[test]
fn given_a_3p_declarer_leaves_the_kitty_then_nobody_sees_it() {
    let mut state = game(3, deal3());
    act(&mut state, 1, pass());
    act(&mut state, 2, pass());
    act(&mut state, 0, bid("suit:C"));
    act(&mut state, 0, C::LeaveKitty {});
    for i in 0..3 {
        assert_eq!(seat_view(&state, i).kitty, None);
        assert_eq!(seat_view(&state, i).kitty_known, CardSet::EMPTY);
    }
}

#[test]
fn given_the_4p_swap_round_then_only_the_swapper_and_the_choosing_declarer_see_the_kitty() {
    let mut state = game(4, deal4());
    act(&mut state, 1, bid("suit:H"));
    for i in [2, 3, 0] {
        act(&mut state, i, pass());
    }
    assert_eq!(seat_view(&state, 1).kitty, Some(set("KC QC JH JD")));
    assert_eq!(seat_view(&state, 2).kitty, None);
    let swapped = act(
        &mut state,
        1,
        C::KittySwap {
            hand_card: c("QS"),
            kitty_card: c("JH"),
        },
    );
    let other = serde_json::to_value(Goathead::redact(&swapped[0], Viewer::Seat(s(0)))).unwrap();
    assert_eq!(
        other,
        json!({"type": "kitty_swapped", "data": {"seat": 1, "hand_card": null, "kitty_card": null}})
    );
    let own = serde_json::to_value(Goathead::redact(&swapped[0], Viewer::Seat(s(1)))).unwrap();
    assert_eq!(own["data"]["kitty_card"], "JH");
    // Keeping or upgrading, the declarer still sees the kitty.
    assert_eq!(seat_view(&state, 1).kitty, Some(set("KC QC QS JD")));
    act(&mut state, 1, C::KeepContract {});
    // Now seat 2 swaps: it sees the kitty; the declarer only the card it put in.
    assert_eq!(seat_view(&state, 2).kitty, Some(set("KC QC QS JD")));
    assert_eq!(seat_view(&state, 1).kitty, None);
    assert_eq!(seat_view(&state, 1).kitty_known, set("QS"));
    act(
        &mut state,
        2,
        C::KittySwap {
            hand_card: c("AH"),
            kitty_card: c("QS"),
        },
    );
    // Seat 1's card left the kitty: seat 1 no longer sees anything there.
    assert_eq!(seat_view(&state, 1).kitty_known, CardSet::EMPTY);
    assert_eq!(seat_view(&state, 2).kitty_known, set("AH"));
    assert_eq!(seat_view(&state, 2).kitty, None);
    // Nor does seat 1 see seat 2's hand, where QS now is.
    assert_eq!(seat_view(&state, 1).hand, Some(set("AS 10S KS JH")));
}

#[test]
fn given_play_started_then_the_sides_are_hidden_from_seats_and_shown_to_the_audit() {
    let event = GoatheadEvent::PlayStarted {
        leader: s(1),
        declaring_side: vec![s(1), s(3)],
    };
    let seen = serde_json::to_value(Goathead::redact(&event, Viewer::Seat(s(1)))).unwrap();
    assert_eq!(seen["data"]["declaring_side"], json!(null));
    let audit = serde_json::to_value(Goathead::redact(&event, Viewer::Auditor)).unwrap();
    assert_eq!(audit["data"]["declaring_side"], json!([1, 3]));
}

#[test]
fn given_nil_ended_early_then_the_unplayed_hands_and_kitty_stay_hidden_but_the_audit_shows_them() {
    let d = deal(
        &[
            "JC KC AS 10S KS QS",
            "AC QC JH AH 10H KH",
            "10C JS JD QH AD 10D",
        ],
        "KD QD",
    );
    let mut state = game(3, d);
    act(&mut state, 1, bid("nil"));
    act(&mut state, 2, pass());
    act(&mut state, 0, pass());
    act(&mut state, 1, C::LeaveKitty {});
    act(&mut state, 1, C::KeepContract {});
    let events = play_cards(&mut state, "AC 10C KC");
    assert!(state.finished());
    for i in 0..3 {
        let view = seat_view(&state, i);
        assert_eq!(view.hand, Some(state.current.hands[i]));
        assert_eq!(view.kitty, None);
        let json = serde_json::to_string(&view).unwrap();
        for j in (0..3).filter(|&j| j != i) {
            for card in state.current.hands[j].iter() {
                assert!(
                    !json.contains(&format!("\"{card}\"")),
                    "{card} in seat {i}'s view"
                );
            }
        }
        for event in &events {
            let json = serde_json::to_string(&Goathead::redact(event, Viewer::Seat(s(i)))).unwrap();
            assert!(!json.contains("\"KD\"") && !json.contains("\"QD\""));
        }
    }
    let audit = Goathead::view(&state, Viewer::Auditor);
    assert_eq!(audit.kitty, Some(set("KD QD")));
    assert_eq!(audit.hands.unwrap()[0], set("JC AS 10S KS QS"));
}

#[test]
fn given_tricks_and_scores_then_they_are_public() {
    let mut state = game_with(3, 2, vec![deal3()]);
    act(&mut state, 1, bid("court"));
    act(&mut state, 2, pass());
    act(&mut state, 0, pass());
    act(&mut state, 1, C::LeaveKitty {});
    act(&mut state, 1, C::KeepContract {});
    play_cards(&mut state, "AS 10H JC  JS");
    let view = Goathead::view(&state, Viewer::Spectator);
    assert_eq!(view.contract, Some(Contract::Court));
    assert_eq!(view.declarer, Some(s(1)));
    assert_eq!(view.bids.len(), 3);
    assert_eq!(view.tricks.len(), 1);
    assert_eq!(view.tricks[0].winner, s(0));
    assert_eq!(view.trick_points, vec![23, 0, 0]);
    assert_eq!(view.tricks_won, vec![1, 0, 0]);
    assert_eq!(
        view.trick,
        vec![PlayedCard {
            seat: s(0),
            card: c("JS")
        }]
    );
    assert_eq!(view.game_points, vec![0, 0, 0]);
}
