// A copy of a Top Hats board that moves in the browser alone: the
// conditional-move editor (js/conditional.js) plays expected moves and
// replies on it; the real game is never touched.
//
// Rules it keeps (shared/rules/top-hats.md, the play phase only):
// - A copy starts from the viewer's own view of the game, so it knows what
//   the viewer knows: the hats under the viewer's stacks, not the others'.
// - The legal moves are the engine's: a capture first when any stack can
//   take a hat; otherwise the stacks in the edge zone first when one of
//   them can go; moves never end in the edge zone, jumps only by taking a
//   hat; a chain goes on with the same stack, never over a stack twice,
//   and ends by `end_turn` or when no jump is left.
// - A capture that uncovers a hat the viewer has not seen ends what the
//   copy can tell (`unknown`): the board will show it, and the line stops
//   there. The server checks every stored step again when it comes.
// - At the start of a turn the 2nd row joins the edge zone when 5 or fewer
//   stacks are left, and a seat with no colour showing or nothing to do is
//   skipped. The quiet-turn draw is not followed.

const FILES = 'abcdefg';
const SIDE = 7;
const DIRECTIONS = [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]];

/** The cell `k` steps from `cell` in direction `d`, or null off the board. */
function stepFrom(cell, [df, dr], k = 1) {
  const f = cell.charCodeAt(0) - 97 + df * k;
  const r = Number(cell[1]) - 1 + dr * k;
  return f >= 0 && f < SIDE && r >= 0 && r < SIDE ? FILES[f] + (r + 1) : null;
}

/** The ring of `cell`: 0 the outer row, 3 the centre. */
function ring(cell) {
  const f = cell.charCodeAt(0) - 97;
  const r = Number(cell[1]) - 1;
  return Math.min(f, r, SIDE - 1 - f, SIDE - 1 - r);
}

/** A copy of `view` (a Top Hats view of the play phase) to move on. */
export function copyOf(view) {
  const copy = structuredClone(view);
  copy.unknown = false;
  return copy;
}

/** Whether the editor may start a copy from `view`: the play phase, not over. */
export function canCopy(view) {
  return view?.phase === 'playing';
}

const stackOn = (copy, cell) => copy.board.find((st) => st.cell === cell) ?? null;
const opposing = (st, seat) => st && st.owner !== null && st.owner !== undefined && st.owner !== seat;
const isEdge = (copy, cell) => copy.edge_zone.includes(cell);

/** What `seat` may do at the start of its turn: `{capture, movers}` (cells). */
function turnOptions(copy, seat) {
  const own = copy.board.filter((st) => st.owner === seat);
  const movers = [];
  for (const st of own) {
    let can = false;
    for (const d of DIRECTIONS) {
      const n = stepFrom(st.cell, d);
      if (!n) continue;
      const over = stackOn(copy, n);
      const beyond = stepFrom(st.cell, d, 2);
      if (over && opposing(over, seat) && beyond && !stackOn(copy, beyond)) return { capture: true, movers: [] };
      const land = (cell) => cell && !stackOn(copy, cell) && !isEdge(copy, cell);
      if ((!over && land(n)) || (over && land(beyond))) can = true;
    }
    if (can) movers.push(st.cell);
  }
  const edgeMovers = movers.filter((cell) => isEdge(copy, cell));
  return { capture: false, movers: edgeMovers.length ? edgeMovers : movers };
}

/** The jumps the chain's stack may make now. */
function chainJumps(copy, seat) {
  const { cell, jumped } = copy.chain;
  const out = [];
  for (const d of DIRECTIONS) {
    const n = stepFrom(cell, d);
    const beyond = stepFrom(cell, d, 2);
    const over = n && stackOn(copy, n);
    if (over && beyond && !jumped.includes(n) && !stackOn(copy, beyond)
      && (!isEdge(copy, beyond) || opposing(over, seat))) {
      out.push({ type: 'jump', from: cell, to: beyond });
    }
  }
  return out;
}

