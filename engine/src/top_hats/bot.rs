//! What Top Hats gives its bots: determinization and the greedy heuristic.
//!
//! # Determinization
//!
//! Everything public is copied from the view: the board (cells, heights,
//! tops, builders), the edge zone, whose turn it is, the chain under way, the
//! removed hats, the quiet turns, the stacks built and placed per seat, and
//! the seat's own pool and stacks while building and placing. What the seat
//! cannot see is drawn at random among the hats the view leaves unaccounted
//! for:
//!
//! - Every seat builds with a public pool (nine of its colour and six given),
//!   and five of its own hats are the tops, so the ten hats *under* the tops
//!   of a seat's stacks are a known multiset (four of its colour and the six
//!   it was given). While building and placing, another seat's stacks are a
//!   random deal of those ten hats (the first `2k` for its `k` built stacks).
//! - In play, a stack keeps its builder and loses hats from the top only: a
//!   stack of height 3 has lost nothing, height 2 its original top (the
//!   builder's colour), height 1 its middle too, and a builder with fewer than
//!   five stacks lost the whole of the others. So per builder the view proves
//!   how many of its under-hats have left the board, and per colour how many
//!   under-hats were removed in all (the removed count minus the original tops
//!   taken off). The removed under-hats are split between the builders the
//!   seat cannot see into with the exact weight of each split (a product of
//!   binomials: the number of hat arrangements it stands for); what is left of
//!   each builder's ten hats is dealt at random into its hidden places.
//! - From a preset position the same is done with the preset's hats per
//!   builder (the preset is public in the options) instead of the pools.
//! - The view does not say whether the chain under way has removed a hat
//!   (it only matters for the quiet-turn count when the chain ends): it is
//!   taken as removed when the last jump removed one, or a jumped cell is
//!   now empty (only a removal empties a cell) or shows another seat's colour
//!   (a jump over one's own or the neutral stack leaves its top).

use super::board::{Board, Cell, Colour, NEUTRAL, NO_BUILDER, RING1, Stack, back, cells_of, shift};
use super::state::{Chain, LastMove, Phase, STACKS, State};
use super::view::{ChainView, View};
use super::{Command, Options, TopHats};
use crate::bots::{BotRng, BotRules, Seen};
use crate::random::{Randomness, below, shuffle};
use crate::ruleset::{Ruleset, Seat, apply_all};

/// Hats per colour code (red, blue, yellow, neutral).
type Counts = [i32; 4];

/// Hats of its own colour a seat keeps to build with.
const KEPT: i32 = 9;
/// Hats under the top of a built stack.
const UNDER: usize = 2;
/// The "builder" of the neutral hat, as a group index.
const NOBODY: usize = 3;

impl BotRules for TopHats {
    /// All of them: Top Hats has no explicit deals, and a preset position is
    /// public by the rulings (the options show it to every seat).
    fn public_options(options: &Options) -> Options {
        options.clone()
    }

    fn determinize(seen: &Seen<'_, Self>, rng: &mut BotRng) -> State {
        let mut state = public_state(seen);
        match seen.view.phase {
            Phase::Building => deal_building(seen, &mut state, rng),
            Phase::Placing => deal_placing(seen, &mut state, rng),
            Phase::Playing | Phase::Over => deal_board(seen, &mut state, rng),
        }
        state
    }

    /// Building: put a hat of one's own colour in the middle (the stack stays
    /// one's own when its top is taken) and the given hats at the bottom.
    /// Placing and playing: each legal command is tried on a few
    /// determinizations and the position after it is scored (`evaluate`):
    /// the stacks showing one's colour (worth more with hats of
    /// that colour right under the top) minus the opponents' on average, minus
    /// most of what the next opponent's best capture would cost, plus a
    /// little of what one's own best capture would gain next; a win or a loss
    /// outweighs everything. Ties are broken at random.
    fn greedy(seen: &Seen<'_, Self>, rng: &mut BotRng) -> Command {
        if seen.view.phase == Phase::Building {
            return build_choice(seen, rng);
        }
        let samples: Vec<State> = (0..GREEDY_SAMPLES)
            .map(|_| Self::determinize(seen, rng))
            .collect();
        let randomness = Randomness::from_seed("top-hats greedy");
        let scores: Vec<f64> = seen
            .legal
            .iter()
            .map(|command| {
                samples
                    .iter()
                    .map(|s| after(s, seen.seat, command, &randomness))
                    .sum()
            })
            .collect();
        pick_best(seen.legal, &scores, rng)
    }
}

