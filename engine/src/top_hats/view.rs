//! What a viewer sees: a board picture clients can draw without the rules.

use serde::Serialize;

use super::board::{Cell, Colour, X_CELLS, cells_of};
use super::events::ColourCount;
use super::rules;
use super::state::{End, LastMove, MoveKind, Phase, STACKS, State};
use crate::ruleset::{Seat, Viewer, seat};

/// One occupied cell as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsStackView))]
pub struct StackView {
    /// The cell, `a1`..`g7`.
    pub cell: Cell,
    /// How many hats stand there.
    pub height: u8,
    /// The colour on top.
    pub top: Colour,
    /// The seat whose colour is on top (none for the neutral hat).
    pub owner: Option<Seat>,
    /// The seat that built the stack (it sees under the top).
    pub builder: Option<Seat>,
    /// Bottom → top; a hat the viewer may not see is `null`.
    pub hats: Vec<Option<Colour>>,
}

/// The last action on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsLastMoveView))]
pub struct LastMoveView {
    pub seat: Seat,
    /// `place`, `move` or `jump`.
    pub kind: MoveKind,
    pub from: Option<Cell>,
    pub to: Cell,
    /// The stack jumped over.
    pub over: Option<Cell>,
    /// The hat the jump removed.
    pub removed: Option<Colour>,
}

/// A chain of jumps under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsChainView))]
pub struct ChainView {
    /// Where the jumping stack stands.
    pub cell: Cell,
    /// Cells already jumped over this turn.
    pub jumped: Vec<Cell>,
}

/// A seat's secret building material, for that seat (and the audit).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsPrivateView))]
pub struct PrivateView {
    pub seat: Seat,
    /// Hats left to build with.
    pub pool: Vec<ColourCount>,
    /// The stacks built, in build order.
    pub stacks: Vec<BuiltStackView>,
}

/// One built stack, as its builder sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsBuiltStackView))]
pub struct BuiltStackView {
    /// Its number (0–4), used by `place`.
    pub stack: u8,
    /// Bottom → top.
    pub hats: [Colour; 3],
    /// Whether it is on the board.
    pub placed: bool,
}

/// Everything a viewer sees of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsView))]
pub struct View {
    pub players: u8,
    /// `building`, `placing`, `playing` or `over`.
    pub phase: Phase,
    /// Each seat's colour.
    pub colours: Vec<Colour>,
    /// The seats the game waits for.
    pub to_act: Vec<Seat>,
    /// One entry per occupied cell.
    pub board: Vec<StackView>,
    /// The cells of the edge zone.
    pub edge_zone: Vec<Cell>,
    /// Empty cells where a stack may be placed (while placing).
    pub place_cells: Vec<Cell>,
    pub last_move: Option<LastMoveView>,
    pub chain: Option<ChainView>,
    /// Hats removed from the board, per seat colour.
    pub removed: Vec<ColourCount>,
    /// Stacks built, per seat.
    pub stacks_built: Vec<u8>,
    /// Stacks placed, per seat.
    pub stacks_placed: Vec<u8>,
    pub quiet_turns: u32,
    pub quiet_turn_limit: u32,
    /// What this viewer may see of the seats' building material.
    pub private: Vec<PrivateView>,
    pub winner: Option<Seat>,
    /// How the game ended.
    pub end: Option<End>,
}

fn last_move(m: &LastMove) -> LastMoveView {
    LastMoveView {
        seat: m.seat,
        kind: m.kind,
        from: m.from,
        to: m.to,
        over: m.over,
        removed: m.removed,
    }
}

/// What `viewer` sees of `state`.
#[must_use]
pub fn view(state: &State, viewer: Viewer) -> View {
    let players = state.player_count();
    let board = cells_of(state.board.occupied())
        .map(|c| {
            let st = state.board.at(c.index());
            let sees = st.builder().is_some_and(|b| viewer.sees_seat(b)) || viewer.is_auditor();
            let top = st.hats().len() - 1;
            StackView {
                cell: c,
                height: st.len,
                top: Colour::from_code(st.top()),
                owner: Colour::from_code(st.top()).seat(),
                builder: st.builder(),
                hats: st
                    .hats()
                    .iter()
                    .enumerate()
                    .map(|(i, &h)| (sees || i == top).then_some(Colour::from_code(h)))
                    .collect(),
            }
        })
        .collect();
    let private = (0..players)
        .map(seat)
        .filter(|&s| {
            viewer.sees_seat(s) && state.phase != Phase::Playing && state.phase != Phase::Over
        })
        .map(|s| {
            let i = s.index();
            PrivateView {
                seat: s,
                pool: (0..players)
                    .map(|c| ColourCount {
                        colour: Colour::from_code(c as u8),
                        count: state.pools[i][c],
                    })
                    .collect(),
                stacks: (0..usize::from(state.built_count[i]).min(STACKS))
                    .map(|k| BuiltStackView {
                        stack: k as u8,
                        hats: state.built[i][k].map(Colour::from_code),
                        placed: state.placed[i] & (1 << k) != 0,
                    })
                    .collect(),
            }
        })
        .collect();
    View {
        players: state.players,
        phase: state.phase,
        colours: (0..players).map(|s| Colour::of_seat(seat(s))).collect(),
        to_act: rules::to_act(state),
        board,
        edge_zone: cells_of(state.edge()).collect(),
        place_cells: if state.phase == Phase::Placing {
            cells_of(X_CELLS & !state.board.occupied()).collect()
        } else {
            Vec::new()
        },
        last_move: state.last_move.as_ref().map(last_move),
        chain: state
            .chain
            .filter(|_| state.phase == Phase::Playing)
            .map(|c| ChainView {
                cell: c.cell,
                jumped: cells_of(c.jumped).collect(),
            }),
        removed: (0..players)
            .map(|c| ColourCount {
                colour: Colour::from_code(c as u8),
                count: state.removed[c],
            })
            .collect(),
        stacks_built: state.built_count[..players].to_vec(),
        stacks_placed: state.placed[..players]
            .iter()
            .map(|p| p.count_ones() as u8)
            .collect(),
        quiet_turns: state.quiet_turns,
        quiet_turn_limit: state.quiet_turn_limit,
        private,
        winner: state.winner,
        end: state.end,
    }
}
