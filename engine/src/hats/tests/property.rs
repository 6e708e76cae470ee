//! Random playouts: the laws of the contract, and redaction.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use serde_json::Value;

use super::*;
use crate::random::below;
use crate::ruleset::{Viewer, seat};
use crate::testing::checked_playout;

fn options(players: usize, seed: u64) -> HatsOptions {
    HatsOptions {
        first_seat: u8::try_from(seed % players as u64).unwrap(),
        deals: vec![],
    }
}

fn checked(players: usize, games: u64) {
    let mut actions = 0;
    for seed in 0..games {
        let (state, report) = checked_playout::<Hats>(players, options(players, seed), seed, 500)
            .unwrap_or_else(|e| panic!("{players} players: {e}"));
        assert!(state.hands.iter().all(|h| h.len() == 1));
        assert!(
            state
                .collections
                .iter()
                .zip(&state.black_hats)
                .all(|(c, b)| c.len() + b.len() == 8)
        );
        actions += report.actions;
    }
    assert!(actions >= games * 16 * players as u64 / 2);
}

#[test]
fn checked_playouts_with_two_players() {
    checked(2, 3_400);
}

#[test]
fn checked_playouts_with_three_players() {
    checked(3, 3_300);
}

#[test]
fn checked_playouts_with_four_players() {
    checked(4, 3_300);
}

/// Every string in `value` that is a card code.
fn codes(value: &Value, out: &mut Vec<Card>) {
    match value {
        Value::String(s) => out.extend(Card::parse(s)),
        Value::Array(items) => items.iter().for_each(|v| codes(v, out)),
        Value::Object(map) => map.values().for_each(|v| codes(v, out)),
        _ => {}
    }
}

/// The cards `viewer` may know of in `state`: the line, the face-up
/// collections, its own hand and black hats, and every favourite once the game is over.
fn visible(state: &HatsState, viewer: Viewer) -> Vec<Card> {
    let mut out: Vec<Card> = state
        .line
        .iter()
        .chain(state.collections.iter().flatten())
        .copied()
        .collect();
    if let Viewer::Seat(s) = viewer {
        out.extend(&state.hands[s.index()]);
        out.extend(&state.black_hats[s.index()]);
    }
    if state.finished() {
        out.extend(state.hands.iter().flatten());
    }
    out
}

fn assert_only(json: &Value, allowed: &[Card], what: &str) {
    let mut seen = vec![];
    codes(json, &mut seen);
    for card in seen {
        assert!(allowed.contains(&card), "{what} shows {card}: {json}");
    }
}

#[test]
fn random_playouts_never_show_a_seat_a_card_it_may_not_see() {
    for players in 2..=4 {
        for seed in 0..150u64 {
            let mut chooser = ChaCha8Rng::seed_from_u64(seed);
            let randomness = Randomness::from_seed(&format!("redaction-{seed}"));
            let mut state = Hats::new_game(players, options(players, seed)).unwrap();
            let mut events = Hats::start(&state, &randomness);
            let mut viewers: Vec<Viewer> = (0..players).map(|s| Viewer::Seat(seat(s))).collect();
            viewers.push(Viewer::Spectator);
            loop {
                let before = state.clone();
                apply_all::<Hats>(&mut state, &events);
                for &viewer in &viewers {
                    let mut allowed = visible(&before, viewer);
                    allowed.extend(visible(&state, viewer));
                    for event in &events {
                        let json = serde_json::to_value(Hats::redact(event, viewer)).unwrap();
                        assert_only(&json, &allowed, &format!("{viewer:?} event"));
                    }
                    let view = serde_json::to_value(Hats::view(&state, viewer)).unwrap();
                    assert_only(&view, &visible(&state, viewer), &format!("{viewer:?} view"));
                }
                let to_act = Hats::to_act(&state);
                if to_act.is_empty() {
                    break;
                }
                let s = to_act[below(&mut chooser, to_act.len())];
                let legal = Hats::legal_commands(&state, s);
                let command = legal[below(&mut chooser, legal.len())];
                events = Hats::decide(&state, s, &command, &randomness).unwrap();
            }
            assert!(Hats::result(&state).is_some());
        }
    }
}

#[test]
fn the_auditor_sees_every_card_in_play() {
    let (state, _) = checked_playout::<Hats>(3, HatsOptions::default(), 7, 500).unwrap();
    let mut seen = vec![];
    codes(
        &serde_json::to_value(Hats::view(&state, Viewer::Auditor)).unwrap(),
        &mut seen,
    );
    seen.sort();
    seen.dedup();
    assert_eq!(seen, cards_in_play(3).collect::<Vec<_>>());
}

#[test]
fn random_playouts_reach_the_reshuffle() {
    let mut reshuffles = 0;
    for seed in 0..300 {
        let (state, _) = crate::testing::playout::<Hats>(
            2 + (seed % 3) as usize,
            HatsOptions::default(),
            seed,
            500,
        )
        .unwrap();
        reshuffles += state.reshuffles;
    }
    assert!(reshuffles > 0, "no reshuffle in 300 games");
}
