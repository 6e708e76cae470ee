// The HTTP API as the page uses it: every call goes through `/v1` with the
// signed-in user's bearer token, and every refusal becomes an ApiError
// carrying the problem's stable `code` and its `detail` in words.

import { language } from './i18n.js';

const SESSION_KEY = 'hatstand.session';

/** A refusal from the server (problem+json) or a network failure. */
export class ApiError extends Error {
  constructor(status, code, detail, body) {
    super(detail || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.body = body;
  }
}

/** The stored session: `{username, userId, accessToken, refreshToken, expiresAt}` or null. */
export function session() {
  try {
    return JSON.parse(localStorage.getItem(SESSION_KEY));
  } catch {
    return null;
  }
}

/** Who is signed in (a user id), or null. */
export function identity() {
  return session()?.userId ?? null;
}

function storeSession(value) {
  const before = identity();
  if (value) localStorage.setItem(SESSION_KEY, JSON.stringify(value));
  else localStorage.removeItem(SESSION_KEY);
  // `changed`: another account (or none): everything shown so far was its.
  window.dispatchEvent(new CustomEvent('hatstand:session', { detail: { changed: identity() !== before } }));
}

/** The refusal of an answer fetched for an account that is no longer signed in. */
function staleAnswer() {
  return new DOMException('the account changed while this was being fetched', 'AbortError');
}

async function parse(response) {
  const type = response.headers.get('content-type') || '';
  if (response.status === 204) return null;
  if (type.includes('json')) return response.json();
  return response.text();
}

async function raw(method, path, { body, token, headers = {}, signal } = {}) {
  // Never through the browser's HTTP cache: a body is one viewer's, and the
  // page keeps nothing of another account's.
  // Problem titles in the page's language (docs/i18n.md).
  const init = { method, headers: { Accept: 'application/json', 'Accept-Language': language(), ...headers },
    signal, cache: 'no-store' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (token) init.headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'the server cannot be reached', null);
  }
  const data = await parse(response);
  if (!response.ok) {
    const problem = data && typeof data === 'object' ? data : {};
    throw new ApiError(response.status, problem.code, problem.detail || problem.title, problem);
  }
  return data;
}

let refreshing = null;

/** A valid access token, refreshed when it is about to expire; null when signed out. */
async function accessToken() {
  const current = session();
  if (!current) return null;
  if (Date.now() < current.expiresAt - 30_000) return current.accessToken;
  if (!current.refreshToken) return current.accessToken;
  refreshing ??= raw('POST', '/v1/auth/refresh', { body: { refresh_token: current.refreshToken } })
    .then((tokens) => {
      storeSession({ ...current, ...tokensOf(tokens) });
      return tokens.access_token;
    })
    .catch((error) => {
      if (error.status === 401) storeSession(null);
      throw error;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

function tokensOf(tokens) {
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    expiresAt: Date.now() + (tokens.expires_in ?? 900) * 1000,
  };
}

/** Calls the API as the signed-in user (anonymously when signed out). */
export async function call(method, path, options = {}) {
  const who = identity();
  const token = await accessToken();
  let answer;
  try {
    answer = await raw(method, path, { ...options, token });
  } catch (error) {
    if (identity() !== who) throw staleAnswer();
    if (error.status === 401 && token) storeSession(null);
    throw error;
  }
  // Signed out, or in as someone else, while it was on its way: it is not
  // this viewer's to see.
  if (identity() !== who) throw staleAnswer();
  return answer;
}

export const get = (path, options) => call('GET', path, options);
export const post = (path, body, options = {}) => call('POST', path, { ...options, body });

/** Signs in and keeps the session in this browser. */
export async function signIn(username, password) {
  const tokens = await raw('POST', '/v1/auth/login', { body: { username, password } });
  const me = JSON.parse(atob(tokens.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  storeSession({ username, userId: me.sub, ...tokensOf(tokens) });
}

/** Creates an account, then signs in to it. */
export async function signUp(username, password) {
  await raw('POST', '/v1/auth/register', { body: { username, password } });
  await signIn(username, password);
}

/** Ends the session on the server (best effort) and in this browser. */
export async function signOut() {
  const current = session();
  if (current) {
    await raw('POST', '/v1/auth/logout', { token: current.accessToken }).catch(() => {});
  }
  storeSession(null);
}

/** Sends `command` to game `id` at `version`. */
export function sendCommand(id, version, command) {
  return post(`/v1/games/${id}/commands`, { expected_version: version, command });
}

/**
 * Follows a server-sent event stream (`path`, with the bearer token, which
 * EventSource cannot send) and calls `onEvent({id, event, data})` for each
 * event. Reconnects after a drop, resuming after the last id. Returns a
 * function that stops it.
 */
export function follow(path, onEvent, { onState } = {}) {
  const controller = new AbortController();
  let lastId = null;
  let stopped = false;
  const run = async () => {
    while (!stopped) {
      try {
        const token = await accessToken();
        const headers = { Accept: 'text/event-stream' };
        if (token) headers.Authorization = `Bearer ${token}`;
        if (lastId !== null) headers['Last-Event-ID'] = String(lastId);
        const response = await fetch(path, { headers, signal: controller.signal, cache: 'no-store' });
        if (!response.ok) throw new ApiError(response.status, 'stream', `stream answered ${response.status}`);
        onState?.('live');
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, '\n');
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event = { id: null, event: 'message', data: '' };
            const data = [];
            for (const line of block.split('\n')) {
              if (!line || line.startsWith(':')) continue;
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'id') event.id = text;
              else if (field === 'event') event.event = text;
              else if (field === 'data') data.push(text);
            }
            if (!data.length && event.id === null) continue;
            event.data = data.join('\n');
            if (event.id !== null) lastId = event.id;
            onEvent(event);
          }
        }
      } catch (error) {
        if (stopped || error.name === 'AbortError') return;
        if (error.status === 401 || error.status === 404) {
          onState?.('closed');
          return;
        }
      }
      if (stopped) return;
      onState?.('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  run();
  return () => {
    stopped = true;
    controller.abort();
  };
}
