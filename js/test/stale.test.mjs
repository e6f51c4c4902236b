// node:test for a card checked again before it ran (cards.js, items.js): when what a proposal
// works on changed since it was proposed, the kernel sends the same card again with `stale` and
// a new dry run, and asks again. The card is redrawn in place (one card, not two) with the
// notice and the new dry run; a screen reader hears it once; agent text stays text.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { mounted as mountedWith, text } from "./model-double.mjs";
import { announcer } from "../src/announce.js";
import { itemsOf } from "../src/items.js";
import { words } from "../src/text.js";
import { render } from "../src/view.js";

install();

const CARD = {
  type: "suggestion", id: "s1", action: "add-column", text: "Revenue per row.",
  payload: { frame: "sales", column: "revenue", expression: "price * units" },
  preview: "Add revenue = price * units to sales", destructive: false, mutates: true,
  dry_run: { ok: true, summary: "sales: 2 rows, 3 columns" },
};
const STALE = {
  ...CARD, stale: { why: "sales changed since this was proposed", changed: ["sales"] },
  dry_run: { ok: true, summary: "sales: 3 rows, 3 columns" },
};
const pending = (token) => ({
  kind: "decide", token, id: "s1", action: "add-column", payload: CARD.payload, issue: null, errors: [], edits_left: null,
});

const mounted = (state) => mountedWith(render, state);

test("the card sent again with stale is the same card, with the notice and the new dry run", () => {
  const { card, el } = mounted({ transcript: [CARD, STALE], pending: pending("d2") });
  assert.equal(el.querySelectorAll("[data-dial-suggestion]").length, 1, "one card, redrawn in place");
  const notice = card().querySelector("[data-dial-stale]");
  assert.ok(notice, "the notice is shown");
  assert.equal(text(notice), words("stale", { why: "sales changed since this was proposed" }));
  assert.match(text(notice), /^sales changed since this was proposed\. What it will do was worked out again/);
  assert.match(text(card().querySelector("[data-dial-dry-run]")), /3 rows/, "the new dry run, not the first");
  assert.ok(card().querySelector("[data-dial-action=accept]"), "the person decides again");
});

test("a card that is not stale, or no longer waits, has no notice", () => {
  assert.equal(mounted({ transcript: [CARD], pending: pending("d1") }).card().querySelector("[data-dial-stale]"), null);
  const done = { type: "outcome", id: "s1", action: "add-column", status: "done", preview: CARD.preview };
  const after = mounted({ transcript: [CARD, STALE, done], pending: {} });
  assert.equal(after.card().querySelector("[data-dial-stale]"), null);
  assert.equal(after.card().getAttribute("data-dial-status"), "done");
});

test("a stale card is announced once, by its name, and not again when redrawn", async () => {
  const { card, set } = mounted({ transcript: [CARD], pending: pending("d1") });
  const said = announcer();
  said.update(new Map([["s0", { node: card() }]]));
  await set("transcript", [CARD, STALE]);
  await set("pending", pending("d2"));
  const lines = said.update(new Map([["s0", { node: card() }]]));
  assert.deepEqual(lines, [`Suggestion: ${CARD.preview}${words("stale-label")}: Waiting for you`]);
  assert.deepEqual(said.update(new Map([["s0", { node: card() }]])), [], "a redraw says nothing new");
});

test("the notice is text: markup in what changed is never HTML", () => {
  const hostile = { ...STALE, stale: { why: "<img src=x onerror=alert(1)> changed since this was proposed" } };
  const { card } = mounted({ transcript: [CARD, hostile], pending: pending("d2") });
  const notice = card().querySelector("[data-dial-stale]");
  assert.equal(notice.querySelector("img"), null);
  assert.match(text(notice), /^<img src=x onerror=alert\(1\)> changed/);
});

test("items: a stale event takes the earlier card's place; a card with an outcome is kept", () => {
  const [item] = itemsOf([CARD, STALE], pending("d2"));
  assert.equal(item.event, STALE);
  assert.equal(item.status, "pending");
  const done = { type: "outcome", id: "s1", action: "add-column", status: "done", preview: CARD.preview };
  assert.equal(itemsOf([CARD, done, STALE], {}).filter((i) => i.kind === "suggestion").length, 2,
    "an id used again after its outcome is a new card");
});
