// The built-in bots' levels, named by strength: what the pages show for the
// API's level ids (`random`, `greedy`, `ismcts`). The measured figures behind
// the names are on the #/bots page (and in the project's docs/bots.md).

import { t } from './i18n.js';

/** The API's level ids, weakest first. */
export const BOT_LEVEL_IDS = ['random', 'greedy', 'ismcts'];

/** [API id, name by strength, how it plays], weakest first, in the page's language. */
export function botLevels() {
  return BOT_LEVEL_IDS.map((id) => [id, t(`bot.${id}.name`), t(`bot.${id}.how`)]);
}

/** The name by strength of a level id (the id itself if unknown). */
export function levelName(id) {
  return BOT_LEVEL_IDS.includes(id) ? t(`bot.${id}.name`) : id;
}
