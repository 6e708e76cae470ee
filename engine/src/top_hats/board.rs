//! The board: a 7 × 7 grid of cells `a1`..`g7`, the hats and the stacks on it.
//!
//! Ring 0 is the outer row (24 cells), ring 1 the 2nd row (16), ring 2 the
//! 3rd row (8) and ring 3 the centre `d4`. Two cells are adjacent when they
//! touch by a side or a corner; a jump goes in one of those eight directions
//! over the adjacent cell to the cell just beyond.

use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use crate::ruleset::Seat;

/// Cells on a side of the board.
pub const SIDE: usize = 7;
/// Cells on the board.
pub const CELLS: usize = SIDE * SIDE;
/// No cell (off the board), in the neighbour tables.
pub const OFF: u8 = u8::MAX;

/// One cell of the board, `a1`..`g7` (file a–g, rank 1–7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `file + 7 × rank` (both 0-based).
    #[must_use]
    pub fn from_index(index: usize) -> Option<Cell> {
        (index < CELLS).then(|| Cell(u8::try_from(index).unwrap_or(0)))
    }

    /// The cell with index `i` (indices past `g7` clamp to `g7`; the
    /// neighbour tables only hold real cells).
    #[must_use]
    pub fn of(i: u8) -> Cell {
        Cell(i.min(48))
    }

    /// The cell's index, `file + 7 × rank`.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The cell at `file`, `rank` (0-based), if on the board.
    #[must_use]
    pub fn at(file: usize, rank: usize) -> Option<Cell> {
        (file < SIDE && rank < SIDE).then(|| Cell::from_index(file + SIDE * rank))?
    }

    /// Parses `a1`..`g7`.
    #[must_use]
    pub fn parse(name: &str) -> Option<Cell> {
        let b = name.as_bytes();
        if b.len() != 2 || !(b'a'..=b'g').contains(&b[0]) || !(b'1'..=b'7').contains(&b[1]) {
            return None;
        }
        Cell::at(usize::from(b[0] - b'a'), usize::from(b[1] - b'1'))
    }

    /// The cell's name as two ASCII bytes.
    fn name_bytes(self) -> [u8; 2] {
        // index < 49, so file < 7 and rank < 7.
        [b'a' + self.0 % 7, b'1' + self.0 / 7]
    }

    /// The ring of the cell: 0 the outer row .. 3 the centre.
    #[must_use]
    pub fn ring(self) -> u8 {
        RING[self.index()]
    }

    /// The bit of this cell in a cell set.
    #[must_use]
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.name_bytes();
        write!(f, "{}{}", char::from(a), char::from(b))
    }
}

crate::codes::schema_from_codes!(
    Cell,
    "TopHatsCell",
    "A cell of the board by its name.",
    (0..CELLS)
        .filter_map(Cell::from_index)
        .map(|c| String::from_utf8_lossy(&c.name_bytes()).into_owned())
        .collect()
);

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bytes = self.name_bytes();
        serializer.serialize_str(std::str::from_utf8(&bytes).unwrap_or("??"))
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cell, D::Error> {
        struct CellVisitor;
        impl Visitor<'_> for CellVisitor {
            type Value = Cell;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a cell a1..g7")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Cell, E> {
                Cell::parse(v).ok_or_else(|| E::custom(format!("no cell {v:?} (a1..g7)")))
            }
        }
        deserializer.deserialize_str(CellVisitor)
    }
}

/// A hat's colour: seat 0 `red`, seat 1 `blue`, seat 2 `yellow`, and the one
/// `neutral` hat that belongs to nobody.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsColour))]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Colour {
    Red = 0,
    Blue = 1,
    Yellow = 2,
    Neutral = 3,
}

impl Colour {
    /// Every colour, neutral last.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Yellow, Colour::Neutral];

    /// The colour of `seat`.
    #[must_use]
    pub fn of_seat(seat: Seat) -> Colour {
        Colour::from_code(seat.0)
    }

    /// The colour with code 0..=3 (anything larger is neutral).
    #[must_use]
    pub fn from_code(code: u8) -> Colour {
        match code {
            0 => Colour::Red,
            1 => Colour::Blue,
            2 => Colour::Yellow,
            _ => Colour::Neutral,
        }
    }

