//! Nobody sees under a stack they did not build, in views or events: over
//! random games, changing every hat a viewer may not see changes nothing in
//! what that viewer is shown.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use super::*;
use crate::random::below;
use crate::ruleset::{Viewer, seat};
use crate::top_hats::board::{Stack, cells_of};

fn viewers(players: usize) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = (0..players).map(|s| Viewer::Seat(seat(s))).collect();
    v.push(Viewer::Spectator);
    v
}

fn other(code: u8, players: u8) -> u8 {
    (code + 1) % players
}

/// `state` with every hat `viewer` may not see changed.
fn scrambled(state: &State, viewer: Viewer) -> State {
    let mut s = state.clone();
    let players = state.players;
    for cell in cells_of(state.board.occupied()) {
        let st = *state.board.get(cell).unwrap();
        if st.builder().is_some_and(|b| viewer.sees_seat(b)) {
            continue;
        }
        let mut changed: Stack = st;
        for i in 0..usize::from(st.len).saturating_sub(1) {
            changed.hats[i] = other(st.hats[i], players);
        }
        s.board.put(cell, changed);
    }
    for k in 0..usize::from(players) {
        if !viewer.sees_seat(seat(k)) {
            s.pools[k] = [7, 7, 7];
            for b in &mut s.built[k] {
                b[0] = other(b[0], players);
                b[1] = other(b[1], players);
            }
        }
    }
    s
}

fn scrambled_event(event: &Event, viewer: Viewer, players: u8) -> Event {
    let flip = |c: Colour| Colour::from_code(other(c.code(), players));
    match event {
        Event::StackBuilt { seat, stack, under } if !viewer.sees_seat(*seat) => Event::StackBuilt {
            seat: *seat,
            stack: *stack,
            under: under.map(flip),
        },
        Event::PositionSet { stacks, to_move } => Event::PositionSet {
            stacks: stacks
                .iter()
                .map(|p| {
                    let mut p = p.clone();
                    if !p.builder.is_some_and(|b| viewer.sees_seat(b)) {
                        let n = p.hats.len();
                        for h in &mut p.hats[..n - 1] {
                            *h = flip(*h);
                        }
                    }
                    p
                })
                .collect(),
            to_move: *to_move,
        },
        other => other.clone(),
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

fn check_state(state: &State) {
    for viewer in viewers(state.player_count()) {
        let seen = json(&TopHats::view(state, viewer));
        assert_eq!(
            seen,
            json(&TopHats::view(&scrambled(state, viewer), viewer)),
            "{viewer:?} sees a hidden hat"
        );
        // Structurally: hidden hats are null.
        let view = TopHats::view(state, viewer);
        for entry in &view.board {
            let sees = entry.builder.is_some_and(|b| viewer.sees_seat(b));
            let n = entry.hats.len();
            assert!(entry.hats[n - 1].is_some());
            assert!(
                sees || entry.hats[..n - 1].iter().all(Option::is_none),
                "{viewer:?}: {entry:?}"
            );
        }
        assert!(view.private.iter().all(|p| viewer.sees_seat(p.seat)));
    }
    let audit = TopHats::view(state, Viewer::Auditor);
    assert!(
        audit
            .board
            .iter()
            .all(|e| e.hats.iter().all(Option::is_some))
    );
}

fn check_event(event: &Event, players: u8) {
    for viewer in viewers(usize::from(players)) {
        assert_eq!(
            json(&TopHats::redact(event, viewer)),
            json(&TopHats::redact(
                &scrambled_event(event, viewer, players),
                viewer
            )),
            "{viewer:?} sees a hidden hat in {event:?}"
        );
    }
}

fn random_game(players: usize, options: Options, seed: u64) {
    let mut chooser = ChaCha8Rng::seed_from_u64(seed);
    let mut state = TopHats::new_game(players, options).unwrap();
    let opening = TopHats::start(&state, &rng());
    for e in &opening {
        check_event(e, state.players);
    }
    apply_all::<TopHats>(&mut state, &opening);
    while !TopHats::to_act(&state).is_empty() {
        check_state(&state);
        let to_act = TopHats::to_act(&state);
        let s = to_act[below(&mut chooser, to_act.len())];
        let legal = TopHats::legal_commands(&state, s);
        let command = &legal[below(&mut chooser, legal.len())];
        let events = TopHats::decide(&state, s, command, &rng()).unwrap();
        for e in &events {
            check_event(e, state.players);
        }
        apply_all::<TopHats>(&mut state, &events);
    }
    check_state(&state);
}

#[test]
fn random_games_never_show_a_seat_what_is_under_stacks_it_did_not_build() {
    for seed in 0..150 {
        random_game(2, Options::default(), seed);
        random_game(3, Options::default(), seed);
    }
}

#[test]
fn preset_positions_hide_what_is_under_the_tops_too() {
    for seed in 0..50 {
        random_game(
            3,
            options("d4=n b2=bbr c3=yrb d3=brr@1 e5=rby f6=b c6=r", 0),
            seed,
        );
    }
}

#[test]
fn given_a_stack_then_its_builder_sees_under_it_and_others_see_its_top_and_height() {
    let (state, _) = given(2, "d4=n c3=bbr e5=rrb", 0);
    let view = serde_json::to_value(TopHats::view(&state, Viewer::Seat(Seat(1)))).unwrap();
    assert_eq!(
        view["board"],
        serde_json::json!([
            {"cell": "c3", "height": 3, "top": "red", "owner": 0, "builder": 0, "hats": [null, null, "red"]},
            {"cell": "d4", "height": 1, "top": "neutral", "owner": null, "builder": null, "hats": ["neutral"]},
            {"cell": "e5", "height": 3, "top": "blue", "owner": 1, "builder": 1, "hats": ["red", "red", "blue"]},
        ])
    );
    assert_eq!(
        view["edge_zone"].as_array().unwrap().len(),
        40,
        "5 stacks: the 2nd row is edge zone"
    );
    assert_eq!(view["last_move"], serde_json::Value::Null);
}

#[test]
fn given_a_capture_then_the_view_shows_the_last_move_and_the_revealed_hat_to_all() {
    let (mut state, _) = given(2, "d4=n c3=bbr d3=rrb f6=b e6=b b6=r", 0);
    when(&mut state, 0, jump("c3", "e3"));
    let view = serde_json::to_value(TopHats::view(&state, Viewer::Spectator)).unwrap();
    assert_eq!(
        view["last_move"],
        serde_json::json!({"seat": 0, "kind": "jump", "from": "c3", "to": "e3", "over": "d3", "removed": "blue"})
    );
    let d3 = view["board"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["cell"] == "d3")
        .unwrap()
        .clone();
    assert_eq!(
        d3,
        serde_json::json!({"cell": "d3", "height": 2, "top": "red", "owner": 0, "builder": 1, "hats": [null, "red"]})
    );
    assert_eq!(
        view["chain"],
        serde_json::json!({"cell": "e3", "jumped": ["d3"]})
    );
    assert_eq!(
        view["removed"],
        serde_json::json!([{"colour": "red", "count": 0}, {"colour": "blue", "count": 1}])
    );
    assert_eq!(view["edge_zone"].as_array().unwrap().len(), 24);
    assert_eq!(view["to_act"], serde_json::json!([0]));
}
