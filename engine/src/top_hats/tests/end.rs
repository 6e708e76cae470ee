//! Winning, skipping and drawing.

use super::*;
use crate::top_hats::events::{DrawReason, SkipReason};
use crate::top_hats::{End, Phase};

#[test]
fn given_the_last_opposing_hat_when_it_is_removed_then_the_jumper_wins_even_mid_chain() {
    let (mut state, _) = given(2, "d4=n c3=r d3=b e4=r b6=r", 0);
    let events = when(&mut state, 0, jump("c3", "e3"));
    assert_eq!(events.last(), Some(&Event::Won { seat: Seat(0) }));
    assert!(TopHats::to_act(&state).is_empty());
    assert_eq!(state.phase, Phase::Over);
    let result = TopHats::result(&state).unwrap();
    assert_eq!(result.winners, vec![Seat(0)]);
    assert_eq!(result.outcome, None);
    assert_eq!(result.scores, vec![3, 0]);
    assert_eq!(result.rounds[0].removed, vec![0, 1]);
    assert_eq!(result.rounds[0].end, End::LastColour);
}

#[test]
fn given_three_players_and_a_colour_gone_then_its_seat_is_skipped_until_the_colour_comes_back() {
    let (mut state, events) = given(3, "d4=n c3=r d3=yb e6=b f6=b b6=r", 2);
    assert_eq!(
        events.last(),
        Some(&Event::Skipped {
            seat: Seat(2),
            reason: SkipReason::NoColour
        })
    );
    assert_eq!(TopHats::to_act(&state), vec![Seat(0)]);
    let events = when(&mut state, 0, jump("c3", "e3"));
    assert!(matches!(
        events[0],
        Event::Jumped {
            revealed: Some(Colour::Yellow),
            ..
        }
    ));
    assert_eq!(
        state.phase,
        Phase::Playing,
        "red is not alone: yellow is back"
    );
    when(&mut state, 0, end_turn());
    when(&mut state, 1, mv("e6", "e5"));
    assert_eq!(TopHats::to_act(&state), vec![Seat(2)]);
}

#[test]
fn given_three_players_when_only_one_colour_is_left_on_top_then_it_wins() {
    let (mut state, _) = given(3, "d4=n c3=r d3=b e6=y f3=r", 0);
    // Red takes blue's last hat, but yellow still shows: play goes on.
    let events = when(&mut state, 0, jump("c3", "e3"));
    assert!(!events.iter().any(|e| matches!(e, Event::Won { .. })));
    when(&mut state, 0, end_turn());
    assert_eq!(
        TopHats::to_act(&state),
        vec![Seat(2)],
        "blue has no colour: skipped"
    );
}

#[test]
fn given_nobody_can_act_then_the_game_is_a_draw() {
    // A full board: no move, no jump.
    let spec: Vec<String> = (0..49)
        .map(|i| {
            let cell = Cell::from_index(i).unwrap();
            format!("{cell}={}", if i % 2 == 0 { "r" } else { "b" })
        })
        .collect();
    let (state, events) = given(2, &spec.join(" "), 0);
    assert_eq!(
        events[1..],
        [
            Event::Skipped {
                seat: Seat(0),
                reason: SkipReason::NoAction
            },
            Event::Skipped {
                seat: Seat(1),
                reason: SkipReason::NoAction
            },
            Event::Drawn {
                reason: DrawReason::NoAction
            },
        ]
    );
    let result = TopHats::result(&state).unwrap();
    assert_eq!(result.outcome.as_deref(), Some("draw"));
    assert!(result.winners.is_empty());
}

#[test]
fn given_quiet_turns_up_to_the_limit_then_the_game_is_a_draw() {
    let options = Options {
        quiet_turn_limit: 2,
        ..options("d4=n c3=r f6=b e6=b c5=r f2=b", 0)
    };
    let (mut state, _) = given_with(2, options);
    when(&mut state, 0, mv("c3", "d3"));
    assert_eq!(state.quiet_turns, 1);
    let events = when(&mut state, 1, mv("f6", "f5"));
    assert_eq!(
        events.last(),
        Some(&Event::Drawn {
            reason: DrawReason::QuietTurns
        })
    );
    let result = TopHats::result(&state).unwrap();
    assert_eq!(result.outcome.as_deref(), Some("draw"));
    assert!(result.winners.is_empty());
    assert_eq!(result.scores, vec![2, 3]);
    assert_eq!(result.rounds[0].end, End::QuietTurns);
}

#[test]
fn given_quiet_turns_when_a_hat_is_removed_then_the_count_starts_again() {
    let options = Options {
        quiet_turn_limit: 3,
        ..options("d4=n d3=r f6=b e6=b c5=r f2=b", 0)
    };
    let (mut state, _) = given_with(2, options);
    when(&mut state, 0, mv("c5", "b5"));
    when(&mut state, 1, mv("f2", "e2"));
    assert_eq!(state.quiet_turns, 2);
    when(&mut state, 0, jump("d3", "f1"));
    assert_eq!(state.quiet_turns, 0);
}

#[test]
fn given_skipped_turns_then_they_do_not_count_as_quiet_turns() {
    let options = Options {
        quiet_turn_limit: 5,
        ..options("d4=n c3=r d3=yb e6=b f6=b b6=r", 2)
    };
    let (state, _) = given_with(3, options);
    assert_eq!(state.quiet_turns, 0);
}

#[test]
fn given_rules_version_1_when_the_table_leaves_the_quiet_limit_unset_then_it_is_60_at_any_size() {
    for players in [2, 3] {
        let mut options = serde_json::Map::new();
        TopHats::version_defaults(1, players, &mut options);
        let parsed: Options = serde_json::from_value(options.into()).unwrap();
        assert_eq!(parsed.quiet_turn_limit, 60);
    }
}

#[test]
fn given_rules_version_2_when_the_table_leaves_the_quiet_limit_unset_then_it_is_50_per_player() {
    for (players, limit) in [(2, 100), (3, 150)] {
        let mut options = serde_json::Map::new();
        TopHats::version_defaults(2, players, &mut options);
        let parsed: Options = serde_json::from_value(options.into()).unwrap();
        assert_eq!(parsed.quiet_turn_limit, limit);
    }
    let mut chosen = serde_json::Map::new();
    chosen.insert("quiet_turn_limit".into(), 7.into());
    TopHats::version_defaults(2, 3, &mut chosen);
    assert_eq!(
        chosen["quiet_turn_limit"], 7,
        "a limit the table chose stands"
    );
}