/// The state with everything the view shows; hidden hats are still
/// placeholders (each hidden hat of a stack is its top colour).
fn public_state(seen: &Seen<'_, TopHats>) -> State {
    let view = seen.view;
    let players = usize::from(view.players);
    let mut board = Board::default();
    for sv in &view.board {
        let mut stack = Stack {
            hats: [0; 3],
            len: sv.height,
            builder: sv.builder.map_or(NO_BUILDER, |b| b.0),
        };
        for (slot, hat) in stack.hats.iter_mut().zip(&sv.hats) {
            *slot = hat.unwrap_or(sv.top).code();
        }
        board.put(sv.cell, stack);
    }
    let mut built_count = [0u8; 3];
    let mut placed = [0u8; 3];
    for s in 0..players.min(3) {
        built_count[s] = view.stacks_built.get(s).copied().unwrap_or(0);
        let n = view.stacks_placed.get(s).copied().unwrap_or(0);
        placed[s] = ((1u16 << n) - 1) as u8;
    }
    let mut removed = [0u8; 4];
    for count in &view.removed {
        removed[usize::from(count.colour.code() & 3)] = count.count;
    }
    let mut state = State {
        players: view.players,
        quiet_turn_limit: view.quiet_turn_limit,
        phase: view.phase,
        board,
        pools: [[0; 3]; 3],
        built: [[[0; 3]; STACKS]; 3],
        built_count,
        placed,
        placements: placed.iter().map(|p| p.count_ones() as u8).sum(),
        to_move: match view.phase {
            Phase::Placing | Phase::Playing => view.to_act.first().copied().unwrap_or(Seat(0)),
            Phase::Building | Phase::Over => Seat(0),
        },
        chain: view.chain.as_ref().map(|c| chain(view, c)),
        quiet_turns: view.quiet_turns,
        ring1_edge: view.edge_zone.iter().any(|c| c.bit() & RING1 != 0),
        removed,
        last_move: view.last_move.as_ref().map(|m| LastMove {
            seat: m.seat,
            kind: m.kind,
            from: m.from,
            to: m.to,
            over: m.over,
            removed: m.removed,
        }),
        winner: view.winner,
        end: view.end,
    };
    copy_private(view, &mut state);
    state
}

/// The seat's own pool and stacks, while building and placing.
fn copy_private(view: &View, state: &mut State) {
    for private in &view.private {
        let s = private.seat.index() % 3;
        for count in &private.pool {
            if let Some(n) = state.pools[s].get_mut(usize::from(count.colour.code())) {
                *n = count.count;
            }
        }
        state.placed[s] = 0;
        for built in &private.stacks {
            let k = usize::from(built.stack) % STACKS;
            state.built[s][k] = built.hats.map(Colour::code);
            if built.placed {
                state.placed[s] |= 1 << k;
            }
        }
    }
}

/// Whether `seat`'s own stacks are shown to it in `view` (while building and placing).
fn knows_own_stacks(view: &View, seat: usize) -> bool {
    view.private.iter().any(|p| p.seat.index() == seat)
}

