// The rules of one game, written for players (`web/rules/<ruleset>.txt`, and
// `<ruleset>.fr.txt` in French, read when the page is in French),
// with its rulings in plain words and small drawn examples. The texts use a
// small markup, drawn here into elements (never as HTML):
//
//   # Title            ## Section          a paragraph, over several lines
//   - a bullet         1. a numbered step  a blank line ends a block
//   **bold**           `code`              [a link](#/new)
//   ::cards H5 F2 W6   cards drawn by the ruleset's board (card games)
//   ::stack red blue   a Top Hats stack, bottom hat first

import { h, s } from '../dom.js';
import { rulesetName } from '../format.js';
import { boardFor } from '../games/index.js';
import { language, t } from '../i18n.js';

/** The rules text of `ruleset` in the page's language, else in English; null if there is none. */
async function rulesText(ruleset) {
  const names = language() === 'en' ? [`${ruleset}.txt`] : [`${ruleset}.${language()}.txt`, `${ruleset}.txt`];
  for (const name of names) {
    try {
      const response = await fetch(`/rules/${name}`, { cache: 'no-cache' });
      if (response.ok) return await response.text();
    } catch {
      // Offline or refused: try the next name, then give up.
    }
  }
  return null;
}

export async function show(root, { ruleset }) {
  const text = /^[a-z-]+$/.test(ruleset) ? await rulesText(ruleset) : null;
  if (text === null) {
    root.append(h('h1', {}, t('rules.none')),
      h('p', {}, t('rules.none_for'), ' ', h('code', {}, ruleset), '. ', h('a', { href: '#/new' }, t('rules.start'))));
    return;
  }
  document.title = `${t('rules.doc_title', { game: rulesetName(ruleset) })} · hatstand`;
  root.append(h('article', { class: 'rules', id: 'rules', 'data-ruleset': ruleset }, render(text, ruleset)));
}

/** The blocks of `text` as elements. */
export function render(text, ruleset) {
  const out = [];
  let list = null;
  let paragraph = [];
  const endParagraph = () => {
    if (paragraph.length) out.push(h('p', {}, inline(paragraph.join(' '))));
    paragraph = [];
  };
  const endList = () => {
    list = null;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const item = line.match(/^(-|\d+\.) (.*)$/);
    if (!line.trim()) {
      endParagraph();
      endList();
    } else if (line.startsWith('#')) {
      endParagraph();
      endList();
      const level = line.match(/^#+/)[0].length;
      out.push(h(level === 1 ? 'h1' : 'h2', {}, inline(line.slice(level).trim())));
    } else if (line.startsWith('::')) {
      endParagraph();
      endList();
      out.push(example(line.slice(2).trim(), ruleset));
    } else if (item) {
      endParagraph();
      const tag = item[1] === '-' ? 'ul' : 'ol';
      if (!list || list.tagName.toLowerCase() !== tag) {
        list = h(tag, {});
        out.push(list);
      }
      list.append(h('li', {}, inline(item[2])));
    } else if (list && /^\s+/.test(line)) {
      list.lastChild.append(' ', ...inline(line.trim()));
    } else {
      endList();
      paragraph.push(line.trim());
    }
  }
  endParagraph();
  return out;
}

/** `**bold**`, `` `code` `` and `[text](href)` within a line. */
function inline(text) {
  const parts = [];
  const pattern = /\*\*(.+?)\*\*|`(.+?)`|\[(.+?)\]\((#[^)\s]*|https?:[^)\s]*)\)/g;
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    parts.push(text.slice(at, m.index));
    if (m[1]) parts.push(h('strong', {}, m[1]));
    else if (m[2]) parts.push(h('code', {}, m[2]));
    else parts.push(h('a', { href: m[4] }, m[3]));
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  return parts.filter((p) => p !== '');
}

/** A drawn example: `cards C1 C2 …` or `stack colour …`. */
function example(spec, ruleset) {
  const [kind, ...items] = spec.split(/\s+/);
  if (kind === 'cards') {
    const board = boardFor(ruleset);
    return h('div', { class: 'cb-cards rules-example', role: 'group', 'aria-label': t('rules.example', { cards: items.join(', ') }) },
      items.map((code) => board.picture(code)));
  }
  if (kind === 'stack') return stack(items);
  return h('p', {}, spec);
}

const HAT_INK = { red: '#c62828', blue: '#1565c0', yellow: '#f9a825', neutral: '#9e9e9e' };

/** A Top Hats stack seen from the side, bottom hat first in `colours`. */
function stack(colours) {
  const height = 18 * colours.length + 8;
  return s('svg', { class: 'rules-stack', viewBox: `0 0 60 ${height}`, width: 60, height, role: 'img',
    'aria-label': t('rules.stack', { hats: colours.join(', ') }) },
  colours.map((colour, i) => s('g', {},
    s('rect', { x: 14, y: height - 18 * (i + 1) - 4, width: 32, height: 14, rx: 3, fill: HAT_INK[colour] || '#777',
      stroke: '#1d1d1d', 'stroke-width': 1 }),
    s('rect', { x: 6, y: height - 18 * i - 6, width: 48, height: 3, rx: 1.5, fill: '#1d1d1d' }))));
}
