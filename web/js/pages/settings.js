// Settings: the account's turn settings (`/v1/me/settings`: forced moves
// played by the server). Email settings: the address the server writes to when it is your turn,
// the code that confirms it, and which mails come when (`/v1/me/email`).
// Three states: no address (a form to add one), an address waiting for its
// code (the code form, or another address), a confirmed address (the
// preferences, or removing it). The section carries `data-email-state`
// (`none`, `unconfirmed`, `confirmed`) for whoever reads the page. A
// confirmed address can be changed (the new one starts unconfirmed).

import { h } from '../dom.js';
import { call, get, post, session } from '../api.js';
import { explain, flash } from '../ui.js';
import { requireSignIn } from './signin.js';
import { choose, notificationsAllowed, preferences } from '../device.js';
import { pushForm } from '../push.js';
import { LANGUAGES, chosenLanguage, t, useLanguage } from '../i18n.js';

/** Each kind of mail, its label, and the modes it may take. */
const KINDS = [
  ['your_turn', ['immediately', 'digest', 'never']],
  ['reminder', ['immediately', 'never']],
  ['invited', ['immediately', 'digest', 'never']],
  ['game_finished', ['immediately', 'digest', 'never']],
  ['seat_substituted', ['immediately', 'digest', 'never']],
  ['tournament_round', ['immediately', 'digest', 'never']],
  ['tournament_finished', ['immediately', 'digest', 'never']],
];

export async function show(root) {
  if (!session()) return requireSignIn('#/settings');
  const section = h('section', { id: 'email-settings' });
  root.append(h('h1', {}, t('settings.title')),
    h('h2', {}, t('settings.language')),
    languageForm(),
    h('h2', {}, t('settings.email')),
    h('p', { class: 'muted' }, t('email.intro')),
    section,
    h('h2', {}, t('settings.turns')),
    turnsForm(),
    h('h2', {}, t('settings.device')),
    deviceForm(),
    pushForm(),
    h('h2', {}, t('blocks.title')),
    blocksSection());

  const draw = (settings) => {
    section.dataset.emailState = !settings ? 'none' : settings.confirmed ? 'confirmed' : 'unconfirmed';
    if (!settings) section.replaceChildren(addressForm(null, draw));
    else if (!settings.confirmed) section.replaceChildren(codeForm(settings, draw), addressForm(settings, draw));
    else {
      section.replaceChildren(preferencesForm(settings, draw),
        h('details', { class: 'panel', id: 'email-change' }, h('summary', {}, t('email.use_another')),
          h('p', { class: 'hint' }, t('email.use_another_hint')),
          addressForm(settings, draw)),
        removeForm(settings, draw));
    }
  };
  try {
    draw(await get('/v1/me/email'));
  } catch (error) {
    if (error.code !== 'not_found') throw error;
    draw(null);
  }
}

/** Whom the user blocks (`/v1/me/blocks`, docs/seats.md), each with an
 * Unblock button, and a form to block another. */
function blocksSection() {
  const section = h('section', { id: 'blocks' });
  const draw = (blocks) => {
    const name = h('input', { type: 'text', id: 'block-name', name: 'username', required: true,
      autocomplete: 'off', autocapitalize: 'off', maxlength: 64 });
    const submit = h('button', { type: 'submit' }, t('blocks.block'));
    const form = h('form', { id: 'block-form' },
      h('label', { for: 'block-name' }, t('blocks.name')), name,
      h('div', { class: 'actions' }, submit));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      busy(submit, async () => draw(await post('/v1/me/blocks', { username: name.value.trim() })));
    });
    section.replaceChildren(
      h('p', { class: 'hint' }, t('blocks.hint')),
      blocks.usernames.length
        ? h('ul', { id: 'blocked' }, blocks.usernames.map((username) => {
          const unblock = h('button', { type: 'button', class: 'quiet', 'data-action': 'unblock' }, t('blocks.unblock'));
          unblock.addEventListener('click', () => busy(unblock, async () =>
            draw(await call('DELETE', `/v1/me/blocks/${encodeURIComponent(username)}`))));
          return h('li', { 'data-username': username }, username, ' ', unblock);
        }))
        : h('p', { class: 'muted', id: 'blocked' }, t('blocks.none')),
      form);
  };
  get('/v1/me/blocks').then(draw).catch((error) => flash(explain(error)));
  return section;
}

