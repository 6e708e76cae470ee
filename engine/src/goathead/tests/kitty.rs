//! The kitty: take or leave, bury, keep or upgrade (3 players); the swap
//! round (4 players).

use super::*;
use GoatheadCommand as C;

/// A 3-player game on `deal3()` where seat 0 declares `contract`.
fn declared3(contract: &str) -> GoatheadState {
    let mut state = game(3, deal3());
    act(&mut state, 1, pass());
    act(&mut state, 2, pass());
    act(&mut state, 0, bid(contract));
    state
}

#[test]
fn given_a_3p_declarer_when_taking_the_kitty_then_it_buries_two_cards_of_its_choice() {
    let mut state = declared3("suit:C");
    assert_eq!(
        Goathead::legal_commands(&state, s(0)),
        vec![C::TakeKitty {}, C::LeaveKitty {}]
    );
    act(&mut state, 0, C::TakeKitty {});
    assert_eq!(state.current.hands[0].len(), 8);
    assert!(state.current.kitty.is_empty());
    assert_eq!(state.phase, Phase::Bury);
    // Any card may be buried, trumps and points included.
    assert_eq!(Goathead::legal_commands(&state, s(0)).len(), 8);
    assert!(refused(&state, 0, C::Bury { card: c("AS") }).contains("not in your hand"));
    act(&mut state, 0, C::Bury { card: c("JC") });
    assert_eq!(state.phase, Phase::Bury);
    act(&mut state, 0, C::Bury { card: c("AC") });
    assert_eq!(state.current.kitty, set("JC AC"));
    assert_eq!(state.current.hands[0], set("10C KC QC JS KD QD"));
    assert_eq!(state.phase, Phase::ContractChoice);
}

#[test]
fn given_a_3p_declarer_when_leaving_the_kitty_then_it_still_keeps_or_upgrades() {
    let mut state = declared3("suit:S");
    act(&mut state, 0, C::LeaveKitty {});
    assert_eq!(state.phase, Phase::ContractChoice);
    assert_eq!(
        Goathead::legal_commands(&state, s(0)),
        vec![
            C::KeepContract {},
            C::Upgrade {
                contract: Contract::Suit(Suit::Clubs)
            },
            C::Upgrade {
                contract: Contract::Court
            },
        ]
    );
    let events = act(&mut state, 0, C::KeepContract {});
    assert_eq!(
        events,
        vec![
            GoatheadEvent::ContractKept {
                seat: s(0),
                contract: Contract::Suit(Suit::Spades)
            },
            GoatheadEvent::PlayStarted {
                leader: s(1),
                declaring_side: vec![s(0)]
            },
        ]
    );
    assert!(!state.current.kitty_taken);
}

#[test]
fn given_a_contract_when_upgrading_then_only_strictly_higher_contracts_nil_included() {
    let mut state = declared3("suit:H");
    act(&mut state, 0, C::LeaveKitty {});
    for not_higher in ["suit:D", "suit:H", "leasters"] {
        let contract = Contract::parse(not_higher).unwrap();
        assert!(refused(&state, 0, C::Upgrade { contract }).contains("higher than suit:H"));
    }
    act(
        &mut state,
        0,
        C::Upgrade {
            contract: Contract::Nil,
        },
    );
    assert_eq!(state.current.contract, Some(Contract::Nil));
    assert_eq!(state.phase, Phase::Play { turn: s(1) });
}

#[test]
fn given_court_when_choosing_then_only_keeping_is_possible() {
    let mut state = declared3("court");
    act(&mut state, 0, C::LeaveKitty {});
    assert_eq!(
        Goathead::legal_commands(&state, s(0)),
        vec![C::KeepContract {}]
    );
}

/// A 4-player game on `deal4()` where seat 1 declares `suit:H`.
fn declared4() -> GoatheadState {
    let mut state = game(4, deal4());
    act(&mut state, 1, bid("suit:H"));
    act(&mut state, 2, pass());
    act(&mut state, 3, pass());
    act(&mut state, 0, pass());
    state
}

