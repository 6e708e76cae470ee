//! Tests of Top Hats: given a position (or a fresh game), when a command is
//! sent, then these events, this violation or this view.

mod bot;
mod end;
mod play;
mod property;
mod redaction;
mod setup;

use super::board::{Cell, Colour};
use super::{Command, Event, Options, Position, PresetStack, State, TopHats};
use crate::random::Randomness;
use crate::ruleset::{Ruleset, Seat, apply_all};

pub(super) fn rng() -> Randomness {
    Randomness::from_seed("top-hats tests")
}

pub(super) fn c(name: &str) -> Cell {
    Cell::parse(name).unwrap()
}

fn colour(ch: char) -> Colour {
    match ch {
        'r' => Colour::Red,
        'b' => Colour::Blue,
        'y' => Colour::Yellow,
        'n' => Colour::Neutral,
        _ => panic!("no colour {ch}"),
    }
}

/// A position from a compact picture: `"d4=n c3=bbr e5=rb@0"` — cell, hats
/// bottom → top (r, b, y, n), optional `@builder`.
pub(super) fn position(spec: &str, to_move: u8) -> Position {
    let stacks = spec
        .split_whitespace()
        .map(|entry| {
            let (cell, rest) = entry.split_once('=').unwrap();
            let (hats, builder) = match rest.split_once('@') {
                Some((h, b)) => (h, Some(Seat(b.parse().unwrap()))),
                None => (rest, None),
            };
            PresetStack {
                cell: c(cell),
                hats: hats.chars().map(colour).collect(),
                builder,
            }
        })
        .collect();
    Position {
        stacks,
        to_move: Seat(to_move),
    }
}

pub(super) fn options(spec: &str, to_move: u8) -> Options {
    Options {
        position: Some(position(spec, to_move)),
        ..Options::default()
    }
}

/// Given this position with `players` seats, after the opening events.
pub(super) fn given(players: usize, spec: &str, to_move: u8) -> (State, Vec<Event>) {
    given_with(players, options(spec, to_move))
}

pub(super) fn given_with(players: usize, options: Options) -> (State, Vec<Event>) {
    let mut state = TopHats::new_game(players, options).unwrap();
    let events = TopHats::start(&state, &rng());
    apply_all::<TopHats>(&mut state, &events);
    (state, events)
}

/// When `seat` sends `command`: the events (applied to `state`).
pub(super) fn when(state: &mut State, seat: u8, command: Command) -> Vec<Event> {
    let events = TopHats::decide(state, Seat(seat), &command, &rng())
        .unwrap_or_else(|e| panic!("{command:?} refused: {e}"));
    assert!(
        TopHats::legal_commands(state, Seat(seat)).contains(&command),
        "{command:?} accepted but not listed"
    );
    apply_all::<TopHats>(state, &events);
    events
}

/// When `seat` sends `command`, then it is refused: the reason.
pub(super) fn refused(state: &State, seat: u8, command: Command) -> String {
    assert!(
        !TopHats::legal_commands(state, Seat(seat)).contains(&command),
        "{command:?} listed"
    );
    match TopHats::decide(state, Seat(seat), &command, &rng()) {
        Ok(events) => panic!("{command:?} accepted: {events:?}"),
        Err(e) => e.0,
    }
}

pub(super) fn mv(from: &str, to: &str) -> Command {
    Command::Move {
        from: c(from),
        to: c(to),
    }
}

pub(super) fn jump(from: &str, to: &str) -> Command {
    Command::Jump {
        from: c(from),
        to: c(to),
    }
}

pub(super) fn end_turn() -> Command {
    Command::EndTurn {}
}

pub(super) fn legal(state: &State, seat: u8) -> Vec<Command> {
    TopHats::legal_commands(state, Seat(seat))
}

/// The hats on `cell`, bottom → top, as letters.
pub(super) fn hats_on(state: &State, cell: &str) -> String {
    state.board.get(c(cell)).map_or_else(String::new, |s| {
        s.hats()
            .iter()
            .map(|&h| ['r', 'b', 'y', 'n'][usize::from(h)])
            .collect()
    })
}
