//! Redaction: over random games, no view or event shown to a seat (or a
//! spectator) holds a card code that viewer may not see.

use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use super::property::variant;
use super::*;
use crate::random::below;
use crate::ruleset::{Viewer, seat};

/// Every card code among the string values of `value`.
fn codes(value: &serde_json::Value, out: &mut Vec<Card>) {
    match value {
        serde_json::Value::String(s) => out.extend(Card::parse(s)),
        serde_json::Value::Array(a) => a.iter().for_each(|v| codes(v, out)),
        serde_json::Value::Object(o) => o.values().for_each(|v| codes(v, out)),
        _ => {}
    }
}

fn check(what: &str, viewer: Viewer, value: &serde_json::Value, may_see: Hand) {
    let mut seen = Vec::new();
    codes(value, &mut seen);
    for card in seen {
        assert!(
            may_see.contains(card),
            "{viewer:?} sees {card} in {what}: {value}"
        );
    }
}

#[test]
fn given_random_games_then_seats_see_only_their_own_hand_the_indicator_and_played_cards() {
    let mut hidden_left_seen_by_audit = 0;
    for game in 0..150u64 {
        let players = 2 + (game % 5) as usize;
        let mut options = variant(players, game / 5);
        options.rounds = Some(2);
        let mut chooser = ChaCha8Rng::seed_from_u64(game);
        let randomness = Randomness::from_seed(&format!("redaction {game}"));
        let mut state = HatTrick::new_game(players, options).unwrap();
        let viewers: Vec<Viewer> = (0..players)
            .map(|s| Viewer::Seat(seat(s)))
            .chain([Viewer::Spectator])
            .collect();
        // What each viewer may see, by viewer index (the spectator last).
        let mut known = vec![Hand::default(); players + 1];
        let mut pending = HatTrick::start(&state, &randomness);
        loop {
            for event in &pending {
                match event {
                    HatTrickEvent::Dealt(d) => {
                        let public = d.indicator.map_or(0, Card::bit);
                        for (v, k) in known.iter_mut().enumerate() {
                            k.0 = public | d.hands.get(v).map_or(0, |h| h.0);
                        }
                        let audit =
                            serde_json::to_value(HatTrick::redact(event, Viewer::Auditor)).unwrap();
                        let mut all = Vec::new();
                        codes(&audit, &mut all);
                        all.sort_unstable();
                        all.dedup();
                        assert_eq!(
                            all.len(),
                            state.table().deck.len(),
                            "the audit sees every card"
                        );
                        hidden_left_seen_by_audit += usize::from(d.left.len() == 3);
                    }
                    HatTrickEvent::Played(p) => known.iter_mut().for_each(|k| k.0 |= p.card.bit()),
                    _ => {}
                }
                apply_all::<HatTrick>(&mut state, std::slice::from_ref(event));
                for (v, &viewer) in viewers.iter().enumerate() {
                    let shown = serde_json::to_value(HatTrick::redact(event, viewer)).unwrap();
                    check("an event", viewer, &shown, known[v]);
                    let view = serde_json::to_value(HatTrick::view(&state, viewer)).unwrap();
                    check("the view", viewer, &view, known[v]);
                }
            }
            let to_act = HatTrick::to_act(&state);
            if to_act.is_empty() {
                break;
            }
            let who = to_act[below(&mut chooser, to_act.len())];
            let legal = HatTrick::legal_commands(&state, who);
            let command = &legal[(chooser.next_u64() % legal.len() as u64) as usize];
            pending = HatTrick::decide(&state, who, command, &randomness).unwrap();
        }
    }
    assert!(hidden_left_seen_by_audit > 0);
}

#[test]
fn given_two_players_then_the_face_down_left_over_cards_show_only_to_the_audit() {
    let state = started(2, HatTrickOptions::default());
    let hidden: Vec<Card> = state.left[1..].to_vec();
    for viewer in [
        Viewer::Seat(seat(0)),
        Viewer::Seat(seat(1)),
        Viewer::Spectator,
    ] {
        let view = serde_json::to_value(HatTrick::view(&state, viewer)).unwrap();
        assert_eq!(
            view["left"][0],
            state.left[0].code(),
            "the turned card is public"
        );
        assert!(view["left"][1].is_null() && view["left"][2].is_null());
        let text = view.to_string();
        for card in &hidden {
            assert!(!text.contains(&format!("\"{card}\"")));
        }
    }
    let audit = serde_json::to_value(HatTrick::view(&state, Viewer::Auditor)).unwrap();
    assert_eq!(audit["left"][1], hidden[0].code());
    let own = serde_json::to_value(HatTrick::view(&state, Viewer::Seat(seat(1)))).unwrap();
    assert_eq!(own["hands"][0], 11, "others: a count");
    assert_eq!(own["hands"][1].as_array().map(Vec::len), Some(11));
}
