//! The rules: what may be done, what it causes, and how events change the game.

use super::board::{
    BEYOND, Board, CELLS, CENTRE, Cell, Colour, MAX_HEIGHT, NEIGHBOUR, NEUTRAL, NO_BUILDER, OFF,
    RING1, Stack, X_CELLS, back, cells_of, shift, step,
};
use super::commands::Command;
use super::events::{ColourCount, DrawReason, Event, Pool, SkipReason};
use super::options::{Options, PresetStack, preset_board};
use super::state::{Chain, End, LastMove, MoveKind, Phase, STACKS, State};
use crate::ruleset::{OptionsError, RuleViolation, Seat};

/// Every cell.
const ALL_CELLS: u64 = (1u64 << CELLS) - 1;

/// Hats of their own colour each player keeps.
const KEPT: u8 = 9;

/// The hats seat `seat` builds with at a table of `players`: nine of its own
/// colour, and the six it is given (all six from the opponent with two
/// players, three from each opponent with three).
fn pool(players: usize, seat: usize) -> [u8; 3] {
    let mut p = [0u8; 3];
    for (c, n) in p.iter_mut().enumerate().take(players) {
        *n = if c == seat {
            KEPT
        } else if players == 2 {
            6
        } else {
            3
        };
    }
    p
}

/// The state before the first event.
pub fn new_game(players: usize, options: Options) -> Result<State, OptionsError> {
    if !(2..=3).contains(&players) {
        return Err(OptionsError::new(format!(
            "Top Hats is for 2 or 3 players, not {players}"
        )));
    }
    if options.quiet_turn_limit == 0 {
        return Err(OptionsError::new("quiet_turn_limit must be at least 1"));
    }
    let mut state = State {
        players: u8::try_from(players).unwrap_or(2),
        quiet_turn_limit: options.quiet_turn_limit,
        phase: Phase::Building,
        board: Board::default(),
        pools: [[0; 3]; 3],
        built: [[[0; 3]; STACKS]; 3],
        built_count: [0; 3],
        placed: [0; 3],
        placements: 0,
        to_move: Seat(0),
        chain: None,
        quiet_turns: 0,
        ring1_edge: false,
        removed: [0; 4],
        last_move: None,
        winner: None,
        end: None,
    };
    if let Some(position) = &options.position {
        state.board = preset_board(players, position)?;
        state.phase = Phase::Playing;
        state.to_move = position.to_move;
    } else {
        for s in 0..players {
            state.pools[s] = pool(players, s);
        }
        state.board.put(neutral_cell(), neutral_stack());
    }
    Ok(state)
}

fn neutral_cell() -> Cell {
    Cell::of(CENTRE)
}

fn neutral_stack() -> Stack {
    Stack {
        hats: [NEUTRAL, 0, 0],
        len: 1,
        builder: NO_BUILDER,
    }
}

fn cell(i: u8) -> Cell {
    Cell::of(i)
}

/// The opening events: the pools (or the preset position), then the first
/// turn's checks for a preset.
pub fn start(state: &State) -> Vec<Event> {
    let mut events = Vec::new();
    match state.phase {
        Phase::Building => {
            let players = state.player_count();
            events.push(Event::BuildingStarted {
                pools: (0..players)
                    .map(|s| Pool {
                        seat: crate::ruleset::seat(s),
                        hats: (0..players)
                            .map(|c| ColourCount {
                                colour: Colour::from_code(c as u8),
                                count: state.pools[s][c],
                            })
                            .collect(),
                    })
                    .collect(),
            });
        }
        _ => {
            let stacks = cells_of(state.board.occupied())
                .map(|c| {
                    let st = state.board.at(c.index());
                    PresetStack {
                        cell: c,
                        hats: st.hats().iter().map(|&h| Colour::from_code(h)).collect(),
                        builder: st.builder(),
                    }
                })
                .collect();
            let mut sim = state.clone();
            emit(
                &mut sim,
                &mut events,
                Event::PositionSet {
                    stacks,
                    to_move: state.to_move,
                },
            );
            begin_turn(&mut sim, &mut events);
        }
    }
    events
}

/// The seats the game waits for.
pub fn to_act(state: &State) -> Vec<Seat> {
    match state.phase {
        Phase::Building => (0..state.player_count())
            .filter(|&s| usize::from(state.built_count[s]) < STACKS)
            .map(crate::ruleset::seat)
            .collect(),
        Phase::Placing | Phase::Playing => vec![state.to_move],
        Phase::Over => Vec::new(),
    }
}