/** Runs `action` with `button` disabled, showing a refusal in words. */
async function busy(button, action) {
  button.disabled = true;
  try {
    await action();
  } catch (error) {
    flash(explain(error));
  } finally {
    button.disabled = false;
  }
}

function addressForm(current, draw) {
  const address = h('input', { type: 'email', id: 'email-address', name: 'address', required: true,
    maxlength: 254, autocomplete: 'email', value: current?.address ?? '' });
  const submit = h('button', { type: 'submit', class: current ? 'quiet' : null },
    current?.confirmed ? t('email.change') : current ? t('email.send_new_code') : t('email.send_code'));
  const form = h('form', { class: current?.confirmed ? null : 'panel', id: 'email-address-form' },
    h('label', { for: 'email-address' }, current?.confirmed ? t('email.new_address')
      : current ? t('email.another_address') : t('email.your_address')),
    address,
    h('p', { class: 'hint' }, current?.confirmed ? t('email.one_a_minute')
      : `${t('email.code_hint')} ${t('email.one_a_minute')}`),
    h('div', { class: 'actions' }, submit));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(submit, async () => {
      const settings = await call('PUT', '/v1/me/email', { body: { address: address.value.trim() } });
      flash(t('email.code_sent', { address: settings.address }), 'info');
      draw(settings);
    });
  });
  return form;
}

function codeForm(settings, draw) {
  const code = h('input', { type: 'text', id: 'email-code', name: 'code', required: true, inputmode: 'numeric',
    autocomplete: 'one-time-code', pattern: '[0-9]{8}', maxlength: 8, autocapitalize: 'off' });
  const submit = h('button', { type: 'submit' }, t('email.confirm'));
  const form = h('form', { class: 'panel', id: 'email-code-form' },
    h('p', {}, t('email.code_mailed'), ' ', h('strong', { id: 'email-pending' }, settings.address), '.'),
    h('label', { for: 'email-code' }, t('email.the_code')), code,
    h('p', { class: 'hint' }, t('email.code_good_for')),
    h('div', { class: 'actions' }, submit));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(submit, async () => {
      const confirmed = await post('/v1/me/email/confirm', { code: code.value.trim() });
      flash(t('email.confirmed', { address: confirmed.address }), 'info');
      draw(confirmed);
    });
  });
  return form;
}

function preferencesForm(settings, draw) {
  const selects = KINDS.map(([kind, modes]) => [kind, t(`email.kind.${kind}`),
    h('select', { id: `mail-${kind}`, name: kind },
      modes.map((m) => h('option', { value: m, selected: settings.preferences[kind] === m }, t(`email.mode.${m}`))))]);
  const hour = h('select', { id: 'digest-hour', name: 'digest_hour' },
    Array.from({ length: 24 }, (_, i) =>
      h('option', { value: i, selected: settings.digest_hour === i }, `${String(i).padStart(2, '0')}:00`)));
  const zone = h('input', { type: 'text', id: 'time-zone', name: 'time_zone', required: true,
    autocapitalize: 'off', value: settings.time_zone });
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const submit = h('button', { type: 'submit' }, t('email.save'));
  const form = h('form', { class: 'panel', id: 'email-preferences' },
    h('p', {}, t('email.mails_go_to'), ' ', h('strong', { id: 'email-confirmed' }, settings.address), ` ${t('email.confirmed_tag')}`),
    selects.map(([kind, label, select]) => [h('label', { for: `mail-${kind}` }, label), select]),
    h('label', { for: 'digest-hour' }, t('email.digest_at')), hour,
    h('label', { for: 'time-zone' }, t('email.in_zone')), zone,
    here && here !== settings.time_zone
      ? h('p', { class: 'hint' }, h('button', { type: 'button', class: 'quiet', onClick: () => { zone.value = here; } },
        t('email.use_zone', { zone: here })))
      : null,
    h('div', { class: 'actions' }, submit));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(submit, async () => {
      const change = Object.fromEntries(selects.map(([kind, , select]) => [kind, select.value]));
      const saved = await call('PATCH', '/v1/me/email', {
        body: { ...change, digest_hour: Number(hour.value), time_zone: zone.value.trim() },
      });
      flash(t('common.saved'), 'info');
      draw(saved);
    });
  });
  return form;
}