/** The commands `seat` may send on the copy (none once it cannot tell). */
export function legal(copy, seat) {
  if (copy.unknown || copy.phase !== 'playing' || !copy.to_act.includes(seat)) return [];
  if (copy.chain) return [...chainJumps(copy, seat), { type: 'end_turn' }];
  const opts = turnOptions(copy, seat);
  const out = [];
  for (const st of copy.board.filter((x) => x.owner === seat)) {
    for (const d of DIRECTIONS) {
      const n = stepFrom(st.cell, d);
      const beyond = stepFrom(st.cell, d, 2);
      const over = n && stackOn(copy, n);
      if (opts.capture) {
        if (over && opposing(over, seat) && beyond && !stackOn(copy, beyond)) {
          out.push({ type: 'jump', from: st.cell, to: beyond });
        }
        continue;
      }
      if (!opts.movers.includes(st.cell)) continue;
      if (n && !over && !isEdge(copy, n)) out.push({ type: 'move', from: st.cell, to: n });
      if (over && beyond && !stackOn(copy, beyond) && !isEdge(copy, beyond)) {
        out.push({ type: 'jump', from: st.cell, to: beyond });
      }
    }
  }
  return out;
}

/** The seat whose colour `colour` is, or null (the neutral hat). */
function ownerOf(copy, colour) {
  const seat = copy.colours.indexOf(colour);
  return seat >= 0 ? seat : null;
}

/** Ends `seat`'s turn: the next seat that can act is to move. */
function endTurn(copy, seat) {
  copy.chain = null;
  let next = seat;
  for (let tries = 0; tries < copy.players; tries += 1) {
    next = (next + 1) % copy.players;
    if (!copy.edge_zone.some((cell) => ring(cell) === 1) && copy.board.length <= 5) {
      for (const file of FILES) {
        for (let r = 1; r <= SIDE; r += 1) {
          const cell = file + r;
          if (ring(cell) === 1 && !copy.edge_zone.includes(cell)) copy.edge_zone.push(cell);
        }
      }
    }
    const showing = copy.board.some((st) => st.owner === next);
    const opts = showing ? turnOptions(copy, next) : null;
    if (opts && (opts.capture || opts.movers.length)) {
      copy.to_act = [next];
      return;
    }
  }
  copy.phase = 'over';
  copy.to_act = [];
}

/**
 * `command` of `seat` played on the copy (a new copy; `copy` is left as it
 * was). The command must be one of `legal(copy, seat)`.
 */
export function play(copy, seat, command) {
  const next = structuredClone(copy);
  if (command.type === 'end_turn') {
    endTurn(next, seat);
    return next;
  }
  const moving = stackOn(next, command.from);
  moving.cell = command.to;
  if (command.type === 'move') {
    next.last_move = { seat, kind: 'move', from: command.from, to: command.to, over: null, removed: null };
    endTurn(next, seat);
    return next;
  }
  const d = DIRECTIONS.find((dir) => stepFrom(command.from, dir, 2) === command.to);
  const overCell = stepFrom(command.from, d);
  const over = stackOn(next, overCell);
  let removed = null;
  if (opposing(over, seat)) {
    removed = over.top;
    over.hats.pop();
    over.height -= 1;
    if (over.height === 0) {
      next.board = next.board.filter((st) => st !== over);
    } else {
      const revealed = over.hats[over.hats.length - 1];
      if (revealed === null || revealed === undefined) {
        // The board will show it; the copy cannot tell whose the stack is.
        over.top = 'hidden';
        over.owner = null;
        next.unknown = true;
      } else {
        over.top = revealed;
        over.owner = ownerOf(next, revealed);
      }
    }
    const removedEntry = next.removed.find((r) => r.colour === removed);
    if (removedEntry) removedEntry.count += 1;
  }
  next.last_move = { seat, kind: 'jump', from: command.from, to: command.to, over: overCell, removed };
  if (removed && !next.unknown) {
    const left = [...new Set(next.board.map((st) => st.owner).filter((o) => o !== null && o !== undefined))];
    if (left.length === 1) {
      next.phase = 'over';
      next.winner = left[0];
      next.to_act = [];
      next.chain = null;
      return next;
    }
  }
  next.chain = { cell: command.to, jumped: [...(copy.chain?.jumped ?? []), overCell] };
  if (!next.unknown && !chainJumps(next, seat).length) endTurn(next, seat);
  return next;
}
