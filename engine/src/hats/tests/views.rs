//! Views and event redaction.

use serde_json::{Value, json};

use super::*;
use crate::ruleset::Viewer;

fn view_json(state: &HatsState, viewer: Viewer) -> Value {
    serde_json::to_value(Hats::view(state, viewer)).unwrap()
}

fn event_json(event: &HatsEvent, viewer: Viewer) -> Value {
    serde_json::to_value(Hats::redact(event, viewer)).unwrap()
}

#[test]
fn given_a_deal_then_each_seat_sees_its_own_hand_and_counts_for_the_rest() {
    let d = deal(
        2,
        "T1 T2 T3 T4 T5",
        &["S1 S2 S3 S4 S5 S6 H1 H2 H3", "C1 C2 C3 C4 C5 C6 D1 D2 D3"],
        "",
    );
    let event = HatsEvent::Dealt {
        line: d.line.clone(),
        hands: d.hands.clone(),
        deck: d.deck.clone(),
    };
    assert_eq!(
        event_json(&event, Viewer::Seat(Seat(1))),
        json!({"type": "dealt", "data": {
            "line": ["T1", "T2", "T3", "T4", "T5"],
            "hands": [9, ["C1", "C2", "C3", "C4", "C5", "C6", "D1", "D2", "D3"]],
            "deck": 7
        }})
    );
    assert_eq!(
        event_json(&event, Viewer::Spectator),
        json!({"type": "dealt", "data": {"line": ["T1", "T2", "T3", "T4", "T5"], "hands": [9, 9], "deck": 7}})
    );
    let audit = event_json(&event, Viewer::Auditor);
    assert_eq!(audit, serde_json::to_value(&event).unwrap());
}

