// node:test for live.js: appends applied once whatever the order, gaps found; streamed prose
// grown from deltas, replaced when the kernel sends all of it; initialize wired to a model.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ENDS_STREAM, appended, initialize, streamed } from "../src/live.js";

const event = (text) => ({ type: "inform", text });

test("an append adds its events once, wherever the copy already is", () => {
  const held = [event("a"), event("b")];
  assert.deepEqual(appended(held, { type: "append", start: 2, events: [event("c")] }),
    [event("a"), event("b"), event("c")]);
  // a second listener, or the whole trait having come already: nothing to do
  assert.equal(appended([...held, event("c")], { type: "append", start: 2, events: [event("c")] }), null);
  // part of it there (a trait update raced the message): the tail is the message's
  assert.deepEqual(appended([...held, event("c")], { type: "append", start: 2, events: [event("c"), event("d")] }),
    [event("a"), event("b"), event("c"), event("d")]);
});

test("events missing before an append are a gap, and so is a start that is not an index", () => {
  assert.equal(appended([event("a")], { type: "append", start: 3, events: [event("d")] }), "gap");
  assert.equal(appended([], { type: "append", start: -1, events: [] }), "gap");
  assert.equal(appended([], /** @type {any} */ ({ type: "append", start: "x", events: [] })), "gap");
  assert.equal(appended([], /** @type {any} */ ({ type: "append", start: 0 })), null);
});

test("streamed prose grows by its deltas; a delta for prose never seen keeps what is shown", () => {
  let stream = streamed(null, { type: "progress", turn: 1, at: 0, text: "Hel", writing: null });
  stream = streamed(stream, { type: "progress", turn: 1, at: 3, text: "lo", writing: "proposing: add-note" });
  assert.deepEqual(stream, { turn: 1, prose: "Hello", writing: "proposing: add-note" });
  // the end rewritten (an entity completed): the prose up to `at`, then the text
  assert.deepEqual(streamed({ turn: 1, prose: "Tom a", writing: null },
    { type: "progress", turn: 1, at: 4, text: "ϊ b", writing: null }),
  { turn: 1, prose: "Tom ϊ b", writing: null });
  // no text (the kernel's budget for the reply is spent): the prose stays, writing changes
  assert.deepEqual(streamed(stream, { type: "progress", turn: 1, writing: "asking a question" }),
    { turn: 1, prose: "Hello", writing: "asking a question" });
  // a view drawn mid-stream: the first delta it sees continues prose it never got
  assert.deepEqual(streamed(null, { type: "progress", turn: 1, at: 40, text: "more", writing: "asking a question" }),
    { turn: 1, prose: "", writing: "asking a question" });
  // the kernel sends all of the prose when it changed otherwise
  assert.deepEqual(streamed(stream, { type: "progress", turn: 1, prose: "Hi", writing: null }),
    { turn: 1, prose: "Hi", writing: null });
  // a new turn starts afresh
  assert.deepEqual(streamed(stream, { type: "progress", turn: 2, at: 0, text: "Next", writing: "" }),
    { turn: 2, prose: "Next", writing: null });
});

test("a reply, no reply, a stop and an error end the streamed bubble", () => {
  assert.deepEqual([...ENDS_STREAM].sort(), ["error", "no-reply", "reply", "stopped"]);
});

function fakeModel(transcript) {
  const listeners = new Map();
  const sent = [];
  const state = { transcript };
  return {
    sent,
    state,
    get: (key) => state[key],
    set: (key, value) => {
      state[key] = value;
      for (const callback of listeners.get(`change:${key}`) || []) callback();
    },
    on: (name, callback) => listeners.set(name, [...(listeners.get(name) || []), callback]),
    off: (name, callback) => listeners.set(name, (listeners.get(name) || []).filter((c) => c !== callback)),
    send: (message) => sent.push(message),
    emit: (name, message) => { for (const callback of listeners.get(name) || []) callback(message); },
  };
}

test("initialize says how much it holds, applies appends, and asks once across a gap", () => {
  const model = fakeModel([event("a")]);
  const dispose = initialize({ model });
  assert.deepEqual(model.sent, [{ type: "sync", length: 1 }]);
  model.emit("msg:custom", { type: "append", start: 1, events: [event("b")] });
  assert.deepEqual(model.state.transcript, [event("a"), event("b")]);
  model.emit("msg:custom", { type: "append", start: 5, events: [event("f")] });
  model.emit("msg:custom", { type: "append", start: 6, events: [event("g")] });
  assert.deepEqual(model.sent.slice(1), [{ type: "sync", length: 2 }]); // once, until the trait comes
  model.set("transcript", [1, 2, 3, 4, 5, 6].map(String).map(event));
  model.emit("msg:custom", { type: "append", start: 6, events: [event("7")] });
  assert.equal(model.state.transcript.length, 7);
  dispose();
  model.emit("msg:custom", { type: "append", start: 7, events: [event("8")] });
  assert.equal(model.state.transcript.length, 7);
});
