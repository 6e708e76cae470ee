// Web Push on this device (docs/push.md): subscribes through the service
// worker's `pushManager` with the server's VAPID key and registers the
// subscription (`POST /v1/me/push-subscriptions`); stopping unsubscribes and
// deletes it. The service worker (web/sw.js) shows each push and opens its
// game. The section carries `data-push-state` (`unsupported`, `off`, `on`).

import { h } from './dom.js';
import { call, get, post } from './api.js';
import { explain, flash } from './ui.js';
import { t } from './i18n.js';

const KEPT = 'hatstand.push-subscription';

/** URL-safe base64 (no padding) as bytes, as `applicationServerKey` takes it. */
function bytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function supported() {
  return 'serviceWorker' in navigator && typeof PushManager !== 'undefined'
    && typeof Notification !== 'undefined';
}

/** Subscribes this device and registers it with the server. */
export async function subscribe() {
  if (Notification.permission !== 'granted' && await Notification.requestPermission() !== 'granted') {
    throw new Error(t('push.not_allowed'));
  }
  const registration = await navigator.serviceWorker.ready;
  const { public_key: key } = await get('/v1/push/key');
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: bytes(key) });
  const stored = await post('/v1/me/push-subscriptions', subscription.toJSON());
  localStorage.setItem(KEPT, stored.id);
  return stored;
}

/** Unsubscribes this device and removes its registration. */
export async function unsubscribe() {
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  const id = localStorage.getItem(KEPT);
  if (id) await call('DELETE', `/v1/me/push-subscriptions/${id}`).catch(() => {});
  localStorage.removeItem(KEPT);
  if (subscription) await subscription.unsubscribe();
}

/** The settings' panel: push to this device, on or off. */
export function pushForm() {
  const panel = h('div', { class: 'panel', id: 'push-settings' });
  const draw = () => {
    if (!supported()) {
      panel.dataset.pushState = 'unsupported';
      panel.replaceChildren(h('p', { class: 'hint' },
        t('push.unsupported')));
      return;
    }
    const on = Boolean(localStorage.getItem(KEPT));
    panel.dataset.pushState = on ? 'on' : 'off';
    const button = h('button', { type: 'button', id: on ? 'push-off' : 'push-on',
      onClick: async () => {
        button.disabled = true;
        try {
          await (on ? unsubscribe() : subscribe());
          flash(on ? t('push.stopped') : t('push.started'), 'info');
        } catch (error) {
          flash(explain(error));
        }
        draw();
      } }, on ? t('push.stop') : t('push.start'));
    panel.replaceChildren(button, h('p', { class: 'hint' },
      t('push.hint')));
  };
  draw();
  return panel;
}