/// Whether `seat` may build a stack with `under` now (assuming it is building):
/// the hats are in its pool, and one hat of its colour is left for the top of
/// every stack still to build.
fn build_ok(state: &State, seat: usize, under: [u8; 2]) -> bool {
    let mut need = [0u8; 4];
    need[usize::from(under[0] & 3)] += 1;
    need[usize::from(under[1] & 3)] += 1;
    need[seat] += 1;
    let pool = state.pools[seat];
    let left_to_build = STACKS as u8 - 1 - state.built_count[seat];
    need[3] == 0 && (0..3).all(|c| pool[c] >= need[c]) && pool[seat] - need[seat] >= left_to_build
}

/// Why `seat` may not build a stack with `under` now, if it may not.
fn build_allowed(state: &State, seat: usize, under: [Colour; 2]) -> Result<(), RuleViolation> {
    let mut need = [0u8; 3];
    for c in under {
        let code = usize::from(c.code());
        if code >= state.player_count() {
            return Err(RuleViolation::new(format!(
                "you have no {c:?} hats to build with"
            )));
        }
        need[code] += 1;
    }
    need[seat] += 1;
    let pool = state.pools[seat];
    for c in 0..3 {
        if pool[c] < need[c] {
            return Err(RuleViolation::new(format!(
                "you have only {} {:?} hats left",
                pool[c],
                Colour::from_code(c as u8)
            )));
        }
    }
    let left_to_build = STACKS - 1 - usize::from(state.built_count[seat]);
    if usize::from(pool[seat] - need[seat]) < left_to_build {
        return Err(RuleViolation::new(
            "keep one hat of your colour for the top of every stack still to build",
        ));
    }
    Ok(())
}

/// What a seat may do at the start of its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnOptions {
    /// Some stack of the seat can jump an opposing stack: the first action must do so.
    pub capture: bool,
    /// Otherwise, the stacks allowed to move or jump (those in the edge zone
    /// when any of them can, else every stack that can).
    pub movers: u64,
}

impl TurnOptions {
    /// Whether the seat can do anything at all.
    pub fn any(self) -> bool {
        self.capture || self.movers != 0
    }
}

/// Cells holding a stack topped by another seat's colour.
fn opposing(board: &Board, seat: Seat) -> u64 {
    board.occupied() & !board.tops(seat.0) & !board.tops(NEUTRAL)
}

/// What `seat` may do at the start of a turn.
pub fn turn_options(state: &State, seat: Seat) -> TurnOptions {
    let board = &state.board;
    let own = board.tops(seat.0);
    let opp = opposing(board, seat);
    let occ = board.occupied();
    let empty = ALL_CELLS & !occ;
    let land = empty & !state.edge();
    let mut movers = 0u64;
    for d in 0..8 {
        if shift(shift(own, d) & opp, d) & empty != 0 {
            return TurnOptions {
                capture: true,
                movers: 0,
            };
        }
        let b = back(d);
        let next_to_land = shift(land, b);
        movers |= next_to_land | shift(next_to_land & occ, b);
    }
    movers &= own;
    let edge_movers = movers & state.edge();
    TurnOptions {
        capture: false,
        movers: if edge_movers != 0 {
            edge_movers
        } else {
            movers
        },
    }
}

/// The cell `k` steps back from `to` in direction `d`.
fn from_cell(to: u32, d: usize, k: i32) -> Cell {
    Cell::of(u8::try_from(i64::from(to) - i64::from(step(d) * k)).unwrap_or(0))
}

/// Whether the stack on `from` can jump again in the chain `chain`.
fn chain_jumps(state: &State, seat: Seat, chain: &Chain, mut push: impl FnMut(Cell)) {
    let board = &state.board;
    let opp = opposing(board, seat);
    let occ = board.occupied();
    let edge = state.edge();
    let i = chain.cell.index();
    for d in 0..8 {
        let b = BEYOND[i][d];
        if b == OFF {
            continue;
        }
        let n = NEIGHBOUR[i][d];
        let nb = 1u64 << n;
        let bb = 1u64 << b;
        if occ & nb != 0
            && chain.jumped & nb == 0
            && occ & bb == 0
            && (edge & bb == 0 || opp & nb != 0)
        {
            push(cell(b));
        }
    }
}

fn has_chain_jump(state: &State, seat: Seat, chain: &Chain) -> bool {
    let mut any = false;
    chain_jumps(state, seat, chain, |_| any = true);
    any
}

