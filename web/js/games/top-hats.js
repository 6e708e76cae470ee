// The Top Hats board: a 7 × 7 grid (files a–g left to right, ranks 1–7
// bottom to top) with the stacks of hats on it, the edge zone, the last move
// and the viewer's legal moves. A move picks a stack (on the board, or from
// the reserve while placing) and then a cell; building and ending a chain of
// jumps are buttons beside the board.

import { h, s, moveControl, selectControl } from '../dom.js';
import { help, term } from './glossary.js';
import { t } from '../i18n.js';

/** A hat's colour (`red`, `blue`, `yellow`, `neutral`) in the page's language. */
function colourName(colour) {
  return t(`top_hats.colour.${colour}`);
}

/** The ruleset's name as players know it. */
export const NAME = 'Top Hats';

const FILES = 'abcdefg';
/** Cells on a side of the board. */
const SIDE = 7;
/** A cell's size in picture units. */
const CELL = 100;
/** Room left of and below the grid for the file letters and rank numbers. */
const MARGIN = 32;
const SIZE = MARGIN + SIDE * CELL;
/** Stacks each player builds and places. */
const STACKS = 5;

/** The letter written on a hat so its colour is not told by colour alone. */
const LETTER = { red: 'R', blue: 'B', yellow: 'Y', neutral: 'N' };

/** A short phrase for a command, e.g. "jump c3 over c4 to c5". */
export function describe(command) {
  switch (command.type) {
    case 'build_stack':
      return t('top_hats.move.build', { bottom: colourName(command.under[0]), middle: colourName(command.under[1]) });
    case 'place':
      return t('top_hats.move.place', { n: command.stack + 1, cell: command.cell });
    case 'move':
      return t('top_hats.move.move', { from: command.from, to: command.to });
    case 'jump':
      return t('top_hats.move.jump', { from: command.from, over: between(command.from, command.to), to: command.to });
    case 'end_turn':
      return t('top_hats.move.end_turn');
    default:
      return command.type.replaceAll('_', ' ');
  }
}

/** Draws `game` as seat `ctx.mySeat` sees it, with its legal moves as controls. */
export function render(game, ctx) {
  const root = h('div', { class: 'top-hats' });
  const view = game.view;
  if (!view) {
    root.append(h('p', { class: 'th-status' }, t('top_hats.waiting')));
    return root;
  }
  const seated = ctx.mySeat !== null && ctx.mySeat !== undefined;
  const moves = sortMoves(seated ? ctx.legal || [] : []);
  const sources = [...moves.sources.keys()];
  // The picked stack: the cell of a stack on the board, or `stack:<i>` for
  // an unplaced stack. With one stack to move (a chain of jumps, the last
  // stack to place) it starts picked.
  let picked = sources.length === 1 ? sources[0] : null;

  const pick = (key) => {
    picked = picked === key ? null : key;
    draw();
    root.querySelector(`[data-select="${CSS.escape(key)}"]`)?.focus();
  };
  const draw = () => {
    const parts = { view, ctx, moves, picked, pick, stacks: stacksByCell(view) };
    root.replaceChildren(status(game, parts), side(parts), boardPicture(parts), notes(parts));
  };
  draw();
  return root;
}

/**
 * Sorts the legal commands: `sources` maps what is picked first (a cell, or
 * `stack:<i>`) to its targets `{cell, command}`; `builds` and `buttons`
 * (everything else, e.g. `end_turn`) are offered as buttons.
 */
function sortMoves(legal) {
  const sources = new Map();
  const builds = [];
  const buttons = [];
  const target = (key, cell, command) => {
    if (!sources.has(key)) sources.set(key, []);
    sources.get(key).push({ cell, command });
  };
  for (const command of legal) {
    if (command.type === 'place') target(`stack:${command.stack}`, command.cell, command);
    else if (command.type === 'move' || command.type === 'jump') target(command.from, command.to, command);
    else if (command.type === 'build_stack') builds.push(command);
    else buttons.push(command);
  }
  return { sources, builds, buttons };
}

function stacksByCell(view) {
  return new Map(view.board.map((st) => [st.cell, st]));
}

function nameOf(ctx, seat) {
  return ctx.names?.[seat] || t('new.seat', { n: seat + 1 });
}

function includes(list, seat) {
  return (list || []).includes(seat);
}

// ---------------------------------------------------------------- text

