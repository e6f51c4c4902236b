// @ts-check
// DOM helpers. Agent text is untrusted: every string reaches the page through textContent, a
// text node or an attribute set by setAttribute on an element made here; never as HTML.

import { hiddenPieces } from "./text.js";

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Child | readonly Child[]} Children */

/**
 * An element: `className`, `text`, `value`, `checked` and `on…` listeners as properties,
 * everything else an attribute (true: present and empty; null, undefined, false: absent).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {{[name: string]: any}} [props]
 * @param {...Children} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "className") node.className = value;
    else if (name === "text") node.textContent = String(value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === "value") /** @type {HTMLInputElement} */ (node).value = value;
    else if (name === "checked") /** @type {HTMLInputElement} */ (node).checked = Boolean(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of /** @type {Child[]} */ (children.flat())) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * A button with the widget's look; `action` becomes its data-dial-action.
 * @param {Children} label
 * @param {string} action
 * @param {(event: MouseEvent) => void} onClick
 * @param {{kind?: string, aria?: string, disabled?: boolean}} [options]
 */
export function button(label, action, onClick, { kind = "", aria, disabled } = {}) {
  return h("button", {
    type: "button",
    className: `dial-button ${kind}`.trim(),
    "data-dial-action": action,
    "aria-label": aria,
    disabled,
    onClick,
  }, label);
}

let uniqueIds = 0;
/**
 * An id unique in the page: 'dial-field-7'.
 * @param {string} prefix
 */
export function uid(prefix) {
  uniqueIds += 1;
  return `dial-${prefix}-${uniqueIds}`;
}

/**
 * Text as DOM nodes with every hidden character shown as a marked ⟨U+202E⟩.
 * @param {unknown} text
 * @returns {Node[]}
 */
export function revealedNodes(text) {
  return hiddenPieces(text).map((piece) => (piece.hidden
    ? h("span", { className: "dial-hidden-char", title: `Invisible character ${piece.hidden}` }, `⟨${piece.hidden}⟩`)
    : document.createTextNode(/** @type {string} */ (piece.text))));
}

/**
 * One option row's text: label, then a muted description (the ask_user panel's rows and the
 * <dial-ask> choice card share this look, .dial-choice).
 * @param {unknown} label
 * @param {unknown} [description]
 */
export function choiceText(label, description) {
  return h("span", { className: "dial-choice-text" },
    h("span", { className: "dial-choice-label" }, String(label)),
    description ? h("span", { className: "dial-choice-desc" }, String(description)) : null);
}

/**
 * Any JSON value, pretty-printed in a code block (cut at 20,000 characters).
 * @param {unknown} value
 */
export function jsonBlock(value) {
  let text;
  try {
    text = JSON.stringify(value, null, 2);
  } catch {
    text = String(value);
  }
  if (text && text.length > 20000) text = `${text.slice(0, 20000)}\n…`;
  return h("pre", { className: "dial-code" }, h("code", {}, text ?? ""));
}

/**
 * Call `draw` after any of `traits` changes on `model` ("change:x" names), at most once per
 * microtask (the changes of one kernel message are drawn together); returns the function that
 * stops listening.
 * @param {{on: (name: string, f: () => void) => void, off: (name: string, f: () => void) => void}} model
 * @param {readonly string[]} traits
 * @param {() => void} draw
 * @returns {() => void}
 */
export function redrawOnChange(model, traits, draw) {
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      draw();
    });
  };
  for (const name of traits) model.on(name, schedule);
  return () => {
    for (const name of traits) model.off(name, schedule);
  };
}