#[test]
fn given_a_seat_then_its_view_shows_the_table_and_only_its_own_hand() {
    let mut state = game(
        3,
        0,
        deal(3, "T1 T2 T3 T4 T5 T6", &["S1 S6 H3", "", ""], "D1"),
    );
    play(&mut state, 0, exchange("S6", 2));
    let discarded = state.hands[1][0];
    play(&mut state, 1, HatsCommand::DiscardDraw { card: discarded });
    let first = state.hands[1][0];
    play(&mut state, 1, HatsCommand::BlackHat { card: first });
    let v = view_json(&state, Viewer::Seat(Seat(1)));
    assert_eq!(v["line"], json!(["T1", "S6", "T3", "T4", "T5", "T6"]));
    assert_eq!(v["seats"][0]["collection"], json!(["T2"]));
    assert_eq!(v["seats"][0]["hand"], Value::Null);
    assert_eq!(v["seats"][0]["hand_size"], 8);
    assert_eq!(v["seats"][1]["black_hats"], 1);
    assert_eq!(v["seats"][1]["black_hat_cards"], json!([first.code()]));
    assert_eq!(v["black_hat_cards"], json!([first.code()]));
    assert_eq!(v["hand"], serde_json::to_value(&state.hands[1]).unwrap());
    assert_eq!(v["deck"], 8);
    assert_eq!(v["discard"], 1);
    assert_eq!(v["turn"], 2);
    assert_eq!(v["step"], "main");
    assert_eq!(v["to_act"], json!([2]));
    // one type each for seats 0 and 1; seat 1 has no face-up number to compare
    assert_eq!(v["cookie"], 0);
    assert_eq!(v["deck_cards"], Value::Null);
    assert_eq!(v["discard_cards"], Value::Null);
    let other = view_json(&state, Viewer::Seat(Seat(0)));
    assert_eq!(other["seats"][1]["black_hat_cards"], Value::Null);
    assert_eq!(other["seats"][1]["black_hats"], 1);
    let spectator = view_json(&state, Viewer::Spectator);
    assert_eq!(spectator["hand"], Value::Null);
    assert!(
        spectator["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["hand"].is_null())
    );
    let audit = view_json(&state, Viewer::Auditor);
    assert_eq!(
        audit["seats"][2]["hand"],
        serde_json::to_value(&state.hands[2]).unwrap()
    );
    assert_eq!(
        audit["deck_cards"],
        serde_json::to_value(&state.deck).unwrap()
    );
    assert_eq!(audit["discard_cards"].as_array().unwrap().len(), 1);
}

#[test]
fn given_a_discard_and_draw_then_only_the_seat_sees_the_cards() {
    let mut state = game(2, 0, deal(2, "T1 T2 T3 T4 T5", &["S1"], "D1"));
    let events = play(&mut state, 0, discard_draw("S1"));
    assert_eq!(
        event_json(&events[0], Viewer::Seat(Seat(0))),
        json!({"type": "discarded", "data": {"seat": 0, "card": "S1"}})
    );
    assert_eq!(
        event_json(&events[0], Viewer::Seat(Seat(1))),
        json!({"type": "discarded", "data": {"seat": 0, "card": null}})
    );
    assert_eq!(
        event_json(&events[1], Viewer::Seat(Seat(0))),
        json!({"type": "drew", "data": {"seat": 0, "card": "D1"}})
    );
    assert_eq!(
        event_json(&events[1], Viewer::Spectator),
        json!({"type": "drew", "data": {"seat": 0, "card": null}})
    );
    let reshuffle = HatsEvent::Reshuffled {
        deck: cards("S1 D1"),
    };
    assert_eq!(
        event_json(&reshuffle, Viewer::Seat(Seat(0))),
        json!({"type": "reshuffled", "data": {"deck": 2}})
    );
    assert_eq!(
        event_json(&reshuffle, Viewer::Auditor),
        json!({"type": "reshuffled", "data": {"deck": ["S1", "D1"]}})
    );
}

#[test]
fn given_a_black_hat_then_only_its_owner_sees_its_face() {
    let event = HatsEvent::BlackHatMade {
        seat: Seat(1),
        card: c("H5"),
    };
    assert_eq!(
        event_json(&event, Viewer::Seat(Seat(1)))["data"]["card"],
        "H5"
    );
    assert_eq!(
        event_json(&event, Viewer::Seat(Seat(0)))["data"]["card"],
        Value::Null
    );
    assert_eq!(
        event_json(&event, Viewer::Spectator)["data"]["card"],
        Value::Null
    );
    assert_eq!(event_json(&event, Viewer::Auditor)["data"]["card"], "H5");
}

#[test]
fn given_a_swap_then_only_the_two_partners_see_the_cards() {
    let mut state = game(4, 0, deal(4, "T1 T2 T3 T4 T5 T6", &["S1", "", "H1"], ""));
    let offer = play(&mut state, 0, offer_swap("S1"));
    assert_eq!(
        event_json(&offer[0], Viewer::Seat(Seat(0)))["data"]["card"],
        "S1"
    );
    // the partner answers without seeing the offered card
    for viewer in [
        Viewer::Seat(Seat(1)),
        Viewer::Seat(Seat(2)),
        Viewer::Seat(Seat(3)),
        Viewer::Spectator,
    ] {
        assert_eq!(event_json(&offer[0], viewer)["data"]["card"], Value::Null);
    }
    assert_eq!(view_json(&state, Viewer::Seat(Seat(0)))["offered"], "S1");
    assert_eq!(
        view_json(&state, Viewer::Seat(Seat(2)))["offered"],
        Value::Null
    );
    assert_eq!(
        view_json(&state, Viewer::Seat(Seat(2)))["step"],
        "answering_swap"
    );
    assert_eq!(view_json(&state, Viewer::Seat(Seat(2)))["turn"], 0);
    assert_eq!(
        view_json(&state, Viewer::Seat(Seat(2)))["to_act"],
        json!([2])
    );
    let swap = play(&mut state, 2, answer_swap("H1"));
    let full = json!({"type": "swapped", "data": {"seat": 0, "partner": 2, "offered": "S1", "answered": "H1"}});
    let hidden = json!({"type": "swapped", "data": {"seat": 0, "partner": 2, "offered": null, "answered": null}});
    assert_eq!(event_json(&swap[0], Viewer::Seat(Seat(0))), full);
    assert_eq!(event_json(&swap[0], Viewer::Seat(Seat(2))), full);
    assert_eq!(event_json(&swap[0], Viewer::Seat(Seat(1))), hidden);
    assert_eq!(event_json(&swap[0], Viewer::Seat(Seat(3))), hidden);
    assert_eq!(event_json(&swap[0], Viewer::Spectator), hidden);
    assert_eq!(event_json(&swap[0], Viewer::Auditor), full);
}

#[test]
fn given_an_exchange_then_everyone_sees_it() {
    let event = HatsEvent::Exchanged {
        seat: Seat(0),
        card: c("S6"),
        position: 2,
        taken: c("T2"),
    };
    assert_eq!(
        event_json(&event, Viewer::Spectator),
        json!({"type": "exchanged", "data": {"seat": 0, "card": "S6", "position": 2, "taken": "T2"}})
    );
}

#[test]
fn given_the_end_then_favourites_are_public_and_nobody_is_to_act() {
    let mut state = game(2, 1, deal(2, "T1 T2 T3 T4 T5", &[], ""));
    for _ in 0..16 {
        pass_with_black_hat(&mut state);
    }
    let v = view_json(&state, Viewer::Spectator);
    assert_eq!(v["finished"], true);
    assert_eq!(v["turn"], Value::Null);
    assert_eq!(v["to_act"], json!([]));
    assert_eq!(v["seats"][0]["favourite"], state.hands[0][0].code());
    assert_eq!(v["seats"][1]["main_actions"], 8);
    assert_eq!(v["seats"][1]["black_hat_cards"], Value::Null);
}

#[test]
fn event_type_names_avoid_the_reserved_prefixes() {
    let events = [
        HatsEvent::Dealt {
            line: vec![],
            hands: vec![],
            deck: vec![],
        },
        HatsEvent::Discarded {
            seat: Seat(0),
            card: c("T1"),
        },
        HatsEvent::Reshuffled { deck: vec![] },
        HatsEvent::Drew {
            seat: Seat(0),
            card: c("T1"),
        },
        HatsEvent::SwapOffered {
            seat: Seat(0),
            card: c("T1"),
        },
        HatsEvent::Swapped {
            seat: Seat(0),
            partner: Seat(2),
            offered: c("T1"),
            answered: c("T2"),
        },
        HatsEvent::Exchanged {
            seat: Seat(0),
            card: c("T1"),
            position: 1,
            taken: c("T2"),
        },
        HatsEvent::BlackHatMade {
            seat: Seat(0),
            card: c("T1"),
        },
        HatsEvent::FavouritesRevealed { favourites: vec![] },
    ];
    for event in &events {
        let json = serde_json::to_value(event).unwrap();
        let name = json["type"].as_str().unwrap();
        for reserved in ["game_", "player_", "seat_", "turn_", "deadline_"] {
            assert!(!name.starts_with(reserved), "{name}");
        }
        assert_eq!(event_json(event, Viewer::Auditor)["type"], json["type"]);
    }
}