/// The chain under way, with the guess of whether it removed a hat (see the
/// module documentation).
fn chain(view: &View, c: &ChainView) -> Chain {
    let mover = view.to_act.first().copied();
    let proved = view.last_move.as_ref().is_some_and(|m| m.removed.is_some())
        || c.jumped.iter().any(|&cell| {
            cell == c.cell
                || view
                    .board
                    .iter()
                    .find(|sv| sv.cell == cell)
                    .is_none_or(|sv| sv.owner.is_some_and(|o| Some(o) != mover))
        });
    Chain {
        cell: c.cell,
        jumped: c.jumped.iter().fold(0, |m, cell| m | cell.bit()),
        removed: proved,
    }
}

/// The hats a seat builds with at a table of `players`.
fn start_pool(players: usize, seat: usize) -> Counts {
    let mut pool = [0; 4];
    for (c, n) in pool.iter_mut().enumerate().take(players) {
        *n = if c == seat {
            KEPT
        } else if players == 2 {
            6
        } else {
            3
        };
    }
    pool
}

/// The ten hats under the tops of a seat's five stacks.
fn unders(players: usize, seat: usize) -> Counts {
    let mut pool = start_pool(players, seat);
    pool[seat] -= STACKS as i32;
    pool
}

/// The hats of `counts`, one entry per hat, shuffled.
fn shuffled(counts: &Counts, rng: &mut BotRng) -> Vec<u8> {
    let mut hats: Vec<u8> = (0..4u8)
        .flat_map(|c| std::iter::repeat_n(c, usize::try_from(counts[usize::from(c)]).unwrap_or(0)))
        .collect();
    shuffle(&mut hats, rng);
    hats
}

/// Building: each other seat's built stacks are a random deal of its ten
/// under-hats, and its pool what is left.
fn deal_building(seen: &Seen<'_, TopHats>, state: &mut State, rng: &mut BotRng) {
    let players = seen.players.min(3);
    for b in (0..players).filter(|&b| !knows_own_stacks(seen.view, b)) {
        let hats = shuffled(&unders(players, b), rng);
        let k = usize::from(state.built_count[b]).min(STACKS);
        let mut pool = start_pool(players, b);
        for (i, pair) in hats.chunks(UNDER).take(k).enumerate() {
            let stack = [pair[0], pair[1], b as u8];
            for &h in &stack {
                pool[usize::from(h)] -= 1;
            }
            state.built[b][i] = stack;
        }
        for (slot, &n) in state.pools[b].iter_mut().zip(&pool) {
            *slot = u8::try_from(n).unwrap_or(0);
        }
    }
}

/// Placing: each other seat's five stacks are a random deal of its ten
/// under-hats; its placed stacks are its first ones, on its cells in order.
fn deal_placing(seen: &Seen<'_, TopHats>, state: &mut State, rng: &mut BotRng) {
    let players = seen.players.min(3);
    for b in (0..players).filter(|&b| !knows_own_stacks(seen.view, b)) {
        let hats = shuffled(&unders(players, b), rng);
        for (i, pair) in hats.chunks(UNDER).take(STACKS).enumerate() {
            state.built[b][i] = [pair[0], pair[1], b as u8];
        }
        let mine = seen
            .view
            .board
            .iter()
            .filter(|sv| sv.builder.is_some_and(|s| s.index() == b));
        for (i, sv) in mine.take(STACKS).enumerate() {
            state.board.put(
                sv.cell,
                Stack {
                    hats: state.built[b][i],
                    len: 3,
                    builder: b as u8,
                },
            );
        }
    }
}

/// The hats of one builder's stacks (or of the neutral hat's "nobody")
/// that the seat does not see on the board.
#[derive(Debug, Default)]
struct Group {
    /// Per colour: hidden on the board, or removed from it.
    unseen: Counts,
    /// How many of them have left the board.
    gone: i32,
    /// Where the hidden ones stand: the cell and the place in the stack.
    slots: Vec<(Cell, usize)>,
}

impl Group {
    /// Whether the counts add up: every unseen hat is hidden or gone.
    fn consistent(&self) -> bool {
        self.gone >= 0
            && self.unseen.iter().all(|&n| n >= 0)
            && self.unseen.iter().sum::<i32>() - self.gone == self.slots.len() as i32
    }
}

