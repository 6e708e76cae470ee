// The boards, one module per ruleset (see README.md beside this file). This
// registry is the one list of rulesets the pages know: adding a ruleset is a
// board module and one line here.

import * as hats from './hats.js';
import * as goathead from './goathead.js';
import * as topHats from './top-hats.js';
import * as hatTrick from './hat-trick.js';

const boards = { hats, goathead, 'top-hats': topHats, 'hat-trick': hatTrick };

/** Every ruleset id, in the order the pages list them. */
export const RULESETS = Object.keys(boards);

/** The board module of `ruleset` (`render`, `describe`). */
export function boardFor(ruleset) {
  const board = boards[ruleset];
  if (!board) throw new Error(`no board for ruleset ${ruleset}`);
  return board;
}

/** The display name of a ruleset id (the id itself for one no board draws). */
export function rulesetName(id) {
  return boards[id]?.NAME || id;
}
