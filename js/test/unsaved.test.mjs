// node:test for unsaved.js: the widget state a notebook saves (the manager's get_state) holds
// none of the conversation, while the model still reads it whole.
import assert from "node:assert/strict";
import { test } from "node:test";

import { keepUnsaved, leaveOut } from "../src/unsaved.js";

/** A widget manager's model (Backbone's attributes, get_state) and anywidget's proxy of it. */
function managed(attributes) {
  const backbone = {
    attributes: { ...attributes },
    get(key) { return this.attributes[key]; },
    set(key, value) { this.attributes[key] = value; },
    unset(key) { delete this.attributes[key]; },
    get_state() { return { ...this.attributes }; },
  };
  const other = { get: () => undefined, get_state: () => ({ transcript: ["theirs"] }) };
  const manager = { _models: { a: Promise.resolve(other), b: Promise.resolve(backbone),
                               c: Promise.reject(new Error("a model that failed")) } };
  const proxy = { get: (key) => backbone.get(key), set: (key, value) => backbone.set(key, value),
                  widget_manager: manager };
  return { backbone, other, proxy };
}

test("the state a manager saves leaves the transcript out; reading it does not", async () => {
  const events = [{ type: "person", text: "hi" }];
  const { backbone, other, proxy } = managed({ transcript: events, pending: {} });
  assert.equal(await keepUnsaved(proxy), true);
  assert.deepEqual(backbone.get_state(true), { pending: {} });
  assert.equal(proxy.get("transcript"), events);
  backbone.set("transcript", [...events, { type: "reply", turn: 1, text: "ok" }]);
  assert.deepEqual(backbone.get_state(false), { pending: {} });
  assert.equal(proxy.get("transcript").length, 2);
  assert.equal("_dial_unsaved" in backbone.attributes, false); // the probe is gone
  assert.deepEqual(other.get_state(), { transcript: ["theirs"] }); // another widget: as it was
});

test("without a manager's models, nothing changes", async () => {
  assert.equal(await keepUnsaved({ get: () => [], set() {} }), false);
  const model = { get_state: () => ({ transcript: [1], title: "t" }) };
  leaveOut(model, ["transcript"]);
  assert.deepEqual(model.get_state(), { title: "t" });
});

test("a manager whose models hold none behind this proxy: saved as before, no probe left", async () => {
  const mine = { attributes: {}, get(key) { return this.attributes[key]; }, set(key, value) { this.attributes[key] = value; } };
  const manager = { _models: { a: Promise.resolve({ get: () => undefined, get_state: () => ({}) }) } };
  const proxy = { get: (key) => mine.get(key), set: (key, value) => mine.set(key, value), widget_manager: manager };
  assert.equal(await keepUnsaved(proxy), false);
  assert.equal(mine.attributes._dial_unsaved, undefined, "nothing of the probe saved with the state");
});
