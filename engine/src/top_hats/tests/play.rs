//! Moves, jumps, chains, forced capture and the edge zone.

use super::*;
use crate::top_hats::events::SkipReason;

/// Six stacks or more keep the 2nd row out of the edge zone.
const FILLER: &str = "d4=n e6=b f6=b f5=b";

fn with_filler(spec: &str) -> String {
    format!("{FILLER} {spec}")
}

#[test]
fn given_a_stack_when_it_moves_to_an_adjacent_empty_cell_then_the_turn_passes() {
    let (mut state, _) = given(2, &with_filler("c3=bbr b6=r"), 0);
    let events = when(&mut state, 0, mv("c3", "c4"));
    assert_eq!(
        events,
        vec![Event::Moved {
            seat: Seat(0),
            from: c("c3"),
            to: c("c4")
        }]
    );
    assert_eq!(hats_on(&state, "c4"), "bbr", "the whole stack moves");
    assert_eq!(hats_on(&state, "c3"), "");
    assert_eq!(TopHats::to_act(&state), vec![Seat(1)]);
}

#[test]
fn given_a_stack_then_it_may_not_move_far_onto_a_stack_into_the_edge_zone_or_someone_elses() {
    let (state, _) = given(2, &with_filler("c3=r b2=r c5=r"), 0);
    assert!(refused(&state, 0, mv("c3", "c5")).contains("next to the stack"));
    assert!(refused(&state, 0, mv("b2", "c3")).contains("taken"));
    assert!(refused(&state, 0, mv("b2", "a1")).contains("edge zone"));
    assert!(refused(&state, 0, mv("e6", "e5")).contains("not yours"));
    assert!(
        refused(&state, 0, mv("d4", "d3")).contains("not yours"),
        "the neutral hat never moves"
    );
    assert!(refused(&state, 0, mv("a7", "b6")).contains("no stack"));
    assert!(refused(&state, 1, mv("e6", "e5")).contains("turn"));
    assert!(refused(&state, 0, end_turn()).contains("chain"));
}

#[test]
fn given_an_own_or_the_neutral_stack_next_to_mine_when_i_jump_it_then_nothing_is_removed() {
    let (mut state, _) = given(2, &with_filler("c3=r c4=bbr b1=b"), 0);
    let events = when(&mut state, 0, jump("c3", "c5"));
    assert_eq!(
        events[0],
        Event::Jumped {
            seat: Seat(0),
            from: c("c3"),
            over: c("c4"),
            to: c("c5"),
            removed: None,
            revealed: None
        }
    );
    assert_eq!(hats_on(&state, "c4"), "bbr");
    // From c5 the neutral hat on d4 can be jumped to e3.
    assert_eq!(TopHats::to_act(&state), vec![Seat(0)]);
    assert!(legal(&state, 0).contains(&jump("c5", "e3")));
    let events = when(&mut state, 0, jump("c5", "e3"));
    assert!(matches!(events[0], Event::Jumped { removed: None, .. }));
    assert_eq!(
        hats_on(&state, "d4"),
        "n",
        "the neutral hat is never removed"
    );
}

#[test]
fn given_an_opposing_stack_when_i_jump_it_then_its_top_hat_leaves_and_the_revealed_colour_owns_it()
{
    let (mut state, _) = given(2, &with_filler("c3=bbr d3=rrb"), 0);
    let events = when(&mut state, 0, jump("c3", "e3"));
    assert_eq!(
        events,
        vec![
            Event::Jumped {
                seat: Seat(0),
                from: c("c3"),
                over: c("d3"),
                to: c("e3"),
                removed: Some(Colour::Blue),
                revealed: Some(Colour::Red)
            },
            // From e3 the neutral hat can be jumped: the chain goes on.
        ]
    );
    assert_eq!(hats_on(&state, "d3"), "rr");
    assert_eq!(
        state.board.get(c("d3")).unwrap().top(),
        0,
        "red owns d3 now"
    );
    assert_eq!(state.removed, [0, 1, 0, 0]);
}

