// A line of help for every badge and term the boards show, as a tooltip
// (the `title` of the badge or heading) and for screen readers. The rules
// pages (#/rules/<ruleset>) say the same at length.
//
// A term is named by its English words (`'cookie now'`, `'Tea table
// line'`): `term(name)` is what the page shows in its language
// (`term.<name>` in web/i18n), `help(name)` the line that explains it
// (`help.<name>`).

import { known, t } from '../i18n.js';

/** The words the page shows for the term `name`, in its language. */
export function term(name) {
  const key = `term.${name}`;
  return known(key) ? t(key) : name;
}

/** The help line for the term `name` (a badge's or heading's English words), or null. */
export function help(name) {
  const key = `help.${name}`;
  return known(key) ? t(key) : null;
}
