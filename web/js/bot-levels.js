// The built-in bots' levels, named by strength: what the pages show for the
// API's level ids (`random`, `greedy`, `ismcts`). The measured figures behind
// the names are on the #/bots page (and in the project's docs/bots.md).

/** [API id, name by strength, how it plays], weakest first. */
export const BOT_LEVELS = [
  ['random', 'easy', 'a random legal move'],
  ['greedy', 'medium', 'the best move one step ahead'],
  ['ismcts', 'hard', 'a search over the deals its seat cannot see'],
];

/** The name by strength of a level id (the id itself if unknown). */
export function levelName(id) {
  return BOT_LEVELS.find(([level]) => level === id)?.[1] ?? id;
}