#[test]
fn given_a_lone_opposing_hat_when_i_jump_it_then_it_is_removed_and_the_cell_empties() {
    let (mut state, _) = given(2, &with_filler("b2=bbr b3=b"), 0);
    let events = when(&mut state, 0, jump("b2", "b4"));
    assert!(matches!(
        events[0],
        Event::Jumped {
            removed: Some(Colour::Blue),
            revealed: None,
            ..
        }
    ));
    assert_eq!(hats_on(&state, "b3"), "");
    assert!(
        matches!(
            events[1],
            Event::ChainEnded {
                voluntary: false,
                ..
            }
        ),
        "no jump is left: {events:?}"
    );
    assert_eq!(TopHats::to_act(&state), vec![Seat(1)]);
    assert_eq!(state.quiet_turns, 0);
}

#[test]
fn given_a_capture_available_when_i_try_anything_else_then_i_must_jump_an_opposing_stack() {
    let (state, _) = given(2, &with_filler("c3=r d3=b a7=r g1=b"), 0);
    // c3 over d3; the neutral d4 jump and every move are not allowed.
    assert_eq!(legal(&state, 0), vec![jump("c3", "e3")]);
    assert!(refused(&state, 0, mv("c3", "c4")).contains("must jump"));
    assert!(refused(&state, 0, jump("c3", "e5")).contains("must jump"));
    assert!(
        refused(&state, 0, mv("a7", "b6")).contains("must jump"),
        "capture comes before the edge obligation"
    );
}

#[test]
fn given_several_captures_then_the_player_chooses_any_and_a_capture_may_land_in_the_edge_zone() {
    let (mut state, _) = given(2, &with_filler("c3=r d3=b d5=r"), 0);
    let mut l = legal(&state, 0);
    l.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(l, vec![jump("c3", "e3"), jump("d5", "f7")]);
    when(&mut state, 0, jump("d5", "f7"));
    assert_eq!(hats_on(&state, "f7"), "r", "f7 is on the outer row");
}

#[test]
fn given_a_chain_then_each_jump_is_one_command_no_stack_is_jumped_twice_and_later_jumps_are_free() {
    // c3 takes d3's blue top (red below: d3 turns red); from e3: d3 again is
    // refused, the own f3 into the outer row g3 is refused (no capture), the
    // opposing f4 into g5 is allowed, and the neutral d4 to c5 is allowed.
    let (mut state, _) = given(2, "d4=n c3=r d3=rrb f3=r f4=bb e6=b f6=b", 0);
    when(&mut state, 0, jump("c3", "e3"));
    let mut l = legal(&state, 0);
    l.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(l, vec![end_turn(), jump("e3", "c5"), jump("e3", "g5")]);
    assert!(refused(&state, 0, jump("e3", "c3")).contains("already jumped"));
    assert!(refused(&state, 0, jump("e3", "g3")).contains("edge zone"));
    assert!(refused(&state, 0, jump("f3", "f5")).contains("only the jumping stack"));
    assert!(refused(&state, 0, mv("e3", "e2")).contains("chain"));
}

#[test]
fn given_a_chain_when_no_jump_is_left_then_it_ends_by_itself() {
    let (mut state, _) = given(2, "d4=n c3=r d3=rrb f3=r f4=bb e6=b f6=b", 0);
    when(&mut state, 0, jump("c3", "e3"));
    let events = when(&mut state, 0, jump("e3", "c5"));
    assert_eq!(
        events[1],
        Event::ChainEnded {
            seat: Seat(0),
            voluntary: false
        }
    );
    assert_eq!(TopHats::to_act(&state), vec![Seat(1)]);
    assert_eq!(state.quiet_turns, 0, "the chain removed a hat");
}

#[test]
fn given_a_chain_when_the_player_ends_the_turn_then_the_next_seat_plays() {
    let (mut state, _) = given(2, "d4=n c3=r d3=rrb f3=r f4=bb e6=b f6=b", 0);
    when(&mut state, 0, jump("c3", "e3"));
    let events = when(&mut state, 0, end_turn());
    assert_eq!(
        events,
        vec![Event::ChainEnded {
            seat: Seat(0),
            voluntary: true
        }]
    );
    assert_eq!(TopHats::to_act(&state), vec![Seat(1)]);
    assert!(refused(&state, 1, end_turn()).contains("chain"));
}

