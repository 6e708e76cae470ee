//! Building and placing.

use super::*;
use crate::ruleset::{Viewer, seat};
use crate::top_hats::Phase;
use crate::top_hats::board::X_CELLS;
use crate::top_hats::events::{EventView, HiddenEvent};

fn fresh(players: usize) -> State {
    given_with(players, Options::default()).0
}

fn build(under: [Colour; 2]) -> Command {
    Command::BuildStack { under }
}

const R: Colour = Colour::Red;
const B: Colour = Colour::Blue;
const Y: Colour = Colour::Yellow;

/// Every seat builds five stacks with `under` = [own, other].
fn all_built(players: usize) -> State {
    let mut state = fresh(players);
    for round in 0..5 {
        for s in 0..players {
            let own = Colour::from_code(s as u8);
            let next = Colour::from_code(((s + 1) % players) as u8);
            let after = Colour::from_code(((s + 2) % players) as u8);
            // The given hats first, then the rest of one's own colour.
            let under = match (round < 3, players) {
                (true, 2) => [next, next],
                (true, _) => [next, after],
                (false, _) => [own, own],
            };
            when(&mut state, s as u8, build(under));
        }
    }
    state
}

#[test]
fn given_a_new_two_player_game_then_everyone_builds_at_once_with_nine_own_and_six_given_hats() {
    let (state, events) = given_with(2, Options::default());
    assert_eq!(TopHats::to_act(&state), vec![Seat(0), Seat(1)]);
    assert_eq!(state.pools[0], [9, 6, 0]);
    assert_eq!(state.pools[1], [6, 9, 0]);
    assert!(matches!(events[..], [Event::BuildingStarted { .. }]));
    assert_eq!(hats_on(&state, "d4"), "n", "the neutral hat stands on d4");
    assert_eq!(state.board.count(), 1);
}

#[test]
fn given_a_new_three_player_game_then_pools_are_nine_own_and_three_of_each_other() {
    let state = fresh(3);
    assert_eq!(state.pools, [[9, 3, 3], [3, 9, 3], [3, 3, 9]]);
    assert_eq!(TopHats::to_act(&state), vec![Seat(0), Seat(1), Seat(2)]);
    assert_eq!(legal(&state, 2).len(), 9);
}

#[test]
fn given_building_when_a_seat_builds_then_the_stack_is_its_colour_on_top_and_others_still_build() {
    let mut state = fresh(2);
    let events = when(&mut state, 1, build([R, B]));
    assert_eq!(
        events,
        vec![Event::StackBuilt {
            seat: Seat(1),
            stack: 0,
            under: [R, B]
        }]
    );
    assert_eq!(state.built[1][0], [0, 1, 1]);
    assert_eq!(state.pools[1], [5, 7, 0]);
    assert_eq!(TopHats::to_act(&state), vec![Seat(0), Seat(1)]);
}

#[test]
fn given_building_then_order_matters_and_neutral_or_absent_colours_are_refused() {
    let state = fresh(2);
    let l = legal(&state, 0);
    assert!(l.contains(&build([R, B])) && l.contains(&build([B, R])));
    assert_eq!(l.len(), 4);
    assert!(refused(&state, 0, build([Colour::Neutral, R])).contains("no Neutral"));
    assert!(refused(&state, 0, build([Y, R])).contains("no Yellow"));
}

#[test]
fn given_a_pool_when_a_build_would_leave_too_few_own_hats_for_the_tops_then_it_is_refused() {
    let mut state = fresh(2);
    when(&mut state, 0, build([R, R])); // 6 red left, 4 stacks to build
    when(&mut state, 0, build([R, R])); // 3 red left, 3 stacks to build
    let why = refused(&state, 0, build([R, B]));
    assert!(why.contains("keep one hat of your colour"), "{why}");
    assert_eq!(legal(&state, 0), vec![build([B, B])]);
}

#[test]
fn given_a_seat_that_built_five_stacks_then_it_waits_for_the_others() {
    let mut state = fresh(2);
    for _ in 0..3 {
        when(&mut state, 0, build([B, B]));
    }
    when(&mut state, 0, build([R, R]));
    when(&mut state, 0, build([R, R]));
    assert_eq!(state.pools[0], [0, 0, 0]);
    assert_eq!(TopHats::to_act(&state), vec![Seat(1)]);
    assert!(legal(&state, 0).is_empty());
    assert!(refused(&state, 0, build([R, R])).contains("all five"));
}

