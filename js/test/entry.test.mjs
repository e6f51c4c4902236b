// node:test for the front end's one entry (js/src/widget.js, the bundle both widgets load): its
// render draws the Replay for a model whose `_view` trait is 'replay' and the ChatWidget for any
// other; its initialize hooks a ChatWidget's model (appends, sync) and leaves a Replay's alone.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { fakeModel } from "./model-double.mjs";

install();
const entry = await import("../src/widget.js");
const { viewOf } = entry;
const { initialize, render } = entry.default;

const transcript = JSON.parse(readFileSync(new URL("./fixtures/transcript.json", import.meta.url), "utf8"));

/** A Replay's model: its traits, and a save_changes that counts. */
function replayModel(state = {}) {
  const model = fakeModel({ _view: "replay", transcript, step: 0, title: "Monday", source: "", saved_at: "", ...state });
  model.saved = 0;
  model.save_changes = () => { model.saved += 1; };
  return model;
}

test("the default export is anywidget's: initialize and render", () => {
  assert.deepEqual(Object.keys(entry.default).sort(), ["initialize", "render"]);
  assert.equal(typeof render, "function");
  assert.equal(typeof initialize, "function");
});

test("the view is the replay only when the model's _view says so", () => {
  assert.equal(viewOf(replayModel()), "replay");
  assert.equal(viewOf(fakeModel({})), "chat");
  assert.equal(viewOf(fakeModel({ _view: "chat" })), "chat");
  assert.equal(viewOf(fakeModel({ _view: "something else" })), "chat");
});

test("a Replay's model is drawn as the replay, and steps", () => {
  const model = replayModel({ step: 2 });
  const el = document.createElement("div");
  document.body.append(el);
  const dispose = render({ model, el });
  assert.ok(el.querySelector("[data-dial-replay]"));
  assert.equal(el.querySelector("[data-dial-composer], textarea[data-dial-say]"), null);
  assert.equal(el.querySelector("[data-dial-replay-counter]").textContent, `Event 2 of ${transcript.length}`);
  el.querySelector("[data-dial-replay-action=next]").click();
  assert.equal(model.get("step"), 3);
  assert.equal(model.saved, 1);
  assert.deepEqual(model.sent, []); // a replay sends nothing to the kernel
  dispose();
  el.remove();
});

test("any other model is drawn as the ChatWidget", () => {
  const model = fakeModel({ transcript: [{ type: "person", text: "hello" }] });
  const el = document.createElement("div");
  document.body.append(el);
  const dispose = render({ model, el });
  assert.equal(el.querySelector("[data-dial-replay]"), null);
  assert.ok(el.querySelector(".dial-chat"));
  assert.ok(el.querySelector("textarea"));
  dispose();
  el.remove();
});

test("initialize hooks a ChatWidget's model and leaves a Replay's alone", () => {
  const replay = replayModel();
  assert.equal(initialize({ model: replay }), undefined);
  assert.deepEqual(replay.sent, []);
  const chat = fakeModel({ transcript: [{ type: "person", text: "hello" }] });
  const stop = initialize({ model: chat });
  assert.deepEqual(chat.sent, [{ type: "sync", length: 1 }]);
  chat.emit({ type: "append", start: 1, events: [{ type: "person", text: "again" }] });
  assert.equal(chat.get("transcript").length, 2);
  stop();
});