/// Play: the hidden hats of every stack, drawn among the hats unaccounted for.
fn deal_board(seen: &Seen<'_, TopHats>, state: &mut State, rng: &mut BotRng) {
    let (groups, removed) = match &seen.options().position {
        Some(_) => preset_groups(seen.options(), seen.view),
        None => built_groups(seen.view),
    };
    let hidden = if groups.iter().all(Group::consistent) {
        pick_split(&groups, removed, rng)
    } else {
        None
    }
    .unwrap_or_else(|| groups.iter().map(|g| g.unseen.map(|n| n.max(0))).collect());
    for (group, hats) in groups.iter().zip(&hidden) {
        let hats = shuffled(hats, rng);
        for (&(cell, i), &hat) in group.slots.iter().zip(&hats) {
            if let Some(mut stack) = state.board.get(cell).copied() {
                stack.hats[i] = hat;
                state.board.put(cell, stack);
            }
        }
    }
}

/// Counts the hats the view shows of each builder's stacks: `counted`
/// says which places of a stack of a given height belong to the group.
fn count_board(view: &View, groups: &mut [Group], counted: impl Fn(usize) -> bool) {
    for sv in &view.board {
        let g = sv.builder.map_or(NOBODY, |b| b.index().min(NOBODY));
        let Some(group) = groups.get_mut(g) else {
            continue;
        };
        for (i, hat) in sv.hats.iter().enumerate().filter(|&(i, _)| counted(i)) {
            group.gone -= 1;
            match hat {
                Some(c) => group.unseen[usize::from(c.code())] -= 1,
                None => group.slots.push((sv.cell, i)),
            }
        }
    }
}

/// A built game: per builder, its ten under-hats; and the under-hats removed
/// per colour (the removed hats less the original tops taken off).
fn built_groups(view: &View) -> (Vec<Group>, Counts) {
    let players = usize::from(view.players).min(3);
    let mut groups: Vec<Group> = (0..=NOBODY)
        .map(|b| match b {
            NOBODY => Group {
                unseen: [0, 0, 0, 1],
                gone: 1,
                slots: Vec::new(),
            },
            b if b < players => Group {
                unseen: unders(players, b),
                gone: (UNDER * STACKS) as i32,
                slots: Vec::new(),
            },
            _ => Group::default(),
        })
        .collect();
    count_board(view, &mut groups, |i| i < UNDER);
    let mut removed = [0; 4];
    for count in &view.removed {
        let c = usize::from(count.colour.code() & 3);
        let intact = view
            .board
            .iter()
            .filter(|sv| sv.height == 3 && sv.builder.is_some_and(|b| b.index() == c))
            .count();
        removed[c] = i32::from(count.count) - (STACKS - intact) as i32;
    }
    (groups, removed)
}

/// A preset position: per builder, the hats of its preset stacks; and the
/// removed hats per colour.
fn preset_groups(options: &Options, view: &View) -> (Vec<Group>, Counts) {
    let mut groups: Vec<Group> = (0..=NOBODY).map(|_| Group::default()).collect();
    for stack in options.position.iter().flat_map(|p| &p.stacks) {
        let top = stack.hats.last().copied().unwrap_or(Colour::Neutral);
        let g = stack
            .builder
            .or_else(|| top.seat())
            .map_or(NOBODY, |b| b.index().min(NOBODY));
        for h in &stack.hats {
            groups[g].unseen[usize::from(h.code())] += 1;
            groups[g].gone += 1;
        }
    }
    count_board(view, &mut groups, |_| true);
    let mut removed = [0; 4];
    for count in &view.removed {
        removed[usize::from(count.colour.code() & 3)] = i32::from(count.count);
    }
    (groups, removed)
}

