// node:test for the view's link to the kernel (js/src/link.js): a send is dropped once the link
// is lost and a send that throws loses it; comm_live_update sends a ping, and no pong within
// PING_MS loses the link; a view that lost it says so once and disables every control.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { fakeModel, mounted } from "./model-double.mjs";

install();
const { DISCONNECTED, PING_MS, linked, probe } = await import("../src/link.js");
const { render } = await import("../src/view.js");

test("a send goes to the kernel until the link is lost, then is dropped", () => {
  const connected = fakeModel({});
  const { model, link } = linked(connected);
  model.send({ type: "say", text: "one" });
  link.disconnected = true;
  model.send({ type: "say", text: "two" });
  assert.deepEqual(connected.sent, [{ type: "say", text: "one" }]);
});

test("a send that throws loses the link", (t) => {
  t.mock.method(console, "warn", () => {});
  const connected = { ...fakeModel({}), send: () => { throw new Error("comm closed"); } };
  const { model, link } = linked(connected);
  let lost = 0;
  link.lost = () => { lost += 1; };
  model.send({ type: "say", text: "hi" });
  assert.equal(lost, 1);
});

test("comm_live_update pings; a pong keeps the link, silence for PING_MS loses it", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const listeners = new Map();
  const sent = [];
  const connected = {
    on: (name, callback) => listeners.set(name, [...(listeners.get(name) || []), callback]),
    off: (name, callback) => listeners.set(name, (listeners.get(name) || []).filter((c) => c !== callback)),
    send: (message) => sent.push(message),
  };
  const fire = (name, ...args) => (listeners.get(name) || []).forEach((callback) => callback(...args));
  const link = { disconnected: false };
  let lost = 0;
  const stop = probe(connected, connected, link, () => { lost += 1; });
  fire("comm_live_update");
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type, "ping");
  fire("msg:custom", { type: "pong", id: "another" }); // not this ping's
  fire("msg:custom", { type: "pong", id: sent[0].id });
  t.mock.timers.tick(PING_MS + 1);
  assert.equal(lost, 0);
  fire("comm_live_update");
  assert.equal(sent.length, 2);
  t.mock.timers.tick(PING_MS - 1);
  assert.equal(lost, 0);
  t.mock.timers.tick(1);
  assert.equal(lost, 1);
  stop();
  fire("comm_live_update");
  assert.equal(sent.length, 2); // stopped: no more pings
});

test("a view whose send throws says it is not connected, once, and disables its controls", (t) => {
  t.mock.method(console, "warn", () => {});
  const { el, model } = mounted(render, { transcript: [{ type: "person", text: "hello" }] });
  model.send = () => { throw new Error("comm closed"); };
  const say = el.querySelector("textarea");
  say.value = "again";
  el.querySelector("[data-dial-action=say]").click();
  assert.ok(el.querySelector("[data-dial-disconnected]"), "the view says it is disconnected");
  assert.equal(el.querySelectorAll(".dial-disconnected-note").length, 1);
  assert.equal(el.querySelector(".dial-disconnected-note").textContent, DISCONNECTED);
  assert.ok([...el.querySelectorAll("button, textarea")].every((node) => node.disabled));
});