/** The line above the board: whose turn, or how the game ended. */
function status(game, { view, ctx, moves }) {
  const mine = includes(view.to_act, ctx.mySeat) && (moves.sources.size || moves.builds.length || moves.buttons.length);
  const others = view.to_act.map((seat) => nameOf(ctx, seat)).join(', ');
  let text;
  if (view.phase === 'over') {
    text = endText(view, ctx);
  } else if (mine && view.chain) {
    text = t('top_hats.status.chain_mine', { cell: view.chain.cell });
  } else if (mine) {
    text = {
      building: t('top_hats.status.building_mine', { n: view.stacks_built[ctx.mySeat] + 1, of: STACKS }),
      placing: t('top_hats.status.placing_mine'),
      playing: t('top_hats.status.playing_mine'),
    }[view.phase];
  } else if (game.status === 'abandoned') {
    text = t('top_hats.abandoned');
  } else if (game.status === 'finished') {
    text = endText(view, ctx);
  } else {
    text = {
      building: t('top_hats.status.building', { names: others }),
      placing: t('top_hats.status.placing', { names: others }),
      playing: view.chain ? t('top_hats.status.chain', { names: others, cell: view.chain.cell }) : t('top_hats.status.playing', { names: others }),
    }[view.phase];
  }
  return h('p', { class: `th-status${mine ? ' th-yours' : ''}` }, text);
}

function endText(view, ctx) {
  if (view.winner !== null && view.winner !== undefined) {
    const name = nameOf(ctx, view.winner);
    return t('top_hats.end.wins', { name, colour: colourName(view.colours[view.winner]) });
  }
  if (view.end === 'quiet_turns') return t('top_hats.end.quiet', { n: view.quiet_turn_limit });
  if (view.end === 'no_action') return t('top_hats.end.no_action');
  return t('top_hats.end.finished');
}

function lastMoveText(view, ctx) {
  const m = view.last_move;
  const who = nameOf(ctx, m.seat);
  if (m.kind === 'place') return t('top_hats.last.place', { name: who, to: m.to });
  if (m.kind === 'move') return t('top_hats.last.move', { name: who, from: m.from, to: m.to });
  return t(m.removed ? 'top_hats.last.jump_took' : 'top_hats.last.jump',
    { name: who, from: m.from, over: m.over, to: m.to, colour: m.removed ? colourName(m.removed) : '' });
}

// ---------------------------------------------------------------- side panel

/** The players, the viewer's hats and stacks, and the buttons. */
function side(parts) {
  const { view, ctx, moves } = parts;
  return h('div', { class: 'th-side' },
    h('ul', { class: 'th-players', 'aria-label': t('audit.players') },
      view.colours.map((colour, seat) => player(parts, colour, seat))),
    view.private.map((p) => material(parts, p)),
    moves.builds.length > 0 && h('p', { class: 'th-note', id: 'th-build-hint' },
      t('top_hats.build_hint')),
    moves.builds.length > 0 && h('div', { class: 'th-actions', role: 'group', 'aria-labelledby': 'th-build-hint' },
      moves.builds.map((command) => buildButton(command, view.colours[ctx.mySeat], ctx))),
    moves.buttons.length > 0 && h('div', { class: 'th-actions' },
      moves.buttons.map((command) => moveControl(
        h('button', { type: 'button' }, capital(describe(command))), command, describe(command), ctx.send))));
}

/** Below the board: the last move, the chain under way, the quiet turns and the key. */
function notes({ view, ctx }) {
  return h('div', { class: 'th-notes' },
    view.last_move && h('p', { class: 'th-note' }, h('strong', {}, t('top_hats.last_move')), lastMoveText(view, ctx)),
    view.chain && view.chain.jumped.length > 0 &&
      h('p', { class: 'th-note' }, t('top_hats.jumped', { cells: view.chain.jumped.join(', ') })),
    view.phase === 'playing' &&
      h('p', { class: 'th-note' }, t('top_hats.quiet', { n: view.quiet_turns, of: view.quiet_turn_limit })),
    legend(view));
}

function player({ view, ctx }, colour, seat) {
  const onTop = view.board.filter((st) => st.owner === seat).length;
  const lost = view.removed.find((r) => r.colour === colour)?.count ?? 0;
  const facts = {
    building: t('top_hats.built', { n: view.stacks_built[seat], of: STACKS }),
    placing: t('top_hats.placed', { n: view.stacks_placed[seat], of: STACKS }),
  }[view.phase] ?? `${t('top_hats.showing', { n: onTop })} · ${t('top_hats.lost', { n: lost })}`;
  const classes = ['th-player', includes(view.to_act, seat) && 'th-to-act', seat === ctx.mySeat && 'th-me'];
  return h('li', { class: classes.filter(Boolean).join(' ') },
    mini([colour], t('top_hats.colour_hats', { colour: colourName(colour) })),
    h('span', { class: 'th-name' }, nameOf(ctx, seat), seat === ctx.mySeat ? ` ${t('top_hats.you')}` : ''),
    h('span', { class: 'th-facts' }, `${colourName(colour)} · ${facts}`),
    includes(view.to_act, seat) && h('span', { class: 'tag turn' }, term('to play')),
    view.winner === seat && h('span', { class: 'tag' }, term('winner')));
}