/// The hidden hats of every group: the removed hats are split between the
/// groups at random, each split weighted by the arrangements it stands for.
fn pick_split(groups: &[Group], removed: Counts, rng: &mut BotRng) -> Option<Vec<Counts>> {
    let mut splits = Vec::new();
    let mut current = Vec::with_capacity(groups.len());
    enumerate_splits(groups, removed, 1.0, &mut current, &mut splits);
    let total: f64 = splits.iter().map(|(w, _)| w).sum();
    if splits.is_empty() || total <= 0.0 {
        return None;
    }
    let mut x = (rng_unit(rng)) * total;
    let mut chosen = splits.len() - 1;
    for (i, (w, _)) in splits.iter().enumerate() {
        if x < *w {
            chosen = i;
            break;
        }
        x -= w;
    }
    let (_, gone) = splits.swap_remove(chosen);
    Some(
        groups
            .iter()
            .zip(gone)
            .map(|(g, gone)| std::array::from_fn(|c| g.unseen[c] - gone[c]))
            .collect(),
    )
}

/// A uniform number in `0..1`.
fn rng_unit(rng: &mut BotRng) -> f64 {
    use rand::RngCore;
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Every way to take `left` removed hats out of the groups (each group losing
/// exactly `gone` of its unseen hats), with its weight.
fn enumerate_splits(
    groups: &[Group],
    left: Counts,
    weight: f64,
    current: &mut Vec<Counts>,
    out: &mut Vec<(f64, Vec<Counts>)>,
) {
    let Some((group, rest)) = groups.split_first() else {
        if left == [0; 4] {
            out.push((weight, current.clone()));
        }
        return;
    };
    let cap: Counts = std::array::from_fn(|c| group.unseen[c].min(left[c]));
    let mut visit = |x: Counts| {
        let w: f64 = (0..4).map(|c| binomial(group.unseen[c], x[c])).product();
        current.push(x);
        enumerate_splits(
            rest,
            std::array::from_fn(|c| left[c] - x[c]),
            weight * w,
            current,
            out,
        );
        current.pop();
    };
    if rest.is_empty() {
        // The last group takes whatever is left.
        if left.iter().sum::<i32>() == group.gone && (0..4).all(|c| left[c] <= cap[c]) {
            visit(left);
        }
        return;
    }
    for x0 in 0..=cap[0].min(group.gone) {
        for x1 in 0..=cap[1].min(group.gone - x0) {
            for x2 in 0..=cap[2].min(group.gone - x0 - x1) {
                let x3 = group.gone - x0 - x1 - x2;
                if x3 <= cap[3] {
                    visit([x0, x1, x2, x3]);
                }
            }
        }
    }
}

/// `n` choose `k` (0 outside `0..=n`).
fn binomial(n: i32, k: i32) -> f64 {
    if k < 0 || k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

// ---------------------------------------------------------------- greedy ----

/// Determinizations each greedy decision averages over.
const GREEDY_SAMPLES: usize = 4;
/// A won (or lost) game, in stacks.
const WIN: f64 = 1000.0;
/// The share of the next opponent's best capture counted against a position.
const DANGER: f64 = 0.9;
/// The share of one's own best capture next turn counted for a position.
const CHANCE: f64 = 0.3;
/// Per own stack the next opponent could capture.
const EXPOSED: f64 = 0.1;

/// The build a greedy player sends: own colour in the middle, given hats at
/// the bottom (ties at random).
fn build_choice(seen: &Seen<'_, TopHats>, rng: &mut BotRng) -> Command {
    let own = Colour::of_seat(seen.seat);
    let scores: Vec<f64> = seen
        .legal
        .iter()
        .map(|command| match command {
            Command::BuildStack {
                under: [bottom, middle],
            } => 2.0 * f64::from(u8::from(*middle == own)) - f64::from(u8::from(*bottom == own)),
            _ => 0.0,
        })
        .collect();
    pick_best(seen.legal, &scores, rng)
}

/// The command with the best score (ties at random).
fn pick_best(legal: &[Command], scores: &[f64], rng: &mut BotRng) -> Command {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<usize> = scores
        .iter()
        .enumerate()
        .filter(|&(_, &s)| (s - best).abs() < 1e-9)
        .map(|(i, _)| i)
        .collect();
    let i = ties
        .get(below(rng, ties.len().max(1)))
        .copied()
        .unwrap_or(0);
    legal[i.min(legal.len() - 1)].clone()
}

/// The score of the position after `seat` sends `command` in `state`.
fn after(state: &State, seat: Seat, command: &Command, randomness: &Randomness) -> f64 {
    match TopHats::decide(state, seat, command, randomness) {
        Ok(events) => {
            let mut next = state.clone();
            apply_all::<TopHats>(&mut next, &events);
            evaluate(&next, seat)
        }
        Err(_) => -WIN * 10.0,
    }
}

/// What a stack is worth to the seat of its top colour: one, and a half
/// more per hat of that colour right under the top (each keeps the stack
/// after a capture).
fn worth(stack: &Stack) -> f64 {
    let hats = stack.hats();
    let top = stack.top();
    let lives = hats.iter().rev().take_while(|&&h| h == top).count();
    1.0 + 0.5 * (lives.saturating_sub(1) as f64)
}

/// A stack's share of the score of `seat`: its worth when it shows the seat's
/// colour, minus its worth over the opponents when it shows another's.
fn share(stack: &Stack, seat: Seat, players: usize) -> f64 {
    let top = stack.top();
    if top == NEUTRAL {
        0.0
    } else if top == seat.0 {
        worth(stack)
    } else {
        -worth(stack) / (players.max(2) - 1) as f64
    }
}

/// The change to `seat`'s score when the stack on `cell` loses its top.
fn capture_delta(board: &Board, cell: Cell, seat: Seat, players: usize) -> f64 {
    let Some(stack) = board.get(cell) else {
        return 0.0;
    };
    let mut popped = *stack;
    popped.len -= 1;
    let after = if popped.len == 0 {
        0.0
    } else {
        share(&popped, seat, players)
    };
    after - share(stack, seat, players)
}

/// The cells of stacks that `colour` could jump and take a hat off now.
fn capturable(board: &Board, colour: u8) -> u64 {
    let occupied = board.occupied();
    let targets = occupied & !board.tops(colour) & !board.tops(NEUTRAL);
    let empty = super::board::ALL & !occupied;
    let mut cells = 0;
    for d in 0..8 {
        let landing = shift(shift(board.tops(colour), d) & targets, d) & empty;
        cells |= shift(landing, back(d));
    }
    cells
}

/// The next seat after `seat` whose colour shows, if any.
fn next_opponent(state: &State, seat: Seat) -> Option<Seat> {
    let mut s = state.next(seat);
    while s != seat {
        if state.board.tops(s.0) != 0 {
            return Some(s);
        }
        s = state.next(s);
    }
    None
}

/// The greedy score of a position for `seat` (see [`TopHats::greedy`]).
fn evaluate(state: &State, seat: Seat) -> f64 {
    let players = state.player_count();
    if state.phase == Phase::Over {
        return match state.winner {
            Some(w) if w == seat => WIN,
            Some(_) => -WIN,
            None => 0.0,
        };
    }
    let board = &state.board;
    let material: f64 = cells_of(board.occupied())
        .filter_map(|c| board.get(c))
        .map(|st| share(st, seat, players))
        .sum();
    let danger = next_opponent(state, seat).map_or(0.0, |o| {
        let exposed = capturable(board, o.0) & board.tops(seat.0);
        let worst = cells_of(exposed)
            .map(|c| -capture_delta(board, c, seat, players))
            .fold(0.0, f64::max);
        DANGER * worst + EXPOSED * f64::from(exposed.count_ones())
    });
    let chance = cells_of(capturable(board, seat.0))
        .map(|c| capture_delta(board, c, seat, players))
        .fold(0.0, f64::max);
    material - danger + CHANCE * chance
}