#[test]
fn given_everyone_built_then_seat_0_places_first_on_x_cells_only() {
    let state = all_built(2);
    assert_eq!(state.phase, Phase::Placing);
    assert_eq!(TopHats::to_act(&state), vec![Seat(0)]);
    assert_eq!(legal(&state, 0).len(), 5 * 24);
    assert!(
        refused(
            &state,
            0,
            Command::Place {
                stack: 0,
                cell: c("a1")
            }
        )
        .contains("not an X cell")
    );
    assert!(
        refused(
            &state,
            0,
            Command::Place {
                stack: 0,
                cell: c("d4")
            }
        )
        .contains("not an X cell")
    );
    assert!(
        refused(
            &state,
            1,
            Command::Place {
                stack: 0,
                cell: c("c3")
            }
        )
        .contains("turn")
    );
    assert!(
        refused(
            &state,
            0,
            Command::Place {
                stack: 5,
                cell: c("c3")
            }
        )
        .contains("no stack 5")
    );
    assert_eq!(X_CELLS.count_ones(), 24);
}

#[test]
fn given_placing_when_a_stack_is_placed_then_it_is_not_offered_again_numbers_do_not_shift_and_the_cell_is_taken()
 {
    let mut state = all_built(2);
    when(
        &mut state,
        0,
        Command::Place {
            stack: 2,
            cell: c("c3"),
        },
    );
    assert_eq!(hats_on(&state, "c3"), "bbr");
    assert_eq!(TopHats::to_act(&state), vec![Seat(1)]);
    assert!(
        refused(
            &state,
            1,
            Command::Place {
                stack: 0,
                cell: c("c3")
            }
        )
        .contains("taken")
    );
    when(
        &mut state,
        1,
        Command::Place {
            stack: 0,
            cell: c("e5"),
        },
    );
    assert!(
        refused(
            &state,
            0,
            Command::Place {
                stack: 2,
                cell: c("c4")
            }
        )
        .contains("no stack 2")
    );
    let l = legal(&state, 0);
    assert_eq!(l.len(), 4 * 22);
    assert!(l.contains(&Command::Place {
        stack: 4,
        cell: c("c4")
    }));
}

#[test]
fn given_the_last_stack_placed_then_play_starts_with_seat_0() {
    for players in 2..=3 {
        let mut state = all_built(players);
        let cells: Vec<Cell> = crate::top_hats::board::cells_of(X_CELLS).collect();
        let mut k = 0;
        for stack in 0..5u8 {
            for s in 0..players {
                when(
                    &mut state,
                    s as u8,
                    Command::Place {
                        stack,
                        cell: cells[k],
                    },
                );
                k += 1;
            }
        }
        assert_eq!(state.phase, Phase::Playing);
        assert_eq!(TopHats::to_act(&state), vec![Seat(0)]);
        assert_eq!(state.board.count() as usize, 5 * players + 1);
    }
}

#[test]
fn given_a_built_stack_then_only_its_builder_sees_what_is_under_it() {
    let event = Event::StackBuilt {
        seat: Seat(0),
        stack: 3,
        under: [B, R],
    };
    let own = serde_json::to_value(TopHats::redact(&event, Viewer::Seat(Seat(0)))).unwrap();
    assert_eq!(
        own,
        serde_json::json!({"type": "stack_built", "data": {"seat": 0, "stack": 3, "height": 3, "under": ["blue", "red"]}})
    );
    for viewer in [Viewer::Seat(seat(1)), Viewer::Spectator] {
        let other = TopHats::redact(&event, viewer);
        assert_eq!(
            other,
            EventView::Hidden(HiddenEvent::StackBuilt {
                seat: Seat(0),
                stack: 3,
                height: 3,
                under: None
            })
        );
    }
}

#[test]
fn given_the_same_seed_then_the_same_opening_and_there_is_no_randomness() {
    let state = TopHats::new_game(3, Options::default()).unwrap();
    let a = TopHats::start(&state, &Randomness::from_seed("one"));
    let b = TopHats::start(&state, &Randomness::from_seed("one"));
    let c = TopHats::start(&state, &Randomness::from_seed("two"));
    assert_eq!(a, b);
    assert_eq!(a, c);
}