/**
 * A seat's secret building material (its own, or every seat's on the audit):
 * the hats left and the stacks built; while placing, the viewer's unplaced
 * stacks are what it picks first.
 */
function material({ view, ctx, moves, picked, pick }, p) {
  const own = p.seat === ctx.mySeat;
  const left = p.pool.filter((c) => c.count > 0).map((c) => `${c.count} ${colourName(c.colour)}`).join(', ');
  const stacks = p.stacks.filter((st) => !st.placed).map((st) => {
    const key = `stack:${st.stack}`;
    const label = t('top_hats.stack_label', { n: st.stack + 1, hats: st.hats.map(colourName).join(', ') });
    const picture = [mini(st.hats, label), h('span', {}, st.stack + 1)];
    if (moves.sources.has(key)) {
      return selectControl(h('button', { type: 'button', class: 'th-stack' }, picture),
        key, t('top_hats.pick_then_cell', { what: capital(label) }), picked === key, pick);
    }
    return h('span', { class: 'th-stack' }, picture);
  });
  return h('section', { class: 'th-material', 'aria-label': own ? term('Your hats') : t('top_hats.their_hats', { name: nameOf(ctx, p.seat) }) },
    h('h3', { title: own ? help('Your hats') : null }, own ? term('Your hats') : t('top_hats.their_hats', { name: nameOf(ctx, p.seat) })),
    view.phase === 'building' && h('p', { class: 'th-note' }, t('top_hats.left', { hats: left || t('new.none') })),
    stacks.length > 0 && h('p', { class: 'th-note' }, view.phase === 'placing' ? t('top_hats.to_place') : t('top_hats.stacks_built')),
    stacks.length > 0 && h('div', { class: 'th-stacks' }, stacks));
}

/** A build offered as a button showing the stack it makes (`top`: the builder's colour). */
function buildButton(command, top, ctx) {
  const [bottom, middle] = command.under;
  return moveControl(
    h('button', { type: 'button', class: 'th-build' },
      mini([bottom, middle, top], ''), `${colourName(bottom)}, ${colourName(middle)}`),
    command, t('top_hats.build_label', { bottom: colourName(bottom), middle: colourName(middle), top: colourName(top) }), ctx.send);
}

/** What the marks on the board mean. */
function legend(view) {
  const item = (picture, text) => h('li', {}, picture, text);
  const swatch = (...shapes) => s('svg', { viewBox: '0 0 40 40', class: 'th-swatch', 'aria-hidden': 'true' }, shapes);
  return h('ul', { class: 'th-legend', 'aria-label': t('top_hats.key') },
    item(swatch(s('rect', { x: 2, y: 2, width: 36, height: 36, class: 'th-cell th-edge' }),
      s('rect', { x: 2, y: 2, width: 36, height: 36, class: 'th-hatch' })),
    ` ${t('top_hats.key_edge', { n: view.edge_zone.length })}`),
    view.phase === 'placing' && item(swatch(s('rect', { x: 2, y: 2, width: 36, height: 36, class: 'th-cell' }),
      s('path', { d: 'M12 12 L28 28 M28 12 L12 28', class: 'th-x' })), ` ${t('top_hats.key_place')}`),
    view.last_move && item(swatch(s('rect', { x: 4, y: 4, width: 32, height: 32, class: 'th-last-to' })), ` ${t('top_hats.key_last')}`),
    item(swatch(s('circle', { cx: 26, cy: 14, r: 11, class: 'th-badge' }),
      s('text', { x: 26, y: 14, class: 'th-badge-n th-small' }, 3)), ` ${t('top_hats.key_badge')}`));
}

// ---------------------------------------------------------------- the board

/** The cell's file and rank, 0-based. */
function coords(cell) {
  return [cell.charCodeAt(0) - 97, Number(cell[1]) - 1];
}

/** The top-left corner of `cell` in picture units (rank 7 at the top). */
function corner(cell) {
  const [file, rank] = coords(cell);
  return [MARGIN + file * CELL, (SIDE - 1 - rank) * CELL];
}

function centre(cell) {
  const [x, y] = corner(cell);
  return [x + CELL / 2, y + CELL / 2];
}