/// The exact list of commands `seat` may send.
pub fn legal_commands(state: &State, seat: Seat) -> Vec<Command> {
    let s = seat.index();
    if s >= state.player_count() {
        return Vec::new();
    }
    match state.phase {
        Phase::Over => Vec::new(),
        Phase::Building => {
            if usize::from(state.built_count[s]) >= STACKS {
                return Vec::new();
            }
            let mut out = Vec::with_capacity(9);
            for a in 0..state.players {
                for b in 0..state.players {
                    if build_ok(state, s, [a, b]) {
                        out.push(Command::BuildStack {
                            under: [Colour::from_code(a), Colour::from_code(b)],
                        });
                    }
                }
            }
            out
        }
        Phase::Placing => {
            if seat != state.to_move {
                return Vec::new();
            }
            let free = X_CELLS & !state.board.occupied();
            let mut out = Vec::with_capacity(free.count_ones() as usize * STACKS);
            for stack in 0..STACKS as u8 {
                if state.placed[s] & (1 << stack) == 0 {
                    for c in cells_of(free) {
                        out.push(Command::Place { stack, cell: c });
                    }
                }
            }
            out
        }
        Phase::Playing => {
            if seat != state.to_move {
                return Vec::new();
            }
            let mut out = Vec::with_capacity(16);
            if let Some(chain) = &state.chain {
                chain_jumps(state, seat, chain, |to| {
                    out.push(Command::Jump {
                        from: chain.cell,
                        to,
                    })
                });
                out.push(Command::EndTurn {});
                return out;
            }
            let opts = turn_options(state, seat);
            let board = &state.board;
            let occ = board.occupied();
            let empty = ALL_CELLS & !occ;
            if opts.capture {
                let opp = opposing(board, seat);
                let own = board.tops(seat.0);
                for d in 0..8 {
                    for to in bits(shift(shift(own, d) & opp, d) & empty) {
                        out.push(Command::Jump {
                            from: from_cell(to, d, 2),
                            to: cell(to as u8),
                        });
                    }
                }
                return out;
            }
            let land = empty & !state.edge();
            for d in 0..8 {
                let stepped = shift(opts.movers, d);
                for to in bits(stepped & land) {
                    out.push(Command::Move {
                        from: from_cell(to, d, 1),
                        to: cell(to as u8),
                    });
                }
                for to in bits(shift(stepped & occ, d) & land) {
                    out.push(Command::Jump {
                        from: from_cell(to, d, 2),
                        to: cell(to as u8),
                    });
                }
            }
            out
        }
    }
}

/// The indices of the cells of a cell set.
fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros();
        mask &= mask - 1;
        Some(i)
    })
}

fn refuse<T>(message: impl Into<String>) -> Result<T, RuleViolation> {
    Err(RuleViolation::new(message))
}

