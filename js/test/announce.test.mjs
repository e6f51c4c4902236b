// node:test for announce.js: what a screen reader is told of the conversation — a new entry
// once, a card's new status once, a card redrawn with the same status nothing, a shown-again
// conversation nothing, and the region keeps only its last few lines.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";

install();
const { announcer, saidOf } = await import("../src/announce.js");
const { h } = await import("../src/dom.js");

const card = (/** @type {string} */ status) => h("article", { "aria-label": "Suggestion: Add a note" },
  h("div", {}, h("span", { className: "dial-action-name" }, "add-note"), h("span", { className: "dial-chip" }, status)),
  h("div", {}, "Because you asked."), h("button", {}, "Accept"));
const entries = (/** @type {[string, Element][]} */ ...pairs) => new Map(pairs.map(([key, node]) => [key, { node }]));

test("a card says its name and its status; anything else its text", () => {
  assert.equal(saidOf(card("Done")), "Suggestion: Add a note: Done");
  assert.equal(saidOf(h("div", {}, "Done:  64 rows\n are left."), "inform"), "Agent: Done: 64 rows are left.");
  assert.equal(saidOf(h("div", {}, "hello"), "person"), "You: hello");
});

test("each change is said once: a new entry, a new status; a redraw with the same status is not", () => {
  const a = announcer();
  assert.deepEqual(a.update(entries(["s:1", card("Waiting for you")])), []); // shown again: no change
  assert.deepEqual(a.update(entries(["s:1", card("Waiting for you")])), []); // redrawn, same status
  assert.deepEqual(a.update(entries(["s:1", card("Proposed")])), ["Suggestion: Add a note: Proposed"]);
  assert.deepEqual(a.update(entries(["s:1", card("Done")], ["i:2", h("div", {}, "All done.")])),
    ["Suggestion: Add a note: Done", "Update: All done."]);
  assert.deepEqual(a.update(entries(["s:1", card("Done")], ["i:2", h("div", {}, "All done.")])), []);
  assert.equal(a.node.getAttribute("aria-live"), "polite");
  assert.deepEqual(a.node.children.map((p) => p.textContent),
    ["Suggestion: Add a note: Proposed", "Suggestion: Add a note: Done", "Update: All done."]);
});

test("the region keeps its last four lines; an entry gone and back is new again", () => {
  const a = announcer();
  a.update(entries());
  for (let i = 0; i < 6; i += 1) a.update(entries([`i:${i}`, h("div", {}, `line ${i}`)]));
  assert.deepEqual(a.node.children.map((p) => p.textContent), ["Update: line 2", "Update: line 3", "Update: line 4", "Update: line 5"]);
  assert.deepEqual(a.update(entries(["i:0", h("div", {}, "line 0")])), ["Update: line 0"]);
});
