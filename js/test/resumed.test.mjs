// node:test for a conversation carried on after a restart (items.js, drawn by view.js; issue
// 27, item 8): "what was waiting for you is back, above" — the waiting card is shown once,
// above that line, with the dry run the domain made of it now; no stale copy marked Proposed.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { mounted, text } from "./model-double.mjs";
import { itemsOf } from "../src/items.js";
import { entriesOf } from "../src/log.js";
import { render } from "../src/view.js";

install();

const dryRun = (before, after) => ({ ok: true, summary: `sales → t: ${before} → ${after} rows`,
  effect: { frame: "sales", into: "t", rows: [before, after], columns: [6, 2] } });
const OLD = { type: "suggestion", id: "sg-2", action: "group-aggregate", payload: { frame: "sales" }, preview: "Group sales",
  dry_run: dryRun(49, 1) };
const NOW = { ...OLD, dry_run: dryRun(200, 4) };
const RESUMED = { type: "resumed", session: "eda.json", saved_at: "2026-12-01T10:00:00+00:00", waiting: true };
const PENDING = { kind: "decide", token: "d1", id: "sg-2", action: "group-aggregate", payload: { frame: "sales" }, issue: null, errors: [], edits_left: 3 };

test("the card re-offered after a restart is the one above the line, with its current dry run", () => {
  const items = itemsOf([{ type: "person", text: "group it" }, OLD, RESUMED, NOW], PENDING);
  assert.deepEqual(items.map((i) => i.kind), ["person", "suggestion", "status"]);
  assert.equal(items[1].status, "pending");
  assert.deepEqual(items[1].event.dry_run, NOW.dry_run);
  // its outcome, later, is still its own
  const done = itemsOf([OLD, RESUMED, NOW, { type: "outcome", id: "sg-2", status: "done" }], {});
  assert.deepEqual(done.map((i) => [i.kind, i.status]), [["suggestion", "done"], ["status", undefined]]);
});

test("without a restart between them, a second card with a used id is a card of its own", () => {
  const items = itemsOf([OLD, { type: "outcome", id: "sg-2", status: "dismissed" }, RESUMED, NOW], PENDING);
  assert.deepEqual(items.map((i) => i.status), ["dismissed", undefined, "pending"]);
});

test("drawn: one card, waiting, above 'what was waiting for you is back, above'", () => {
  const { el } = mounted(render, { transcript: [OLD, RESUMED, NOW], pending: PENDING });
  const cards = el.querySelectorAll("[data-dial-suggestion]");
  assert.equal(cards.length, 1);
  assert.equal(cards[0].getAttribute("data-dial-status"), "pending");
  assert.match(text(cards[0].querySelector("[data-dial-dry-run-rows]")), /200 → 4 rows/);
  const line = el.querySelector("[data-dial-resumed]");
  assert.match(text(line), /what was waiting for you is back, above\.$/);
  const children = entriesOf(el.querySelector(".dial-log"));
  assert.ok(children.indexOf(cards[0]) < children.indexOf(line), "above the line");
});