#[test]
fn given_a_free_chain_then_jumps_over_own_and_neutral_stacks_are_optional() {
    let (mut state, _) = given(2, &with_filler("b3=r c3=r"), 0);
    // b3 over c3 (own) to d3; then d3 over d4 (neutral) to d5 may follow.
    when(&mut state, 0, jump("b3", "d3"));
    assert_eq!(legal(&state, 0), vec![jump("d3", "d5"), end_turn()]);
    when(&mut state, 0, end_turn());
    assert_eq!(state.quiet_turns, 1, "no hat removed: a quiet turn");
}

#[test]
fn given_a_non_capturing_jump_then_it_may_not_land_in_the_edge_zone() {
    let (state, _) = given(2, &with_filler("c2=r b2=r"), 0);
    assert!(refused(&state, 0, jump("c2", "a2")).contains("edge zone"));
    assert!(legal(&state, 0).contains(&jump("b2", "d2")));
}

#[test]
fn given_a_stack_in_the_edge_zone_then_it_must_leave_on_its_owners_next_turn() {
    let (state, _) = given(2, &with_filler("b1=r c5=r"), 0);
    let mut l = legal(&state, 0);
    l.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(l, vec![mv("b1", "b2"), mv("b1", "c2")]);
    assert!(refused(&state, 0, mv("c5", "c4")).contains("must leave"));
}

#[test]
fn given_stacks_in_the_edge_zone_that_cannot_move_then_any_stack_may_move() {
    let (mut state, _) = given(2, &with_filler("b1=r b2=r c2=r b3=r d3=r"), 0);
    let l = legal(&state, 0);
    assert!(!l.is_empty());
    assert!(l.iter().all(|c| !matches!(c, Command::Move { from, .. } | Command::Jump { from, .. } if *from == super::c("b1"))));
    when(&mut state, 0, mv("b2", "c3"));
}

#[test]
fn given_an_edge_stack_and_a_capture_elsewhere_then_the_capture_comes_first() {
    let (state, _) = given(2, &with_filler("b1=r d5=r"), 0);
    assert_eq!(legal(&state, 0), vec![jump("d5", "f7")]);
}

#[test]
fn given_five_stacks_at_the_start_of_a_turn_then_the_second_row_joins_the_edge_zone() {
    let (state, events) = given(2, "d4=n b2=r c5=r f6=b g7=b", 0);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::EdgeZoneGrew { cells } if cells.len() == 16))
    );
    assert!(state.ring1_edge);
    // b2 is now in the edge zone and must leave; only c3 is outside it.
    assert_eq!(legal(&state, 0), vec![mv("b2", "c3")]);
}

#[test]
fn given_six_stacks_when_a_removal_leaves_five_then_the_next_turn_grows_the_edge_zone() {
    let (mut state, events) = given(2, "d4=n b2=r c3=r d3=b f6=b g7=b", 0);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::EdgeZoneGrew { .. }))
    );
    when(&mut state, 0, jump("c3", "e3"));
    assert!(!state.ring1_edge, "checked at the start of a turn");
    let events = when(&mut state, 0, end_turn());
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::EdgeZoneGrew { .. })),
        "{events:?}"
    );
    assert!(state.ring1_edge);
    // Blue's f6 is on the 2nd row now: it must leave.
    assert!(legal(&state, 1).iter().all(|c| matches!(c, Command::Move { from, .. } | Command::Jump { from, .. } if *from == super::c("f6") || *from == super::c("g7"))));
}

#[test]
fn given_a_player_with_no_legal_action_then_the_turn_is_skipped() {
    let (state, events) = given(2, "a1=r a2=b b1=b b2=b a3=b c3=b c1=b", 0);
    assert!(events.contains(&Event::Skipped {
        seat: Seat(0),
        reason: SkipReason::NoAction
    }));
    assert_eq!(TopHats::to_act(&state), vec![Seat(1)]);
}
