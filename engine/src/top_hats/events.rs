//! The facts of a game, and what each viewer may see of them.

use serde::{Deserialize, Serialize};

use super::board::{Cell, Colour};
use super::options::PresetStack;
use crate::ruleset::{Seat, Viewer};

/// Why a seat's turn was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsSkipReason))]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// No stack shows the seat's colour.
    NoColour,
    /// The seat has stacks but none can move or jump.
    NoAction,
}

/// Why the game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsDrawReason))]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    /// Too many played turns in a row without a removed hat.
    QuietTurns,
    /// Nobody could act.
    NoAction,
}

/// The hats a seat starts building with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsPool))]
pub struct Pool {
    pub seat: Seat,
    /// Hats per colour.
    pub hats: Vec<ColourCount>,
}

/// A number of hats of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsColourCount))]
pub struct ColourCount {
    pub colour: Colour,
    pub count: u8,
}

/// A fact of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsEvent))]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum Event {
    /// The hats are shared out (public: the rules fix them) and building begins.
    BuildingStarted { pools: Vec<Pool> },
    /// Play starts from a hand-built position.
    PositionSet {
        stacks: Vec<PresetStack>,
        to_move: Seat,
    },
    /// A seat built its stack number `stack`: `under` (bottom, middle) under
    /// a hat of its colour. Only the builder sees `under`.
    StackBuilt {
        seat: Seat,
        stack: u8,
        under: [Colour; 2],
    },
    /// A stack was put on the board.
    StackPlaced { seat: Seat, stack: u8, cell: Cell },
    /// A stack moved one cell; the turn is over.
    Moved { seat: Seat, from: Cell, to: Cell },
    /// A stack jumped over the stack on `over`; `removed` is the hat taken off
    /// it (an opposing top), `revealed` the colour now on top of what is left.
    Jumped {
        seat: Seat,
        from: Cell,
        over: Cell,
        to: Cell,
        removed: Option<Colour>,
        revealed: Option<Colour>,
    },
    /// A chain of jumps ended: by `end_turn` (`voluntary`) or because no jump was left.
    ChainEnded { seat: Seat, voluntary: bool },
    /// Few stacks are left: the 2nd row joins the edge zone for the rest of the game.
    EdgeZoneGrew { cells: Vec<Cell> },
    /// A seat could not play this turn.
    Skipped { seat: Seat, reason: SkipReason },
    /// Only this seat's colour is left on top: it wins.
    Won { seat: Seat },
    /// The game ends in a draw.
    Drawn { reason: DrawReason },
}

/// A stack as a viewer sees it: hidden hats are `null`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsPresetStackView))]
pub struct PresetStackView {
    pub cell: Cell,
    /// Bottom → top; hats under the top are `null` except for the builder.
    pub hats: Vec<Option<Colour>>,
    pub builder: Option<Seat>,
}

/// The events that hide something, as a viewer sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsHiddenEvent))]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum HiddenEvent {
    /// Everyone sees who built a stack and its height; only the builder sees `under`.
    StackBuilt {
        seat: Seat,
        stack: u8,
        height: u8,
        under: Option<[Colour; 2]>,
    },
    /// Everyone sees the tops; builders see under their stacks.
    PositionSet {
        stacks: Vec<PresetStackView>,
        to_move: Seat,
    },
}

/// What a viewer sees of an event: `{"type": ..., "data": ...}` either way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsEventView))]
#[serde(untagged)]
pub enum EventView {
    /// Nothing in it is hidden.
    Open(Event),
    /// Redacted for this viewer.
    Hidden(HiddenEvent),
}

/// What `viewer` may see of `event`.
#[must_use]
pub fn redact(event: &Event, viewer: Viewer) -> EventView {
    match event {
        Event::StackBuilt { seat, stack, under } => EventView::Hidden(HiddenEvent::StackBuilt {
            seat: *seat,
            stack: *stack,
            height: 3,
            under: viewer.sees_seat(*seat).then_some(*under),
        }),
        Event::PositionSet { stacks, to_move } => EventView::Hidden(HiddenEvent::PositionSet {
            stacks: stacks
                .iter()
                .map(|p| {
                    let sees =
                        p.builder.is_some_and(|b| viewer.sees_seat(b)) || viewer.is_auditor();
                    let top = p.hats.len().saturating_sub(1);
                    PresetStackView {
                        cell: p.cell,
                        hats: p
                            .hats
                            .iter()
                            .enumerate()
                            .map(|(i, &h)| (sees || i == top).then_some(h))
                            .collect(),
                        builder: p.builder,
                    }
                })
                .collect(),
            to_move: *to_move,
        }),
        other => EventView::Open(other.clone()),
    }
}

/// Whether `event` shows a seat a hat it had not seen, as the takeback rule
/// counts it (`Ruleset::reveals`): never. Building shows the hats under a
/// stack to its builder alone; the moves are public, and the hat a jump
/// uncovers is the board's to show: a Top Hats command may be taken back
/// until the next seat moves (docs/turn-conveniences.md).
#[must_use]
pub fn reveals(_event: &Event) -> bool {
    false
}