    /// The colour's code (its seat number; 3 for neutral).
    #[must_use]
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The seat playing this colour (none for neutral).
    #[must_use]
    pub fn seat(self) -> Option<Seat> {
        (self != Colour::Neutral).then_some(Seat(self.code()))
    }
}

/// The neutral hat's code.
pub const NEUTRAL: u8 = 3;
/// The tallest stack: three hats.
pub const MAX_HEIGHT: usize = 3;
/// "Nobody" as a stack's builder.
pub const NO_BUILDER: u8 = u8::MAX;

/// A stack of hats on one cell (or a lone hat, or the neutral hat).
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = TopHatsStack))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Stack {
    /// Colour codes, bottom → top; only the first `len` count.
    pub hats: [u8; MAX_HEIGHT],
    /// How many hats the stack holds (0: the cell is empty).
    pub len: u8,
    /// The seat that built the stack and so knows what is under its top
    /// (`NO_BUILDER` for the neutral hat).
    pub builder: u8,
}

impl Stack {
    /// The colour code of the top hat (meaningless for an empty cell).
    #[must_use]
    pub fn top(&self) -> u8 {
        self.hats[usize::from(self.len.max(1) - 1)]
    }

    /// The hats, bottom → top.
    #[must_use]
    pub fn hats(&self) -> &[u8] {
        &self.hats[..usize::from(self.len)]
    }

    /// The builder, if any.
    #[must_use]
    pub fn builder(&self) -> Option<Seat> {
        (self.builder != NO_BUILDER).then_some(Seat(self.builder))
    }
}

const fn ring_table() -> [u8; CELLS] {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (f, r) = (i % SIDE, i / SIDE);
        let a = if f < r { f } else { r };
        let b = if SIDE - 1 - f < SIDE - 1 - r {
            SIDE - 1 - f
        } else {
            SIDE - 1 - r
        };
        t[i] = if a < b { a as u8 } else { b as u8 };
        i += 1;
    }
    t
}

/// The ring of every cell.
pub const RING: [u8; CELLS] = ring_table();

/// The eight directions (file step, rank step).
pub const DIRS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn step_table(distance: i8) -> [[u8; 8]; CELLS] {
    let mut t = [[OFF; 8]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 8 {
            let f = (i % SIDE) as i8 + DIRS[d].0 * distance;
            let r = (i / SIDE) as i8 + DIRS[d].1 * distance;
            if f >= 0 && r >= 0 && f < SIDE as i8 && r < SIDE as i8 {
                t[i][d] = (f as usize + SIDE * r as usize) as u8;
            }
            d += 1;
        }
        i += 1;
    }
    t
}

/// The neighbour of each cell in each direction (`OFF` beyond the edge).
pub const NEIGHBOUR: [[u8; 8]; CELLS] = step_table(1);
/// The cell two steps away in each direction: where a jump lands.
pub const BEYOND: [[u8; 8]; CELLS] = step_table(2);

const fn ring_mask(ring: u8) -> u64 {
    let t = ring_table();
    let mut m = 0u64;
    let mut i = 0;
    while i < CELLS {
        if t[i] == ring {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// The outer row: always edge zone.
pub const RING0: u64 = ring_mask(0);
/// The 2nd row: edge zone once few stacks are left.
pub const RING1: u64 = ring_mask(1);
/// The cells marked X, where stacks are placed: rings 1 and 2.
pub const X_CELLS: u64 = ring_mask(1) | ring_mask(2);
/// The centre, where the neutral hat stands.
pub const CENTRE: u8 = 3 + 7 * 3;

/// The cells of a cell set, in index order.
pub fn cells_of(mut mask: u64) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros();
        mask &= mask - 1;
        Some(Cell(u8::try_from(i).unwrap_or(0)))
    })
}

/// The stacks on the board, with per-colour sets of the cells each colour tops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    stacks: [Stack; CELLS],
    /// Cells holding a stack.
    occupied: u64,
    /// For each colour code, the cells whose top hat has that colour.
    tops: [u64; 4],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            stacks: [Stack::default(); CELLS],
            occupied: 0,
            tops: [0; 4],
        }
    }
}