/// Validates `command` from `seat` and returns the events it causes.
pub fn decide(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, RuleViolation> {
    let s = seat.index();
    if s >= state.player_count() {
        return refuse(format!("{seat} is not at this table"));
    }
    match state.phase {
        Phase::Over => refuse("the game is over"),
        Phase::Building => {
            let Command::BuildStack { under } = command else {
                return refuse("everyone is building stacks: send build_stack");
            };
            if usize::from(state.built_count[s]) >= STACKS {
                return refuse("you have built all five stacks");
            }
            build_allowed(state, s, *under)?;
            Ok(vec![Event::StackBuilt {
                seat,
                stack: state.built_count[s],
                under: *under,
            }])
        }
        Phase::Placing => {
            if seat != state.to_move {
                return refuse(format!("it is {}'s turn to place", state.to_move));
            }
            let Command::Place { stack, cell: to } = command else {
                return refuse("stacks are being placed: send place");
            };
            if usize::from(*stack) >= STACKS || state.placed[s] & (1 << stack) != 0 {
                return refuse(format!("you have no stack {stack} left to place"));
            }
            if X_CELLS & to.bit() == 0 {
                return refuse(format!("{to} is not an X cell (2nd or 3rd row)"));
            }
            if state.board.get(*to).is_some() {
                return refuse("that cell is taken");
            }
            let mut events = vec![Event::StackPlaced {
                seat,
                stack: *stack,
                cell: *to,
            }];
            let mut sim = state.clone();
            evolve(&mut sim, &events[0]);
            if sim.phase == Phase::Playing {
                begin_turn(&mut sim, &mut events);
            }
            Ok(events)
        }
        Phase::Playing => {
            if seat != state.to_move {
                return refuse("it is not your turn");
            }
            match command {
                Command::Move { from, to } => decide_move(state, seat, *from, *to),
                Command::Jump { from, to } => decide_jump(state, seat, *from, *to),
                Command::EndTurn {} => {
                    if state.chain.is_none() {
                        return refuse("end_turn only stops a chain of jumps");
                    }
                    let mut events = Vec::with_capacity(2);
                    let mut sim = state.clone();
                    emit(
                        &mut sim,
                        &mut events,
                        Event::ChainEnded {
                            seat,
                            voluntary: true,
                        },
                    );
                    begin_turn(&mut sim, &mut events);
                    Ok(events)
                }
                _ => refuse("the stacks are in play: move, jump or end_turn"),
            }
        }
    }
}

fn own_stack(state: &State, seat: Seat, from: Cell) -> Result<(), RuleViolation> {
    match state.board.get(from) {
        Some(st) if st.top() == seat.0 => Ok(()),
        Some(_) => refuse("that stack is not yours"),
        None => refuse("there is no stack there"),
    }
}

fn decide_move(
    state: &State,
    seat: Seat,
    from: Cell,
    to: Cell,
) -> Result<Vec<Event>, RuleViolation> {
    if state.chain.is_some() {
        return refuse("during a chain only the jumping stack may jump again, or end_turn");
    }
    own_stack(state, seat, from)?;
    if !NEIGHBOUR[from.index()].contains(&(to.index() as u8)) {
        return refuse("a move goes to a cell next to the stack");
    }
    if state.board.get(to).is_some() {
        return refuse("that cell is taken");
    }
    if state.edge() & to.bit() != 0 {
        return refuse("that cell is in the edge zone: only a capture lands there");
    }
    let opts = turn_options(state, seat);
    if opts.capture {
        return refuse("you must jump an opposing stack");
    }
    if opts.movers & from.bit() == 0 {
        return refuse("a stack in the edge zone must leave it first");
    }
    let mut events = Vec::with_capacity(2);
    let mut sim = state.clone();
    emit(&mut sim, &mut events, Event::Moved { seat, from, to });
    begin_turn(&mut sim, &mut events);
    Ok(events)
}

fn decide_jump(
    state: &State,
    seat: Seat,
    from: Cell,
    to: Cell,
) -> Result<Vec<Event>, RuleViolation> {
    let i = from.index();
    let Some(d) = (0..8).find(|&d| BEYOND[i][d] as usize == to.index()) else {
        return refuse("a jump lands two cells away in a straight line");
    };
    let over = cell(NEIGHBOUR[i][d]);
    let Some(jumped) = state.board.get(over) else {
        return refuse("there is no stack to jump over");
    };
    if state.board.get(to).is_some() {
        return refuse("that cell is taken");
    }
    let capture = opposing(&state.board, seat) & over.bit() != 0;
    let into_edge = state.edge() & to.bit() != 0;
    if let Some(chain) = &state.chain {
        if from != chain.cell {
            return refuse("only the jumping stack may go on jumping");
        }
        if chain.jumped & over.bit() != 0 {
            return refuse("that stack was already jumped this turn");
        }
        if into_edge && !capture {
            return refuse("that cell is in the edge zone: only a capture lands there");
        }
    } else {
        own_stack(state, seat, from)?;
        if !capture {
            if into_edge {
                return refuse("that cell is in the edge zone: only a capture lands there");
            }
            let opts = turn_options(state, seat);
            if opts.capture {
                return refuse("you must jump an opposing stack");
            }
            if opts.movers & from.bit() == 0 {
                return refuse("a stack in the edge zone must leave it first");
            }
        }
    }
    let (removed, revealed) = if capture {
        let h = jumped.hats();
        let revealed = (h.len() > 1).then(|| Colour::from_code(h[h.len() - 2]));
        (Some(Colour::from_code(jumped.top())), revealed)
    } else {
        (None, None)
    };
    let mut events = Vec::with_capacity(3);
    let mut sim = state.clone();
    emit(
        &mut sim,
        &mut events,
        Event::Jumped {
            seat,
            from,
            over,
            to,
            removed,
            revealed,
        },
    );
    if removed.is_some() {
        let mut left = (0..state.players).filter(|&c| sim.board.tops(c) != 0);
        if let (Some(only), None) = (left.next(), left.next()) {
            emit(&mut sim, &mut events, Event::Won { seat: Seat(only) });
            return Ok(events);
        }
    }
    let chain = sim.chain.unwrap_or(Chain {
        cell: to,
        jumped: 0,
        removed: false,
    });
    if !has_chain_jump(&sim, seat, &chain) {
        emit(
            &mut sim,
            &mut events,
            Event::ChainEnded {
                seat,
                voluntary: false,
            },
        );
        begin_turn(&mut sim, &mut events);
    }
    Ok(events)
}

fn emit(sim: &mut State, events: &mut Vec<Event>, event: Event) {
    evolve(sim, &event);
    events.push(event);
}

/// The checks at the start of every play turn, in order: the 2nd row joins the
/// edge zone when 5 or fewer stacks are left; a seat with no colour showing or
/// nothing to do is skipped; nobody able to act, or too many quiet turns, is a draw.
fn begin_turn(sim: &mut State, events: &mut Vec<Event>) {
    let mut skips = 0;
    loop {
        if !sim.ring1_edge && sim.board.count() <= 5 {
            emit(
                sim,
                events,
                Event::EdgeZoneGrew {
                    cells: cells_of(RING1).collect(),
                },
            );
        }
        let seat = sim.to_move;
        let reason = if sim.board.tops(seat.0) == 0 {
            Some(SkipReason::NoColour)
        } else if !turn_options(sim, seat).any() {
            Some(SkipReason::NoAction)
        } else {
            None
        };
        if let Some(reason) = reason {
            emit(sim, events, Event::Skipped { seat, reason });
            skips += 1;
            if skips >= sim.player_count() {
                emit(
                    sim,
                    events,
                    Event::Drawn {
                        reason: DrawReason::NoAction,
                    },
                );
                return;
            }
            continue;
        }
        if sim.quiet_turns >= sim.quiet_turn_limit {
            emit(
                sim,
                events,
                Event::Drawn {
                    reason: DrawReason::QuietTurns,
                },
            );
        }
        return;
    }
}

/// The stack a preset entry describes.
pub fn preset_stack(p: &PresetStack) -> Stack {
    let mut st = Stack::default();
    for (i, h) in p.hats.iter().take(MAX_HEIGHT).enumerate() {
        st.hats[i] = h.code();
    }
    st.len = p.hats.len().min(MAX_HEIGHT) as u8;
    st.builder = p.builder.map_or(NO_BUILDER, |b| b.0);
    st
}

fn end_turn(state: &mut State, removed: bool) {
    state.quiet_turns = if removed { 0 } else { state.quiet_turns + 1 };
    state.chain = None;
    state.to_move = state.next(state.to_move);
}

/// Applies one event.
pub fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::BuildingStarted { pools } => {
            for p in pools {
                for h in &p.hats {
                    if let Some(slot) = state
                        .pools
                        .get_mut(p.seat.index())
                        .and_then(|x| x.get_mut(usize::from(h.colour.code())))
                    {
                        *slot = h.count;
                    }
                }
            }
            state.phase = Phase::Building;
        }
        Event::PositionSet { stacks, to_move } => {
            state.board = Board::default();
            for p in stacks {
                state.board.put(p.cell, preset_stack(p));
            }
            state.to_move = *to_move;
            state.phase = Phase::Playing;
        }
        Event::StackBuilt { seat, stack, under } => {
            let s = seat.index() % 3;
            let i = usize::from(*stack) % STACKS;
            let hats = [under[0].code(), under[1].code(), seat.0];
            for &h in &hats {
                if let Some(n) = state.pools[s].get_mut(usize::from(h)) {
                    *n = n.saturating_sub(1);
                }
            }
            state.built[s][i] = hats;
            state.built_count[s] += 1;
            if (0..state.player_count()).all(|x| usize::from(state.built_count[x]) >= STACKS) {
                state.phase = Phase::Placing;
                state.to_move = Seat(0);
            }
        }
        Event::StackPlaced { seat, stack, cell } => {
            let s = seat.index() % 3;
            let i = usize::from(*stack) % STACKS;
            state.board.put(
                *cell,
                Stack {
                    hats: state.built[s][i],
                    len: 3,
                    builder: seat.0,
                },
            );
            state.placed[s] |= 1 << i;
            state.placements += 1;
            state.last_move = Some(LastMove {
                seat: *seat,
                kind: MoveKind::Place,
                from: None,
                to: *cell,
                over: None,
                removed: None,
            });
            if usize::from(state.placements) >= STACKS * state.player_count() {
                state.phase = Phase::Playing;
                state.to_move = Seat(0);
            } else {
                state.to_move = state.next(*seat);
            }
        }
        Event::Moved { seat, from, to } => {
            state.board.shift(*from, *to);
            state.last_move = Some(LastMove {
                seat: *seat,
                kind: MoveKind::Move,
                from: Some(*from),
                to: *to,
                over: None,
                removed: None,
            });
            end_turn(state, false);
        }
        Event::Jumped {
            seat,
            from,
            over,
            to,
            removed,
            ..
        } => {
            state.board.shift(*from, *to);
            if let Some(c) = removed {
                state.board.pop(*over);
                state.removed[usize::from(c.code())] += 1;
            }
            let mut chain = state.chain.unwrap_or(Chain {
                cell: *to,
                jumped: 0,
                removed: false,
            });
            chain.cell = *to;
            chain.jumped |= over.bit();
            chain.removed |= removed.is_some();
            state.chain = Some(chain);
            state.last_move = Some(LastMove {
                seat: *seat,
                kind: MoveKind::Jump,
                from: Some(*from),
                to: *to,
                over: Some(*over),
                removed: *removed,
            });
        }
        Event::ChainEnded { .. } => {
            let removed = state.chain.is_some_and(|c| c.removed);
            end_turn(state, removed);
        }
        Event::EdgeZoneGrew { .. } => state.ring1_edge = true,
        Event::Skipped { seat, .. } => state.to_move = state.next(*seat),
        Event::Won { seat } => {
            state.phase = Phase::Over;
            state.winner = Some(*seat);
            state.end = Some(End::LastColour);
        }
        Event::Drawn { reason } => {
            state.phase = Phase::Over;
            state.end = Some(match reason {
                DrawReason::QuietTurns => End::QuietTurns,
                DrawReason::NoAction => End::NoAction,
            });
        }
    }
}

