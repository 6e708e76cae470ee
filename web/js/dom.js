// Small DOM helpers shared by every page and every board.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Sets attributes (`on…` functions become listeners) and appends children. */
function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'style') {
      // Through the CSSOM: the page's Content Security Policy refuses style attributes.
      el.style.cssText = String(value);
    } else if (key === 'text') {
      el.textContent = String(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: `h('button', {class: 'x', onClick: f}, 'label')`. */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same shape as `h`. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/**
 * Makes `el` a control: focusable, announced as a button with `label`, and
 * activated by a click, Enter or Space. Returns `el`.
 */
export function activatable(el, label, onActivate) {
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'button');
  el.setAttribute('aria-label', label);
  el.classList.add('activatable');
  el.addEventListener('click', (event) => {
    event.preventDefault();
    onActivate(event);
  });
  el.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onActivate(event);
    }
  });
  return el;
}

/**
 * Makes `el` send `command` when activated: the one way a board offers a
 * move. The command is written on the element (`data-cmd`) so tests and
 * assistive tools can read what a click does.
 */
export function moveControl(el, command, label, send) {
  el.dataset.cmd = JSON.stringify(command);
  return activatable(el, label, () => send(command));
}

/**
 * Makes `el` pick the first part of a move (a card that still needs a
 * target): `data-select` holds `key`, `aria-pressed` whether it is picked.
 */
export function selectControl(el, key, label, picked, onPick) {
  el.dataset.select = key;
  el.setAttribute('aria-pressed', picked ? 'true' : 'false');
  return activatable(el, label, () => onPick(key));
}

/** Deep equality of two JSON values (commands are compared as values). */
export function sameJson(a, b) {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  }
  return value;
}
