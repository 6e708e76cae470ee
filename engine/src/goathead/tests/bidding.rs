//! Bidding: strictly higher bids, steals, final passes, Leasters.

use super::*;
use GoatheadCommand as C;

#[test]
fn given_a_new_round_then_the_seat_left_of_the_dealer_bids_first_and_others_wait() {
    let state = game(3, deal3());
    assert_eq!(Goathead::to_act(&state), vec![s(1)]);
    assert!(Goathead::legal_commands(&state, s(0)).is_empty());
    assert!(refused(&state, 0, pass()).contains("seat 1"));
    let legal = Goathead::legal_commands(&state, s(1));
    // Six contracts and a pass; no steal without a leader.
    assert_eq!(legal.len(), 7);
    assert!(!legal.contains(&C::Steal {}));
    assert!(refused(&state, 1, C::Steal {}).contains("no bid"));
}

#[test]
fn given_a_bid_when_the_next_seat_bids_then_only_strictly_higher_contracts_are_accepted() {
    let mut state = game(3, deal3());
    act(&mut state, 1, bid("nil"));
    assert_eq!(state.current.leader, Some(s(1)));
    for lower in ["suit:D", "suit:H", "nil"] {
        assert!(refused(&state, 2, bid(lower)).contains("higher than nil"));
    }
    assert!(refused(&state, 2, bid("leasters")).contains("cannot be bid"));
    let legal = Goathead::legal_commands(&state, s(2));
    assert_eq!(
        legal,
        vec![bid("suit:S"), bid("suit:C"), bid("court"), pass()]
    );
    act(&mut state, 2, bid("suit:S"));
    assert_eq!(state.current.highest, Some(Contract::Suit(Suit::Spades)));
}

#[test]
fn given_a_leader_when_a_seat_with_fewer_game_points_steals_then_it_leads_the_same_contract() {
    let mut state = game(3, deal3());
    state.game_points = vec![0, 5, 3];
    act(&mut state, 1, bid("suit:D"));
    assert!(Goathead::legal_commands(&state, s(2)).contains(&C::Steal {}));
    let events = act(&mut state, 2, C::Steal {});
    assert_eq!(
        events,
        vec![GoatheadEvent::Stole {
            seat: s(2),
            contract: Contract::Suit(Suit::Diamonds)
        }]
    );
    assert_eq!(state.current.leader, Some(s(2)));
    // Seat 0 has fewer points than seat 2: it may steal again.
    act(&mut state, 0, C::Steal {});
    assert_eq!(state.current.leader, Some(s(0)));
    // Seat 1 has more points than seat 0: no steal back, only bid or pass.
    assert!(refused(&state, 1, C::Steal {}).contains("fewer game points"));
    assert!(!Goathead::legal_commands(&state, s(1)).contains(&C::Steal {}));
}

#[test]
fn given_equal_game_points_when_stealing_then_it_is_refused() {
    let mut state = game(3, deal3());
    state.game_points = vec![3, 3, 0];
    act(&mut state, 1, bid("suit:D"));
    act(&mut state, 2, pass());
    assert!(refused(&state, 0, C::Steal {}).contains("fewer game points"));
}

#[test]
fn given_a_pass_then_it_is_final_and_the_bidding_skips_that_seat() {
    let mut state = game(4, deal4());
    act(&mut state, 1, bid("suit:D"));
    act(&mut state, 2, pass());
    act(&mut state, 3, bid("suit:H"));
    act(&mut state, 0, bid("nil"));
    // Seat 1 is next; then seat 2 (passed) is skipped.
    act(&mut state, 1, bid("suit:S"));
    assert_eq!(state.actor(), Some(s(3)));
    assert!(Goathead::legal_commands(&state, s(2)).is_empty());
}

#[test]
fn given_all_but_the_leader_passed_then_the_leader_declares_the_highest_contract() {
    let mut state = game(3, deal3());
    act(&mut state, 1, bid("suit:H"));
    act(&mut state, 2, bid("court"));
    act(&mut state, 0, pass());
    let events = act(&mut state, 1, pass());
    assert_eq!(
        events,
        vec![
            GoatheadEvent::Passed { seat: s(1) },
            GoatheadEvent::ContractSet {
                declarer: Some(s(2)),
                contract: Contract::Court
            },
        ]
    );
    assert_eq!(state.phase, Phase::KittyChoice);
    assert_eq!(state.actor(), Some(s(2)));
}

#[test]
fn given_everyone_else_passed_when_the_last_seat_bids_then_it_declares_at_once() {
    let mut state = game(3, deal3());
    act(&mut state, 1, pass());
    act(&mut state, 2, pass());
    let events = act(&mut state, 0, bid("suit:D"));
    assert_eq!(
        events[1],
        GoatheadEvent::ContractSet {
            declarer: Some(s(0)),
            contract: Contract::Suit(Suit::Diamonds)
        }
    );
}

#[test]
fn given_everyone_passes_then_leasters_is_played_without_a_kitty_phase() {
    for (players, d) in [(3, deal3()), (4, deal4())] {
        let mut state = game(players, d);
        let mut events = Vec::new();
        for i in 1..=players {
            events = act(&mut state, u8::try_from(i % players).unwrap(), pass());
        }
        assert_eq!(
            events[1..],
            [
                GoatheadEvent::ContractSet {
                    declarer: None,
                    contract: Contract::Leasters
                },
                GoatheadEvent::PlayStarted {
                    leader: s(1),
                    declaring_side: vec![]
                },
            ]
        );
        assert_eq!(state.phase, Phase::Play { turn: s(1) });
    }
}

#[test]
fn given_bidding_when_a_later_step_command_is_sent_then_it_is_refused() {
    let state = game(3, deal3());
    for command in [
        C::TakeKitty {},
        C::KeepContract {},
        C::Bury { card: c("AS") },
        C::KittySkip {},
        play("AS"),
    ] {
        assert!(refused(&state, 1, command).contains("not possible now"));
    }
}
