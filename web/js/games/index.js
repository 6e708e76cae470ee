// The boards, one module per ruleset (see README.md beside this file).

import * as hats from './hats.js';
import * as goathead from './goathead.js';
import * as topHats from './top-hats.js';
import * as hatTrick from './hat-trick.js';

const boards = { hats, goathead, 'top-hats': topHats, 'hat-trick': hatTrick };

/** The board module of `ruleset` (`render`, `describe`). */
export function boardFor(ruleset) {
  const board = boards[ruleset];
  if (!board) throw new Error(`no board for ruleset ${ruleset}`);
  return board;
}
