//! Random playouts: the laws of the contract, zero-sum rounds, and redaction.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use serde_json::Value;

use super::*;
use crate::random::below;
use crate::ruleset::Viewer;
use crate::testing::checked_playout;

fn options() -> GoatheadOptions {
    GoatheadOptions {
        rounds: 3,
        deals: vec![],
    }
}

fn checked(players: usize, games: u64) -> (u64, u64) {
    let (mut actions, mut rounds) = (0, 0);
    for seed in 0..games {
        let (state, report) = checked_playout::<Goathead>(players, options(), seed, 2_000)
            .unwrap_or_else(|e| panic!("{players} players: {e}"));
        let result = Goathead::result(&state).expect("a result");
        assert_eq!(result.rounds.len(), 3);
        let mut totals = vec![0; players];
        for round in &result.rounds {
            assert_eq!(round.payments.iter().sum::<i32>(), 0, "{round:?}");
            for (t, p) in totals.iter_mut().zip(&round.payments) {
                *t += p;
            }
        }
        assert_eq!(totals, result.scores);
        assert_eq!(result.scores.iter().sum::<i32>(), 0);
        actions += report.actions;
        rounds += result.rounds.len() as u64;
    }
    (actions, rounds)
}

/// Given random matches of 3 rounds, when played with random legal commands,
/// then every law holds, every round's payments sum to zero and the match
/// totals are the sums of the payments.
#[test]
fn checked_playouts_with_three_players() {
    let (actions, _) = checked(3, 5_000);
    assert!(actions > 5_000 * 3 * 20);
}

#[test]
fn checked_playouts_with_four_players() {
    let (actions, _) = checked(4, 5_000);
    assert!(actions > 5_000 * 3 * 12);
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

fn shown(value: &impl serde::Serialize) -> Vec<Card> {
    let mut out = Vec::new();
    codes(&serde_json::to_value(value).expect("serializes"), &mut out);
    out
}

/// The cards played to tricks so far this round (public).
fn played(state: &GoatheadState) -> CardSet {
    let cur = &state.current;
    CardSet::of(
        cur.tricks
            .iter()
            .flat_map(|t| t.cards.iter().copied())
            .chain(cur.trick.iter().copied()),
    )
}

/// What seat `i` may see of the state: its hand, the cards played, the kitty
/// when the rules show it, the kitty cards it put there.
fn visible(state: &GoatheadState, i: usize) -> CardSet {
    let cur = &state.current;
    let (Some(hand), Some(known)) = (cur.hands.get(i), cur.kitty_known.get(i)) else {
        return CardSet::EMPTY;
    };
    let mut ok = hand.union(played(state));
    ok = ok.union(known.intersection(cur.kitty));
    if state.sees_kitty(s(i)) {
        ok = ok.union(cur.kitty);
    }
    ok
}

/// Given random matches, when every event is redacted and the state viewed
/// for each seat and for a spectator, then no card appears that the viewer may
/// not see: never another seat's hand, the kitty only as the rules allow.
#[test]
fn views_and_events_never_show_hidden_cards() {
    for players in [3, 4] {
        for seed in 0..150u64 {
            let mut chooser = ChaCha8Rng::seed_from_u64(seed);
            let randomness = Randomness::from_seed(&format!("redaction-{seed}"));
            let mut state = Goathead::new_game(players, options()).expect("options");
            let mut pending = Goathead::start(&state, &randomness);
            loop {
                for event in &pending {
                    let before = state.clone();
                    Goathead::evolve(&mut state, event);
                    let spectator = shown(&Goathead::redact(event, Viewer::Spectator));
                    let mut public = played(&state).union(played(&before));
                    // The announcement names the partner card, not where it is.
                    if let GoatheadEvent::Announced { partner_card, .. } = event {
                        public.insert(*partner_card);
                    }
                    assert!(
                        spectator.iter().all(|c| public.contains(*c)),
                        "spectator sees {spectator:?} in {event:?}"
                    );
                    for i in 0..players {
                        let mut ok = visible(&before, i).union(visible(&state, i)).union(public);
                        // The swapper and the declarer taking the kitty see what they take.
                        if matches!(event, GoatheadEvent::KittySwapped { seat, .. } | GoatheadEvent::KittyTaken { seat, .. } if seat.index() == i)
                        {
                            ok = ok.union(before.current.kitty);
                        }
                        let seen = shown(&Goathead::redact(event, Viewer::Seat(s(i))));
                        assert!(
                            seen.iter().all(|c| ok.contains(*c)),
                            "seat {i} sees {seen:?} in {event:?}, may see {ok:?}"
                        );
                    }
                }
                for i in 0..players {
                    let seen = shown(&Goathead::view(&state, Viewer::Seat(s(i))));
                    let ok = visible(&state, i);
                    assert!(
                        seen.iter().all(|c| ok.contains(*c)),
                        "seat {i} view shows {seen:?}, may see {ok:?}"
                    );
                    let others: CardSet = (0..players)
                        .filter(|&j| j != i)
                        .fold(CardSet::EMPTY, |acc, j| acc.union(state.current.hands[j]));
                    assert!(seen.iter().all(|c| !others.contains(*c)));
                }
                let spectator = shown(&Goathead::view(&state, Viewer::Spectator));
                assert!(spectator.iter().all(|c| played(&state).contains(*c)));
                let to_act = Goathead::to_act(&state);
                if to_act.is_empty() {
                    break;
                }
                let actor = to_act[0];
                let legal = Goathead::legal_commands(&state, actor);
                let command = legal[below(&mut chooser, legal.len())];
                pending = Goathead::decide(&state, actor, &command, &randomness).expect("legal");
            }
            let audit = shown(&Goathead::view(&state, Viewer::Auditor));
            let all = state
                .current
                .hands
                .iter()
                .fold(state.current.kitty, |acc, h| acc.union(*h));
            assert!(all.iter().all(|c| audit.contains(&c)));
        }
    }
}
