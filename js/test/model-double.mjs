// The model double the view's tests render against (anywidget's model as the view uses it):
// traits with change events, what the view sends, and custom messages from the "kernel".
// Needs the DOM of dom-shim.mjs installed first.

import { install } from "./dom-shim.mjs";

/**
 * A model holding `state` over the traits every view reads.
 * @param {object} state
 * @param {object} [defaults]  traits a test file sets for all its tests (schemas, rules…)
 */
export function fakeModel(state, defaults = {}) {
  const listeners = new Map();
  const sent = [];
  const traits = { transcript: [], pending: {}, thinking: false, running: false, schemas: {}, title: "", ...defaults, ...state };
  return {
    sent,
    get: (key) => traits[key],
    set: (key, value) => {
      traits[key] = value;
      for (const callback of listeners.get(`change:${key}`) || []) callback();
    },
    on: (name, callback) => listeners.set(name, [...(listeners.get(name) || []), callback]),
    off: (name, callback) => listeners.set(name, (listeners.get(name) || []).filter((c) => c !== callback)),
    send: (message) => sent.push(structuredClone(message)),
    emit: (message) => { for (const callback of listeners.get("msg:custom") || []) callback(message); },
  };
}

/**
 * The widget drawn by `render` from `state`; `sent()` leaves out the view's own sync / ping,
 * `card(id)` finds a card, `set` changes a trait and waits for the redraw.
 * @param {(args: {model: any, el: any}) => () => void} render
 * @param {object} state
 * @param {{defaults?: object, card?: string}} [options]
 */
export function mounted(render, state, { defaults = {}, card: first = "s1" } = {}) {
  const model = fakeModel(state, defaults);
  const el = document.createElement("div");
  document.body.append(el);
  const dispose = render({ model, el });
  const card = (id = first) => el.querySelector(`[data-dial-suggestion="${id}"]`);
  const sent = () => model.sent.filter((m) => !["sync", "ping"].includes(m.type));
  const set = async (key, value) => {
    model.set(key, value);
    await Promise.resolve(); // redraws are batched per microtask
  };
  return { model, el, card, sent, set, dispose };
}

/** Type `value` into an input, a form field or a textarea, as a person would. */
export function type(input, value) {
  input.focus();
  input.value = value;
  input.dispatchEvent(new (install().Event)("input"));
}

/** A node's text with its white space collapsed (null for no node). */
export const text = (node) => (node ? node.textContent.replace(/\s+/g, " ").trim() : null);