#[test]
fn given_4p_when_the_kitty_goes_round_then_declarer_swaps_upgrades_then_the_others_then_the_dealer()
{
    let mut state = declared4();
    assert_eq!(state.phase, Phase::Swap { step: 0 });
    assert_eq!(state.actor(), Some(s(1)));
    // 4 hand cards × 4 kitty cards, or skip.
    assert_eq!(Goathead::legal_commands(&state, s(1)).len(), 17);
    act(
        &mut state,
        1,
        C::KittySwap {
            hand_card: c("QS"),
            kitty_card: c("JH"),
        },
    );
    assert_eq!(state.current.hands[1], set("AS 10S KS JH"));
    assert_eq!(state.current.kitty, set("KC QC QS JD"));
    assert_eq!(state.phase, Phase::ContractChoice);
    assert_eq!(state.actor(), Some(s(1)));
    act(&mut state, 1, C::KeepContract {});
    let mut order = Vec::new();
    while matches!(state.phase, Phase::Swap { .. }) {
        let actor = state.actor().unwrap();
        order.push(actor);
        act(&mut state, actor.0, C::KittySkip {});
    }
    assert_eq!(order, vec![s(2), s(3), s(0), s(0)]);
    assert!(matches!(state.phase, Phase::Play { turn } if turn == s(1)));
    assert!(state.current.declarer_swapped);
}

#[test]
fn given_4p_when_the_dealer_declares_then_it_swaps_first_and_once_more_at_the_end() {
    let mut state = game(4, deal4());
    for i in [1, 2, 3] {
        act(&mut state, i, pass());
    }
    act(&mut state, 0, bid("court"));
    let mut order = Vec::new();
    while let Some(actor) = state.actor() {
        if !matches!(state.phase, Phase::Swap { .. } | Phase::ContractChoice) {
            break;
        }
        order.push(actor);
        let command = if state.phase == Phase::ContractChoice {
            C::KeepContract {}
        } else {
            C::KittySkip {}
        };
        act(&mut state, actor.0, command);
    }
    assert_eq!(order, vec![s(0), s(0), s(1), s(2), s(3), s(0)]);
    assert!(!state.current.declarer_swapped);
}

#[test]
fn given_4p_when_swapping_then_the_cards_must_be_in_hand_and_kitty() {
    let state = declared4();
    assert!(
        refused(
            &state,
            1,
            C::KittySwap {
                hand_card: c("AH"),
                kitty_card: c("JH")
            }
        )
        .contains("not in your hand")
    );
    assert!(
        refused(
            &state,
            1,
            C::KittySwap {
                hand_card: c("AS"),
                kitty_card: c("AH")
            }
        )
        .contains("not in the kitty")
    );
    assert!(refused(&state, 1, C::TakeKitty {}).contains("not possible now"));
}

#[test]
fn given_4p_when_the_declarer_swaps_only_as_the_final_dealer_then_it_swapped_something() {
    let mut state = game(4, deal4());
    for i in [1, 2, 3] {
        act(&mut state, i, pass());
    }
    act(&mut state, 0, bid("court"));
    act(&mut state, 0, C::KittySkip {});
    act(&mut state, 0, C::KeepContract {});
    for i in [1, 2, 3] {
        act(&mut state, i, C::KittySkip {});
    }
    assert!(!state.current.declarer_swapped);
    act(
        &mut state,
        0,
        C::KittySwap {
            hand_card: c("AC"),
            kitty_card: c("JD"),
        },
    );
    assert!(state.current.declarer_swapped);
    assert_eq!(state.current.hands[0], set("JC JS 10C JD"));
}

#[test]
fn given_a_3p_declarer_buried_cards_then_their_points_count_for_the_declarer() {
    let mut state = declared3("suit:C");
    act(&mut state, 0, C::TakeKitty {});
    act(&mut state, 0, C::Bury { card: c("AC") });
    act(&mut state, 0, C::Bury { card: c("KD") });
    act(&mut state, 0, C::KeepContract {});
    while let Some(actor) = state.actor() {
        let legal = Goathead::legal_commands(&state, actor);
        act(&mut state, actor.0, legal[0]);
    }
    let round = &state.history[0];
    assert_eq!(round.kitty_points, 15);
    assert_eq!(round.side_points, Some(round.trick_points[0] + 15));
    // Taken: no kitty bonus.
    assert!(round.value <= 3);
}

#[test]
fn given_a_declarer_in_the_kitty_phase_when_another_seat_acts_then_it_is_refused() {
    let state = declared3("suit:C");
    assert!(refused(&state, 1, C::TakeKitty {}).contains("seat 0"));
    assert!(Goathead::legal_commands(&state, s(1)).is_empty());
}
