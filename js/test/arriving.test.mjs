// node:test for arriving.js: while the conversation is on its way from the kernel, the view's
// root says so (chat.css keeps the static copy after the widget hidden meanwhile); it stops
// saying so when the transcript comes, after ARRIVING_MS, or at once without a live comm.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ARRIVING, markArriving } from "../src/arriving.js";
import { fakeModel } from "./model-double.mjs";

function root() {
  const attributes = new Map();
  return {
    setAttribute: (name, value) => attributes.set(name, value),
    removeAttribute: (name) => attributes.delete(name),
    hasAttribute: (name) => attributes.has(name),
  };
}

const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("the root says the conversation is arriving until the transcript comes", async () => {
  const model = fakeModel({});
  const el = root();
  const stop = markArriving(model, el, { wait: 1000, live: async () => true });
  assert.equal(el.hasAttribute(ARRIVING), true);
  model.set("transcript", [{ type: "person", text: "hi" }]);
  assert.equal(el.hasAttribute(ARRIVING), true); // until the view has drawn it (a microtask)
  await later(0);
  assert.equal(el.hasAttribute(ARRIVING), false);
  stop();
});

test("nothing comes: the mark goes after the wait, and the copy shows", async () => {
  const model = fakeModel({});
  const el = root();
  markArriving(model, el, { wait: 20, live: async () => true });
  await later(60);
  assert.equal(el.hasAttribute(ARRIVING), false);
});

test("no live comm (saved widget state, no kernel): the mark goes at once", async () => {
  const model = fakeModel({});
  const el = root();
  markArriving(model, el, { wait: 10_000, live: async () => false });
  await later(0);
  assert.equal(el.hasAttribute(ARRIVING), false);
});

test("a transcript already there, or an empty one that stays empty, is never marked", () => {
  const el = root();
  markArriving(fakeModel({ transcript: [{ type: "person", text: "hi" }] }), el,
    { wait: 1000, live: async () => true });
  assert.equal(el.hasAttribute(ARRIVING), false);
});

test("stopping (the view disposed) removes the listener and the timer", async () => {
  const model = fakeModel({});
  const el = root();
  const stop = markArriving(model, el, { wait: 20, live: async () => true });
  stop();
  assert.equal(el.hasAttribute(ARRIVING), false);
  model.set("transcript", [{ type: "person", text: "hi" }]); // no listener left to throw
});

test("the view's root says when its log shows something (the copy after it is hidden then)", async () => {
  const { install } = await import("./dom-shim.mjs");
  install();
  const { render, FILLED } = await import("../src/view.js");
  const { mounted } = await import("./model-double.mjs");
  const widget = mounted(render, {});
  const root = widget.el.querySelector("[data-dial-root]");
  assert.equal(root.hasAttribute(FILLED), false);
  await widget.set("transcript", [{ type: "person", text: "hi" }]);
  assert.equal(root.hasAttribute(FILLED), true);
  widget.dispose();
});