function removeForm(settings, draw) {
  const remove = h('button', { type: 'button', class: 'danger', id: 'email-remove' }, t('email.remove'));
  remove.addEventListener('click', () => {
    if (!window.confirm(t('email.remove_confirm', { address: settings.address }))) return;
    busy(remove, async () => {
      await call('DELETE', '/v1/me/email');
      flash(t('email.removed'), 'info');
      draw(null);
    });
  });
  return h('div', { class: 'actions' }, remove);
}

/**
 * The account's turn settings (`/v1/me/settings`): whether the server plays
 * a forced move (one legal command) at once. Saved as soon as it changes.
 */
function turnsForm() {
  const forced = h('input', { type: 'checkbox', id: 'auto-play-forced', disabled: true });
  const panel = h('div', { class: 'panel', id: 'turn-settings' },
    h('label', { class: 'check' }, forced, t('settings.forced')),
    h('p', { class: 'hint' }, t('settings.forced_hint')));
  get('/v1/me/settings').then((settings) => {
    forced.checked = settings.auto_play_forced;
    forced.disabled = false;
    panel.dataset.loaded = 'true';
  }, (error) => flash(explain(error)));
  forced.addEventListener('change', async () => {
    forced.disabled = true;
    try {
      const saved = await call('PATCH', '/v1/me/settings', { body: { auto_play_forced: forced.checked } });
      forced.checked = saved.auto_play_forced;
      flash(t('common.saved'), 'info');
    } catch (error) {
      forced.checked = !forced.checked;
      flash(explain(error));
    } finally {
      forced.disabled = false;
    }
  });
  return panel;
}

/** Choices kept by this browser: confirming moves, browser notifications. */
function deviceForm() {
  const mine = preferences();
  const confirmMoves = h('input', { type: 'checkbox', id: 'confirm-moves', checked: mine.confirmMoves,
    onChange: () => choose({ confirmMoves: confirmMoves.checked }) });
  const notify = h('input', { type: 'checkbox', id: 'notify', checked: mine.notify && notificationsAllowed(),
    onChange: async () => {
      if (notify.checked && typeof Notification !== 'undefined' && Notification.permission !== 'granted') {
        await Notification.requestPermission();
      }
      if (notify.checked && !notificationsAllowed()) {
        notify.checked = false;
        flash(t('push.not_allowed'));
      }
      choose({ notify: notify.checked });
    } });
  return h('div', { class: 'panel', id: 'device-settings' },
    h('label', { class: 'check' }, confirmMoves, t('settings.confirm_moves')),
    h('label', { class: 'check' }, notify, t('settings.notify')),
    h('p', { class: 'hint' }, t('settings.tab_count')));
}

/**
 * The account's language (`/v1/me/settings` `language`, docs/i18n.md):
 * English, French, or as the browser says. Saved at once; the page is
 * drawn again in it.
 */
function languageForm() {
  const names = { en: 'English', fr: 'Français' };
  const select = h('select', { id: 'language', name: 'language' },
    h('option', { value: '' }, t('settings.language_auto')),
    LANGUAGES.map((code) => h('option', { value: code, lang: code, selected: chosenLanguage() === code }, names[code])));
  select.addEventListener('change', async () => {
    select.disabled = true;
    try {
      const saved = await call('PATCH', '/v1/me/settings', { body: { language: select.value || null } });
      await useLanguage(saved.language ?? null);
      window.dispatchEvent(new CustomEvent('hatstand:language'));
      flash(t('common.saved'), 'info');
    } catch (error) {
      flash(explain(error));
    } finally {
      select.disabled = false;
    }
  });
  return h('div', { class: 'panel', id: 'language-settings' },
    h('label', { for: 'language' }, t('settings.language')), select,
    h('p', { class: 'hint' }, t('settings.language_hint')));
}