/** The cell a jump from `from` to `to` goes over. */
function between(from, to) {
  const [f1, r1] = coords(from);
  const [f2, r2] = coords(to);
  return FILES[(f1 + f2) / 2] + ((r1 + r2) / 2 + 1);
}

/** Every cell, rank 7 first, each rank from file a. */
function allCells() {
  const cells = [];
  for (let rank = SIDE; rank >= 1; rank -= 1) {
    for (const file of FILES) cells.push(file + rank);
  }
  return cells;
}

/**
 * The board in SVG, in layers from the bottom: the cells (edge zone hatched,
 * × on the cells a stack may be placed on) and coordinates, the last move,
 * the stacks, the hat the last jump took, the move marks, the controls.
 */
function boardPicture(parts) {
  const { view } = parts;
  const edge = new Set(view.edge_zone);
  const cells = allCells();
  const placeable = new Set(view.place_cells);
  return h('div', { class: 'th-board' },
    s('svg', { viewBox: `0 0 ${SIZE} ${SIZE}`, class: 'th-svg', role: 'group', 'aria-label': t('top_hats.board') },
      s('defs', {},
        s('pattern', { id: 'th-hatch', width: 16, height: 16, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
          s('line', { x1: 0, y1: 0, x2: 0, y2: 16, class: 'th-hatch-line' })),
        s('marker', { id: 'th-arrow', viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto' },
          s('path', { d: 'M0 0 L10 5 L0 10 Z', class: 'th-arrow-head' }))),
      s('g', { class: 'th-grid', 'aria-hidden': 'true' },
        cells.map((cell) => {
          const [x, y] = corner(cell);
          return s('g', {},
            s('rect', { x, y, width: CELL, height: CELL, class: edge.has(cell) ? 'th-cell th-edge' : 'th-cell' }),
            edge.has(cell) && s('rect', { x, y, width: CELL, height: CELL, class: 'th-hatch' }),
            placeable.has(cell) && s('path', {
              d: `M${x + 35} ${y + 35} L${x + 65} ${y + 65} M${x + 65} ${y + 35} L${x + 35} ${y + 65}`, class: 'th-x',
            }));
        }),
        [...FILES].map((file, i) => s('text', { x: MARGIN + i * CELL + CELL / 2, y: SIDE * CELL + MARGIN / 2 + 2, class: 'th-coord' }, file)),
        [...FILES].map((_, i) => s('text', { x: MARGIN / 2, y: (SIDE - 1 - i) * CELL + CELL / 2, class: 'th-coord' }, i + 1))),
      lastMove(view),
      s('g', { class: 'th-stacks' },
        view.board.map((st) => {
          const [x, y] = corner(st.cell);
          return s('g', { transform: `translate(${x} ${y})` }, s('title', {}, stackText(parts, st)),
            hatStack(st.hats, st.top, st.height));
        })),
      taken(view),
      marks(parts),
      controls(parts, cells)));
}

/** The last move under the stacks: its cells outlined, an arrow from where it came. */
function lastMove(view) {
  const m = view.last_move;
  if (!m) return null;
  const box = (cell, cls) => {
    const [x, y] = corner(cell);
    return s('rect', { x: x + 6, y: y + 6, width: CELL - 12, height: CELL - 12, class: cls });
  };
  const arrow = () => {
    const [x1, y1] = centre(m.from);
    const [x2, y2] = centre(m.to);
    const k = 34 / Math.hypot(x2 - x1, y2 - y1);
    return s('line', {
      x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k,
      class: 'th-arrow', 'marker-end': 'url(#th-arrow)',
    });
  };
  return s('g', { class: 'th-last', 'aria-hidden': 'true' },
    m.from && box(m.from, 'th-last-from'),
    box(m.to, 'th-last-to'),
    m.from && arrow());
}

/** The hat the last jump took, over the stack it came from: "−B" in its colour. */
function taken(view) {
  const m = view.last_move;
  if (!m?.over || !m.removed) return null;
  const [x, y] = corner(m.over);
  return s('g', { class: 'th-last', 'aria-hidden': 'true' },
    s('circle', { cx: x + 19, cy: y + 19, r: 18, class: `th-${m.removed} th-taken` }),
    s('text', { x: x + 19, y: y + 19, class: `th-letter th-small th-on-${m.removed}` }, `−${LETTER[m.removed]}`));
}

/** What a viewer can tell of a stack, for its tooltip and control label. */
function stackText({ ctx }, st) {
  const owner = st.owner === null ? t('top_hats.neutral_hat')
    : t(st.owner === ctx.mySeat ? 'top_hats.on_top_yours' : 'top_hats.on_top', { colour: colourName(st.top), name: nameOf(ctx, st.owner) });
  const under = st.hats.slice(0, -1).map((c) => (c ? colourName(c) : t('top_hats.hidden')));
  return `${st.cell}: ${t('top_hats.height', { n: st.height })}, ${owner}` +
    (under.length ? t('top_hats.under', { hats: under.join(', ') }) : '');
}

/** Rings on stacks that can move, the picked one, its targets, the chain's jumped stacks. */
function marks({ view, moves, picked }) {
  const ring = (cell, cls) => {
    const [x, y] = corner(cell);
    return s('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: cls });
  };
  const out = [];
  for (const key of moves.sources.keys()) {
    if (!key.startsWith('stack:')) out.push(ring(key, key === picked ? 'th-picked' : 'th-can'));
  }
  for (const { cell, command } of moves.sources.get(picked) || []) {
    const [x, y] = centre(cell);
    out.push(s('circle', { cx: x, cy: y, r: command.type === 'jump' ? 20 : 14, class: `th-target th-target-${command.type}` }));
  }
  if (view.chain) {
    for (const cell of view.chain.jumped) {
      const [x, y] = corner(cell);
      out.push(s('path', { d: `M${x + 68} ${y + 68} l20 20 m0 -20 l-20 20`, class: 'th-jumped' }));
    }
  }
  return s('g', { class: 'th-marks', 'aria-hidden': 'true' }, out);
}

/**
 * The clickable cells, on top of the picture: the viewer's movable stacks
 * (pick) and, once one is picked, its target cells (move), in reading order.
 * The targets come right after the picked stack, so Tab goes from the stack
 * to its targets.
 */
function controls(parts, cells) {
  const { ctx, moves, picked, pick, stacks } = parts;
  const picks = moves.sources.get(picked) || [];
  const targets = cells.flatMap((cell) => picks.filter((t) => t.cell === cell));
  const hit = (cell) => {
    const [x, y] = corner(cell);
    return s('g', { class: 'th-hit' },
      s('rect', { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 10 }));
  };
  const targetControl = ({ cell, command }) =>
    moveControl(hit(cell), command, capital(targetLabel(command, stacks, ctx)), ctx.send);
  const sourceControl = (cell) =>
    selectControl(hit(cell), cell, t('top_hats.pick_to_move', { what: stackText(parts, stacks.get(cell)) }), picked === cell, pick);
  const out = [];
  if (picked?.startsWith('stack:')) out.push(...targets.map(targetControl));
  for (const cell of cells) {
    if (!moves.sources.has(cell)) continue;
    out.push(sourceControl(cell));
    if (cell === picked) out.push(...targets.map(targetControl));
  }
  return s('g', { class: 'th-controls' }, out);
}

/** A target's label; a jump also says what it jumps and whether it takes a hat. */
function targetLabel(command, stacks, ctx) {
  if (command.type !== 'jump') return describe(command);
  const over = stacks.get(between(command.from, command.to));
  const takes = over.owner !== null && over.owner !== ctx.mySeat;
  return t(takes ? 'top_hats.jump_takes' : 'top_hats.jump_over', { move: describe(command), colour: colourName(over.top) });
}

/**
 * A stack drawn in a 100 × 100 box: the hats under the top as bands (grey
 * when hidden), the top hat with its colour's letter, and the height
 * (left out when 0).
 */
function hatStack(hats, top, height) {
  const base = 95;
  const bands = hats.slice(0, -1).map((colour, i) => s('rect', {
    x: 6, y: base - 17 * (i + 1), width: 78, height: 15, rx: 6, class: `th-hat th-${colour ?? 'hidden'}`,
  }));
  const brim = base - 17 * (hats.length - 1) - 13;
  return s('g', { class: 'th-pile' },
    bands,
    s('rect', { x: 21, y: brim - 38, width: 48, height: 42, rx: 5, class: `th-hat th-${top}` }),
    s('rect', { x: 6, y: brim, width: 78, height: 13, rx: 6, class: `th-hat th-${top}` }),
    s('text', { x: 45, y: brim - 17, class: `th-letter th-on-${top}` }, LETTER[top]),
    height > 0 && s('g', {},
      s('circle', { cx: 84, cy: 16, r: 15, class: 'th-badge' }),
      s('text', { x: 84, y: 16, class: 'th-badge-n' }, height)));
}

/** A small picture of a stack (bottom → top) without its height, e.g. in a button. */
function mini(hats, label) {
  const attrs = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': 'true' };
  return s('svg', { viewBox: '0 0 100 100', class: 'th-mini', ...attrs },
    hatStack(hats, hats[hats.length - 1], 0));
}

function capital(text) {
  return text[0].toUpperCase() + text.slice(1);
}