impl Board {
    /// The stack on `cell`, if any.
    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<&Stack> {
        let s = &self.stacks[cell.index()];
        (s.len > 0).then_some(s)
    }

    /// The stack at index `i` (empty: `len == 0`).
    #[must_use]
    pub fn at(&self, i: usize) -> &Stack {
        &self.stacks[i]
    }

    /// Cells holding a stack.
    #[must_use]
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// Cells whose top hat has colour `code`.
    #[must_use]
    pub fn tops(&self, code: u8) -> u64 {
        self.tops[usize::from(code & 3)]
    }

    /// How many stacks (lone hats and the neutral hat included) stand on the board.
    #[must_use]
    pub fn count(&self) -> u32 {
        self.occupied.count_ones()
    }

    /// Puts `stack` on `cell` (replacing whatever was there).
    pub fn put(&mut self, cell: Cell, stack: Stack) {
        self.clear(cell);
        if stack.len == 0 {
            return;
        }
        self.stacks[cell.index()] = stack;
        self.occupied |= cell.bit();
        self.tops[usize::from(stack.top() & 3)] |= cell.bit();
    }

    /// Empties `cell`, returning what stood there.
    pub fn clear(&mut self, cell: Cell) -> Stack {
        let old = std::mem::take(&mut self.stacks[cell.index()]);
        if old.len > 0 {
            self.occupied &= !cell.bit();
            self.tops[usize::from(old.top() & 3)] &= !cell.bit();
        }
        old
    }

    /// Moves the stack on `from` to the empty `to`.
    pub fn shift(&mut self, from: Cell, to: Cell) {
        let s = self.clear(from);
        self.put(to, s);
    }

    /// Takes the top hat off the stack on `cell`; the cell empties with its last hat.
    pub fn pop(&mut self, cell: Cell) {
        let mut s = self.clear(cell);
        if s.len > 0 {
            s.len -= 1;
            s.hats[usize::from(s.len)] = 0;
            self.put(cell, s);
        }
    }
}

crate::codes::schema_as_array_of!(Board, "TopHatsBoard", Stack);

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(CELLS))?;
        for s in &self.stacks {
            seq.serialize_element(s)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Board, D::Error> {
        struct BoardVisitor;
        impl<'de> Visitor<'de> for BoardVisitor {
            type Value = Board;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("49 stacks")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Board, A::Error> {
                let mut board = Board::default();
                let mut i = 0;
                while let Some(stack) = seq.next_element::<Stack>()? {
                    let cell = Cell::from_index(i)
                        .ok_or_else(|| de::Error::invalid_length(i + 1, &self))?;
                    board.put(cell, stack);
                    i += 1;
                }
                if i != CELLS {
                    return Err(de::Error::invalid_length(i, &self));
                }
                Ok(board)
            }
        }
        deserializer.deserialize_seq(BoardVisitor)
    }
}

/// Every cell.
pub const ALL: u64 = (1u64 << CELLS) - 1;

const fn file_mask(file: usize) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r < SIDE {
        m |= 1 << (file + SIDE * r);
        r += 1;
    }
    m
}

/// For each direction: the cells that may step that way without leaving the
/// board sideways, and the index offset of one step.
const SHIFTS: [(u64, i32); 8] = {
    let mut t = [(0u64, 0i32); 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRS[d];
        let keep = if df == 1 {
            !file_mask(SIDE - 1)
        } else if df == -1 {
            !file_mask(0)
        } else {
            u64::MAX
        };
        t[d] = (keep & ALL, df as i32 + SIDE as i32 * dr as i32);
        d += 1;
    }
    t
};

/// The cell set `cells` moved one step in direction `d` (cells leaving the board drop out).
#[inline]
#[must_use]
pub fn shift(cells: u64, d: usize) -> u64 {
    let (keep, by) = SHIFTS[d];
    let b = cells & keep;
    let moved = if by > 0 { b << by } else { b >> -by };
    moved & ALL
}

/// The index offset of one step in direction `d`.
#[inline]
#[must_use]
pub fn step(d: usize) -> i32 {
    SHIFTS[d].1
}

/// The direction opposite `d`.
#[inline]
#[must_use]
pub fn back(d: usize) -> usize {
    (d + 4) % 8
}