/// A superset of the commands a seat could try now: every build pair (the
/// neutral colour included), every stack number on every X cell and a few
/// others, and from every stack of the seat to move (and a few other cells) a
/// move and a jump in every direction.
pub fn candidates(state: &State) -> Vec<Command> {
    let mut out = Vec::with_capacity(160);
    out.push(Command::EndTurn {});
    let c3 = Cell::of(2 + 7 * 2);
    match state.phase {
        Phase::Building | Phase::Over => {
            for a in Colour::ALL {
                for b in Colour::ALL {
                    out.push(Command::BuildStack { under: [a, b] });
                }
            }
            out.push(Command::Place { stack: 0, cell: c3 });
            out.push(Command::Move {
                from: c3,
                to: Cell::of(3 + 7 * 2),
            });
        }
        Phase::Placing => {
            // Every stack number on every free X cell, and a few that cannot be:
            // a taken X cell, the corner a1, the centre d4, stack 5.
            let s = state.to_move.index();
            let free = X_CELLS & !state.board.occupied();
            let taken = X_CELLS & state.board.occupied();
            for stack in 0..STACKS as u8 {
                let placed = state.placed[s] & (1 << stack) != 0;
                let cells = if placed {
                    free & free.wrapping_neg()
                } else {
                    free
                };
                for c in cells_of(cells | (taken & taken.wrapping_neg())) {
                    out.push(Command::Place { stack, cell: c });
                }
            }
            for c in cells_of(1 | 1 << CENTRE) {
                out.push(Command::Place { stack: 0, cell: c });
            }
            out.push(Command::Place {
                stack: STACKS as u8,
                cell: c3,
            });
            out.push(Command::BuildStack {
                under: [Colour::Red, Colour::Blue],
            });
        }
        Phase::Playing => {
            // Every stack of the seat to move, the chain's stack, one stack of
            // someone else and one empty cell.
            let occ = state.board.occupied();
            let own = state.board.tops(state.to_move.0);
            let other = occ & !own;
            let mut from = own | (other & other.wrapping_neg()) | (!occ & 1);
            if let Some(chain) = &state.chain {
                from |= chain.cell.bit();
            }
            for c in cells_of(from) {
                let i = c.index();
                for d in 0..8 {
                    if NEIGHBOUR[i][d] != OFF {
                        out.push(Command::Move {
                            from: c,
                            to: cell(NEIGHBOUR[i][d]),
                        });
                    }
                    if BEYOND[i][d] != OFF {
                        out.push(Command::Jump {
                            from: c,
                            to: cell(BEYOND[i][d]),
                        });
                    }
                }
                out.push(Command::Jump { from: c, to: c });
            }
            out.push(Command::Place { stack: 0, cell: c3 });
        }
    }
    out
}
