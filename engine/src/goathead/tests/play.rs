//! Play: the lead, following the effective suit, winning tricks, Nil's early end.

use super::*;
use GoatheadCommand as C;

/// Seat 0 `JC KC AS 10S KS QS`, seat 1 `AC QC JH AH 10H KH`, seat 2
/// `10C JS JD QH AD 10D`, the kitty `KD QD`.
fn deal_x() -> Deal {
    deal(
        &[
            "JC KC AS 10S KS QS",
            "AC QC JH AH 10H KH",
            "10C JS JD QH AD 10D",
        ],
        "KD QD",
    )
}

/// Seat 1 declares `contract` on `deal_x()`, leaving the kitty.
fn declared(contract: &str) -> GoatheadState {
    let mut state = game(3, deal_x());
    act(&mut state, 1, bid(contract));
    act(&mut state, 2, pass());
    act(&mut state, 0, pass());
    act(&mut state, 1, C::LeaveKitty {});
    act(&mut state, 1, C::KeepContract {});
    state
}

fn legal_cards(state: &GoatheadState, i: usize) -> CardSet {
    CardSet::of(
        Goathead::legal_commands(state, s(i))
            .into_iter()
            .map(|cmd| match cmd {
                C::Play { card } => card,
                other => panic!("{other:?}"),
            }),
    )
}

#[test]
fn given_play_begins_then_the_seat_left_of_the_dealer_leads_whoever_declared() {
    let state = declared("court");
    assert_eq!(state.actor(), Some(s(1)));
    assert_eq!(legal_cards(&state, 1), state.current.hands[1]);
    let mut state = game(3, deal_x());
    act(&mut state, 1, pass());
    act(&mut state, 2, bid("suit:D"));
    act(&mut state, 0, pass());
    act(&mut state, 2, C::LeaveKitty {});
    act(&mut state, 2, C::KeepContract {});
    assert_eq!(state.actor(), Some(s(1)));
}

#[test]
fn given_jacks_are_trumps_when_a_suit_is_led_then_its_jack_does_not_follow_it() {
    let mut state = declared("court");
    act(&mut state, 1, play("AC"));
    // Seat 2 holds 10C and two Jacks: it must play the club.
    assert_eq!(legal_cards(&state, 2), set("10C"));
    assert!(refused(&state, 2, play("JS")).contains("follow"));
    act(&mut state, 2, play("10C"));
    // Seat 0 holds JC and KC: only KC is a club.
    assert_eq!(legal_cards(&state, 0), set("KC"));
    let events = act(&mut state, 0, play("KC"));
    assert_eq!(
        events[1],
        GoatheadEvent::TrickWon {
            seat: s(1),
            points: 25
        }
    );
    // The winner leads; with no club left, seat 2 may play anything.
    act(&mut state, 1, play("QC"));
    assert_eq!(legal_cards(&state, 2), state.current.hands[2]);
    // Seat 0 has only JC of the printed clubs: a trump, so anything goes.
    act(&mut state, 2, play("AD"));
    assert_eq!(legal_cards(&state, 0), state.current.hands[0]);
}

#[test]
fn given_a_trump_is_led_then_trumps_must_follow_jacks_included() {
    let mut state = declared("suit:H");
    act(&mut state, 1, play("10H"));
    // Seat 2: JS JD QH are trumps in hearts.
    assert_eq!(legal_cards(&state, 2), set("JS JD QH"));
    act(&mut state, 2, play("QH"));
    assert_eq!(legal_cards(&state, 0), set("JC"));
    let events = act(&mut state, 0, play("JC"));
    assert_eq!(
        events[1],
        GoatheadEvent::TrickWon {
            seat: s(0),
            points: 15
        }
    );
    assert_eq!(state.actor(), Some(s(0)));
}

#[test]
fn given_nil_then_there_are_no_trumps_and_jacks_follow_their_printed_suit() {
    let mut state = declared("nil");
    act(&mut state, 1, play("QC"));
    assert_eq!(legal_cards(&state, 2), set("10C"));
    act(&mut state, 2, play("10C"));
    assert_eq!(legal_cards(&state, 0), set("JC KC"));
}

#[test]
fn given_tricks_then_the_highest_trump_wins_else_the_highest_card_of_the_led_suit() {
    let w = |contract: &str, trick: &str| {
        trick_winner(Contract::parse(contract).unwrap(), &cards(trick))
    };
    assert_eq!(w("court", "AC JD 10C"), 1);
    assert_eq!(w("court", "QC AS 10H"), 0);
    assert_eq!(w("court", "JD JH JS JC"), 3);
    assert_eq!(w("suit:H", "AS QH JD"), 2);
    assert_eq!(w("suit:H", "JD AH"), 0);
    assert_eq!(w("suit:H", "AH 10H KH"), 0);
    assert_eq!(w("suit:D", "KS AS JS"), 2);
    assert_eq!(w("suit:C", "QC AC KC"), 1);
    assert_eq!(w("nil", "JC AC KS"), 1);
    assert_eq!(w("nil", "JC KS AS"), 0);
    assert_eq!(w("nil", "KC 10C JC AC"), 3);
    assert_eq!(w("leasters", "10S JD AS"), 1);
}

#[test]
fn given_a_card_not_in_hand_or_out_of_turn_then_play_is_refused() {
    let state = declared("court");
    assert!(refused(&state, 1, play("AS")).contains("not in your hand"));
    assert!(refused(&state, 2, play("10C")).contains("seat 1"));
    assert!(refused(&state, 1, C::KeepContract {}).contains("not possible now"));
}

#[test]
fn given_nil_when_the_declarer_wins_a_trick_then_the_round_ends_at_once() {
    let mut state = declared("nil");
    act(&mut state, 1, play("AC"));
    act(&mut state, 2, play("10C"));
    let events = act(&mut state, 0, play("KC"));
    assert_eq!(events.len(), 4, "{events:?}");
    assert_eq!(
        events[1],
        GoatheadEvent::TrickWon {
            seat: s(1),
            points: 25
        }
    );
    let GoatheadEvent::RoundScored(round) = &events[2] else {
        panic!("{events:?}")
    };
    assert_eq!(round.made, Some(false));
    // Nil 2 + 1 for leaving the kitty, to the defenders.
    assert_eq!(round.value, 3);
    assert_eq!(round.payments, vec![3, -6, 3]);
    assert_eq!(round.kitty_points, 0);
    assert!(matches!(events[3], GoatheadEvent::MatchEnded { .. }));
    assert!(state.finished());
    assert!(Goathead::to_act(&state).is_empty());
}

#[test]
fn given_nil_when_the_declarer_wins_no_trick_then_all_tricks_are_played_and_it_is_made() {
    let d = deal(
        &[
            "AC 10C KC AS 10S KS",
            "JC QC JS QS JH JD",
            "AH 10H KH QH AD 10D",
        ],
        "KD QD",
    );
    let mut state = game(3, d);
    act(&mut state, 1, bid("nil"));
    act(&mut state, 2, pass());
    act(&mut state, 0, pass());
    act(&mut state, 1, C::LeaveKitty {});
    act(&mut state, 1, C::KeepContract {});
    play_cards(
        &mut state,
        "JC AH AC  AS QS 10H  10S JS KH  KS JH QH  10C QC AD  KC JD 10D",
    );
    let round = &state.history[0];
    assert_eq!(round.tricks_won, vec![6, 0, 0]);
    assert_eq!(round.made, Some(true));
    // Nil 2 + 1 for leaving the kitty; no bonus for all tricks or points.
    assert_eq!(round.value, 3);
    assert_eq!(round.payments, vec![-3, 6, -3]);
}
