// The page's words in the reader's language (docs/i18n.md): English and
// French, one message file each (web/i18n/en.json, fr.json), the same keys
// in both (a test compares them).
//
// Rules it keeps:
// - The language is the account's `language` setting (`/v1/me/settings`,
//   kept in this browser once read), else the browser's preferred languages,
//   else English.
// - `t(key, vars)` fills `{name}` from `vars`; a message that is an object
//   is chosen by the plural rule of `vars.n` (`one`, `other`, …). A key
//   missing from French falls back to English, then to the key itself.
// - Only words change: codes, ids and the API's field names never do. API
//   calls send `Accept-Language`, so problem titles come in the same language.

export const LANGUAGES = ['en', 'fr'];
const CHOICE_KEY = 'hatstand.language';

let current = 'en';
let messages = {};
let english = {};
let plurals = new Intl.PluralRules('en');

/** The language the page is in: `en` or `fr`. */
export function language() {
  return current;
}

/** The message `key` in the page's language, `{name}`s filled from `vars`. */
export function t(key, vars = {}) {
  let text = messages[key] ?? english[key] ?? key;
  if (typeof text === 'object') text = text[plurals.select(Number(vars.n))] ?? text.other;
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Whether the page has a message `key` (in its language or in English). */
export function known(key) {
  return key in messages || key in english;
}

/** The language chosen for this browser's account (`en`, `fr`), or null: follow the browser. */
export function chosenLanguage() {
  const chosen = localStorage.getItem(CHOICE_KEY);
  return LANGUAGES.includes(chosen) ? chosen : null;
}

/** The browser's first preferred language the page speaks, else English. */
function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

async function fetchMessages(code) {
  const response = await fetch(`/i18n/${code}.json`);
  if (!response.ok) throw new Error(`/i18n/${code}.json answered ${response.status}`);
  return response.json();
}

/**
 * Loads the messages of `choice` (or, null, of the browser's language) and
 * keeps `choice` for this browser; resolves to the language now in use.
 * Failing to load French leaves the page in English.
 */
export async function useLanguage(choice = chosenLanguage()) {
  if (choice) localStorage.setItem(CHOICE_KEY, choice);
  else localStorage.removeItem(CHOICE_KEY);
  const wanted = choice || browserLanguage();
  try {
    if (!Object.keys(english).length) english = await fetchMessages('en');
    messages = wanted === 'en' ? english : await fetchMessages(wanted);
    current = wanted;
  } catch {
    messages = english;
    current = 'en';
  }
  plurals = new Intl.PluralRules(current);
  document.documentElement.lang = current;
  return current;
}