#[test]
fn given_bad_options_then_new_game_refuses_them() {
    assert!(TopHats::new_game(4, Options::default()).is_err());
    assert!(TopHats::new_game(1, Options::default()).is_err());
    let zero = Options {
        quiet_turn_limit: 0,
        ..Options::default()
    };
    assert!(TopHats::new_game(2, zero).is_err());
    for (spec, to_move) in [
        ("c3=r c3=b", 0),    // two stacks on one cell
        ("c3=rrrr e5=b", 0), // four hats
        ("c3=r e5=y", 0),    // no yellow with two players
        ("c3=r e5=rn", 0),   // the neutral hat in a stack
        ("c3=r e5=b", 2),    // no seat 2
        ("c3=r e5=r", 0),    // one colour only
        ("c3=r e5=b d4=n@0", 0),
    ] {
        assert!(
            TopHats::new_game(2, options(spec, to_move)).is_err(),
            "{spec}"
        );
    }
    let json = r#"{"position": {"stacks": [{"cell": "b2", "hats": ["blue", "red", "red"]}, {"cell": "f6", "hats": ["blue"]}], "to_move": 1}}"#;
    let parsed: Options = serde_json::from_str(json).unwrap();
    assert!(TopHats::new_game(2, parsed).is_ok());
    assert!(serde_json::from_str::<Options>(r#"{"deals": []}"#).is_err());
    assert!(
        serde_json::from_str::<Options>(
            r#"{"position": {"stacks": [{"cell": "h9", "hats": ["red"]}]}}"#
        )
        .is_err()
    );
}

#[test]
fn given_commands_as_json_then_they_parse_with_their_rule_names() {
    let parse = |s: &str| serde_json::from_str::<Command>(s);
    assert_eq!(
        parse(r#"{"type": "build_stack", "under": ["red", "blue"]}"#).unwrap(),
        build([R, B])
    );
    assert_eq!(
        parse(r#"{"type": "place", "stack": 1, "cell": "c3"}"#).unwrap(),
        Command::Place {
            stack: 1,
            cell: c("c3")
        }
    );
    assert_eq!(
        parse(r#"{"type": "move", "from": "c3", "to": "c4"}"#).unwrap(),
        mv("c3", "c4")
    );
    assert_eq!(
        parse(r#"{"type": "jump", "from": "c3", "to": "c5"}"#).unwrap(),
        jump("c3", "c5")
    );
    assert_eq!(parse(r#"{"type": "end_turn"}"#).unwrap(), end_turn());
    assert!(parse(r#"{"type": "end_turn", "x": 1}"#).is_err());
    assert!(parse(r#"{"type": "move", "from": "c8", "to": "c4"}"#).is_err());
    assert!(parse(r#"{"type": "move", "from": "c3"}"#).is_err());
    assert!(parse(r#"{"type": "move", "from": "c3", "to": "c4", "stack": 1}"#).is_err());
    assert!(parse(r#"{"type": "end_turn", "under": ["red", "red"]}"#).is_err());
    assert!(parse(r#"{"type": "build_stack", "under": ["red"]}"#).is_err());
    assert!(parse(r#"{"type": "pass"}"#).is_err());
    assert!(parse(r#"{"from": "c3", "to": "c4"}"#).is_err());
    assert_eq!(
        parse(r#"{"to": "c4", "from": "c3", "type": "jump"}"#).unwrap(),
        jump("c3", "c4"),
        "field order does not matter"
    );
    assert_eq!(
        serde_json::to_string(&Command::Place {
            stack: 1,
            cell: c("c3")
        })
        .unwrap(),
        r#"{"type":"place","stack":1,"cell":"c3"}"#
    );
    assert_eq!(
        serde_json::to_string(&end_turn()).unwrap(),
        r#"{"type":"end_turn"}"#
    );
}

#[test]
fn given_the_options_schema_then_it_describes_the_options_and_defaults_round_trip() {
    let schema = TopHats::options_schema();
    assert_eq!(schema["properties"]["quiet_turn_limit"]["default"], 60);
    assert!(schema["properties"]["position"]["properties"]["stacks"].is_object());
    let json = serde_json::to_string(&Options::default()).unwrap();
    assert_eq!(
        serde_json::from_str::<Options>(&json).unwrap(),
        Options::default()
    );
    assert_eq!(
        serde_json::from_str::<Options>("{}").unwrap(),
        Options::default()
    );
    assert_eq!(
        serde_json::from_str::<Options>(r#"{"quiet_turn_limit": 10}"#)
            .unwrap()
            .quiet_turn_limit,
        10
    );
}

#[test]
fn given_the_ruleset_then_it_is_registered_as_top_hats_for_two_or_three() {
    use crate::GameKind;
    let kind = GameKind::from_id("top-hats").unwrap();
    assert_eq!(
        crate::with_ruleset!(kind, |R| (R::NAME, R::MIN_PLAYERS, R::MAX_PLAYERS)),
        ("Top Hats", 2, 3)
    );
}
