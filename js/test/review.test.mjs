// node:test for a card's review (js/src/review.js, drawn by cards.js and view.js): what a
// proposal will do (its dry run, and again for the person's edit), the code with Copy, the
// footer's whole script, Undo and what becomes of it. The widget is rendered into the small DOM
// of dom-shim.mjs from a model double, and clicked, as a person would.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { mounted as mountedWith, text, type } from "./model-double.mjs";
import { itemsOf } from "../src/items.js";
import { STATUS_LABEL } from "../src/cards.js";
import { COPIED_MS, DRY_RUN_ANSWER_MS, DRY_RUN_WAIT_MS, canonical, countChange } from "../src/review.js";
import { render } from "../src/view.js";

const shim = install();

const table = (rows, total) => ({ columns: ["region", "units"], index: rows.map((_, i) => i), rows, total_rows: total });
const EFFECT = {
  frame: "sales", into: "sales", rows: [200, 64], columns: [6, 7], added: ["revenue"], removed: ["notes"],
  renamed: { amt: "amount" }, dtypes: { revenue: "float64" },
  sample: { before: table([["west", 3], ["east", 1]], 200), after: table([["west", 3]], 64) },
  sampled: "The sample is the first 5 rows of each.",
};
const CODE = "sales = sales[sales['region'] == 'west']";
const PAYLOAD = { frame: "sales", where: "region == 'west'" };
const FILTER = {
  type: "suggestion", id: "f1", action: "filter-rows", text: "Only the west?", payload: PAYLOAD,
  preview: "Keep the rows of sales where region == 'west'", destructive: false, mutates: true,
  dry_run: { ok: true, summary: "Keeps 64 of 200 rows.", effect: EFFECT, code: CODE },
};
const PENDING = { kind: "decide", token: "d1", id: "f1", action: "filter-rows", payload: PAYLOAD, issue: null, errors: [], edits_left: 3 };
const SCHEMAS = { "filter-rows": { type: "object", properties: { frame: { type: "string" }, where: { type: "string" } }, required: ["frame", "where"] } };
const DONE = { type: "outcome", id: "f1", action: "filter-rows", status: "done", preview: FILTER.preview,
  result: { frame: "sales", rows: 64, code: CODE } };

/** The widget drawn from `state` (model-double.mjs). */
const mounted = (state) => mountedWith(render, state, { defaults: { schemas: SCHEMAS }, card: "f1" });

test("a waiting card says what it will do, above its buttons: rows, columns, chips, a sample and the code", () => {
  const { card } = mounted({ transcript: [FILTER], pending: PENDING });
  const dry = card().querySelector("[data-dial-dry-run]");
  assert.equal(dry.getAttribute("data-dial-dry-run"), "ok");
  const children = card().children;
  assert.ok(children.indexOf(dry) < children.indexOf(card().querySelector(".dial-buttons")), "above the buttons");
  assert.match(text(dry), /^What it will do/);
  assert.equal(text(dry.querySelector(".dial-dry-run-summary")), "Keeps 64 of 200 rows.");
  assert.equal(text(dry.querySelector("[data-dial-dry-run-rows]")), "sales: 200 → 64 rows · 6 → 7 columns");
  const chips = (kind) => [text(dry.querySelector(`[data-dial-dry-run-chips=${kind}] .dial-chip-row-label`)),
    ...dry.querySelectorAll(`[data-dial-dry-run-chips=${kind}] .dial-col-chip`).map(text)];
  assert.deepEqual(chips("added"), ["Adds", "+ revenue"]);
  assert.deepEqual(chips("removed"), ["Removes", "− notes"]);
  assert.deepEqual(chips("renamed"), ["Renames", "amt → amount"]);
  assert.deepEqual(chips("dtypes"), ["Types", "revenue float64"]);
  assert.equal(text(dry.querySelector("[data-dial-dry-run-sampled]")), EFFECT.sampled);
  // the sample is collapsed; a click shows both tables, with the rows' index
  const toggle = dry.querySelector("[data-dial-toggle=sample]");
  const region = dry.querySelector(`#${toggle.getAttribute("aria-controls")}`);
  assert.equal(toggle.getAttribute("aria-expanded"), "false");
  assert.equal(region.hidden, true);
  toggle.click();
  assert.equal(region.hidden, false);
  assert.equal(text(region.querySelector("[data-dial-sample=before] .dial-sample-caption")), "Before · 2 of 200 rows");
  assert.equal(text(region.querySelector("[data-dial-sample=after] .dial-sample-caption")), "After · 1 of 64 rows");
  assert.deepEqual(region.querySelectorAll("[data-dial-sample=after] tbody td").map(text), ["0", "west", "3"]);
  // the code, collapsed, exactly
  const code = dry.querySelector("[data-dial-code]");
  assert.equal(text(code.querySelector("[data-dial-toggle=code]")), "Code · 1 line");
  assert.equal(code.querySelector("pre code").textContent, CODE);
  assert.equal(code.querySelector(".dial-disclosed").hidden, true);
  assert.ok(code.querySelector("[data-dial-action=copy-code]"));
  assert.equal(document.body.querySelectorAll("details").length, 0, "collapsed parts are not <details>");
});

test("a data-frames summary that says just what the counts say is not said twice", () => {
  const { card } = mounted({
    transcript: [{ ...FILTER, dry_run: { ...FILTER.dry_run, summary: "sales: 200 → 64 rows, 6 → 7 columns" } }], pending: PENDING,
  });
  const dry = card().querySelector("[data-dial-dry-run]");
  assert.equal(dry.querySelector(".dial-dry-run-summary"), null);
  assert.equal(text(dry.querySelector("[data-dial-dry-run-rows]")), "sales: 200 → 64 rows · 6 → 7 columns");
  const other = mounted({ transcript: [FILTER], pending: PENDING }).card().querySelector("[data-dial-dry-run]");
  const children = other.children;
  assert.equal(children.indexOf(other.querySelector(".dial-dry-run-summary")),
    children.indexOf(other.querySelector("[data-dial-dry-run-rows]")) + 1, "under the counts");
});

test("what the person opened stays open when the card is drawn again", async () => {
  const { card, set } = mounted({ transcript: [FILTER], pending: PENDING });
  card().querySelector("[data-dial-dry-run] [data-dial-toggle=code]").click();
  await set("pending", { ...PENDING, token: "d2" });
  const toggle = card().querySelector("[data-dial-dry-run] [data-dial-toggle=code]");
  assert.equal(toggle.getAttribute("aria-expanded"), "true");
});

test("a dry run that could not say is one muted line, and the buttons work", () => {
  const { card, sent } = mounted({
    transcript: [{ ...FILTER, dry_run: { ok: false, error: "it took longer than 1s to work out" } }], pending: PENDING,
  });
  const dry = card().querySelector("[data-dial-dry-run]");
  assert.equal(dry.getAttribute("data-dial-dry-run"), "unavailable");
  assert.equal(text(dry), "Effect unavailable: it took longer than 1s to work out");
  const accept = card().querySelector("[data-dial-action=accept]");
  assert.equal(accept.disabled, false);
  accept.click();
  assert.deepEqual(sent(), [{ type: "decide", token: "d1", decision: "accept" }]);
});

test("another domain's dry run: its summary, and its effect as JSON, collapsed", () => {
  const { card } = mounted({
    transcript: [{ ...FILTER, dry_run: { ok: true, summary: "Adds 1 note.", effect: { notes: [1, 2, 3] }, note: "Nothing is saved yet." } }],
    pending: PENDING,
  });
  const dry = card().querySelector("[data-dial-dry-run]");
  assert.equal(text(dry.querySelector(".dial-dry-run-summary")), "Adds 1 note.");
  assert.equal(dry.querySelector("[data-dial-dry-run-rows]"), null);
  assert.equal(text(dry.querySelector("[data-dial-toggle=effect]")), "Effect (JSON)");
  assert.deepEqual(JSON.parse(dry.querySelector(".dial-disclosed code").textContent), { notes: [1, 2, 3] });
  assert.equal(text(dry.querySelector("[data-dial-dry-run-note]")), "⚠ Nothing is saved yet.");
  // no dry run at all: no section
  const plain = mounted({ transcript: [{ ...FILTER, dry_run: undefined }], pending: PENDING });
  assert.equal(plain.card().querySelector("[data-dial-dry-run]"), null);
});

test("an edit is tried once it rests: the newest answer for it is shown, a stale one is not", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, sent, model } = mounted({ transcript: [FILTER], pending: PENDING });
  card().querySelector("[data-dial-action=edit]").click();
  const where = card().querySelector("[data-dial-path=where] input");
  type(where, "region == 'e'");
  type(where, "region == 'east'");
  const dry = () => card().querySelector("[data-dial-dry-run]");
  assert.equal(dry().getAttribute("data-dial-dry-run-edit"), "checking");
  assert.equal(text(dry().querySelector(".dial-dry-run-tag")), "Checking your edit…");
  assert.ok(card().querySelector(".dial-editor").contains(dry()), "inside the editor, above Save");
  assert.deepEqual(sent(), [], "not while the person is typing");
  t.mock.timers.tick(DRY_RUN_WAIT_MS);
  const edit = { frame: "sales", where: "region == 'east'" };
  assert.deepEqual(sent(), [{ type: "dry-run", token: "d1", payload: edit }], "once, the latest edit");
  // answers for an older edit, or for another token, are dropped
  const answer = (payload, token = "d1", summary = "Keeps 136 of 200 rows.") => model.emit({
    type: "dry-run", token, payload,
    result: { ok: true, summary, code: `sales = sales[sales['region'] == '${payload.where.split("'")[1]}']`, effect: { ...EFFECT, rows: [200, 136] } },
  });
  answer({ frame: "sales", where: "region == 'e'" }, "d1", "stale");
  answer(edit, "d0", "other token");
  assert.equal(dry().getAttribute("data-dial-dry-run-edit"), "checking");
  // the kernel's echo may order keys its own way
  answer({ where: "region == 'east'", frame: "sales" });
  assert.equal(dry().getAttribute("data-dial-dry-run-edit"), "answered");
  assert.equal(text(dry().querySelector(".dial-dry-run-tag")), "With your edit");
  assert.equal(text(dry().querySelector(".dial-dry-run-summary")), "Keeps 136 of 200 rows.");
  assert.equal(text(dry().querySelector("[data-dial-dry-run-rows]")), "sales: 200 → 136 rows · 6 → 7 columns");
  assert.equal(dry().querySelector("[data-dial-code] code").textContent, "sales = sales[sales['region'] == 'east']");
  // the field being typed in was not redrawn: focus and text stay
  assert.equal(document.activeElement, where);
  assert.ok(card().contains(where));
  // Save sends the edit as ever
  card().querySelector("[data-dial-action=save-edit]").click();
  assert.deepEqual(sent().at(-1), { type: "decide", token: "d1", decision: "edit", payload: edit });
});

test("an edit back to the proposal shows its own dry run; JSON that does not parse asks nothing", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, sent } = mounted({ transcript: [FILTER], pending: PENDING });
  card().querySelector("[data-dial-action=edit]").click();
  const where = card().querySelector("[data-dial-path=where] input");
  type(where, "x");
  type(where, PAYLOAD.where);
  t.mock.timers.tick(DRY_RUN_WAIT_MS);
  assert.deepEqual(sent(), []);
  const dry = card().querySelector("[data-dial-dry-run]");
  assert.equal(dry.getAttribute("data-dial-dry-run-edit"), "none");
  assert.equal(dry.querySelector(".dial-dry-run-tag"), null);
  card().querySelector("[data-dial-view=json]").click();
  type(card().querySelector("[data-dial-field=payload-json]"), '{"frame": "sales", "where": ');
  t.mock.timers.tick(DRY_RUN_WAIT_MS);
  assert.deepEqual(sent(), []);
  type(card().querySelector("[data-dial-field=payload-json]"), '{"frame": "sales", "where": "units > 2"}');
  t.mock.timers.tick(DRY_RUN_WAIT_MS);
  assert.deepEqual(sent(), [{ type: "dry-run", token: "d1", payload: { frame: "sales", where: "units > 2" } }]);
});

test("after Cancel the proposal's own dry run is shown again (Accept sends the proposal)", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, model } = mounted({ transcript: [FILTER], pending: PENDING });
  card().querySelector("[data-dial-action=edit]").click();
  type(card().querySelector("[data-dial-path=where] input"), "units > 2");
  t.mock.timers.tick(DRY_RUN_WAIT_MS);
  model.emit({ type: "dry-run", token: "d1", payload: { frame: "sales", where: "units > 2" }, result: { ok: true, summary: "edited" } });
  assert.equal(card().querySelector("[data-dial-dry-run]").getAttribute("data-dial-dry-run-edit"), "answered");
  card().querySelector("[data-dial-action=cancel-edit]").click();
  const dry = card().querySelector("[data-dial-dry-run]");
  assert.equal(dry.getAttribute("data-dial-dry-run-edit"), "none");
  assert.equal(text(dry.querySelector(".dial-dry-run-summary")), "Keeps 64 of 200 rows.");
  // opened again, the edit is still there, and so is what it would do
  card().querySelector("[data-dial-action=edit]").click();
  assert.equal(card().querySelector("[data-dial-dry-run]").getAttribute("data-dial-dry-run-edit"), "answered");
});

test("an edit refused by the kernel (a new token) is not shown with the proposal's dry run as its own", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] }); // its ask's 15 s wait must not hold the run
  const refused = { ...PENDING, token: "d2", payload: { frame: "sales", where: "nope" },
    issue: { text: "where: unknown column", code: "invalid", field: "where" }, errors: [] };
  const { card } = mounted({ transcript: [FILTER], pending: refused });
  const dry = card().querySelector(".dial-editor [data-dial-dry-run]");
  // the refused payload's own dry run is asked for (refusal.test.mjs): until it comes, checking
  assert.equal(dry.getAttribute("data-dial-dry-run-edit"), "checking");
});

test("an edit the kernel never answers, or has no dry run for, is said; the proposal's is shown", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, model } = mounted({ transcript: [FILTER], pending: PENDING });
  card().querySelector("[data-dial-action=edit]").click();
  type(card().querySelector("[data-dial-path=where] input"), "units > 2");
  t.mock.timers.tick(DRY_RUN_WAIT_MS);
  t.mock.timers.tick(DRY_RUN_ANSWER_MS);
  const dry = () => card().querySelector("[data-dial-dry-run]");
  assert.equal(dry().getAttribute("data-dial-dry-run-edit"), "unanswered");
  assert.equal(text(dry().querySelector(".dial-dry-run-tag")), "As proposed: your edit was not checked");
  assert.equal(text(dry().querySelector(".dial-dry-run-summary")), "Keeps 64 of 200 rows.");
  type(card().querySelector("[data-dial-path=where] input"), "units > 3");
  t.mock.timers.tick(DRY_RUN_WAIT_MS);
  assert.equal(dry().getAttribute("data-dial-dry-run-edit"), "checking");
  model.emit({ type: "dry-run", token: "d1", payload: { frame: "sales", where: "units > 3" }, result: null });
  assert.equal(dry().getAttribute("data-dial-dry-run-edit"), "unanswered");
});

test("Copy puts the code on the clipboard and says so briefly; where it may not, the code is selected", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card } = mounted({ transcript: [FILTER], pending: PENDING });
  const block = card().querySelector("[data-dial-dry-run] [data-dial-code]");
  const copy = block.querySelector("[data-dial-action=copy-code]");
  shim.clipboard.length = 0;
  copy.click();
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(shim.clipboard, [CODE]);
  assert.equal(copy.textContent, "Copied");
  copy.click(); // again while it says so: it still comes back to Copy
  await Promise.resolve();
  await Promise.resolve();
  t.mock.timers.tick(COPIED_MS);
  assert.equal(copy.textContent, "Copy");
  assert.deepEqual(shim.clipboard, [CODE, CODE]);
  shim.clipboardWorks = false;
  try {
    copy.click();
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(shim.selected, block.querySelector("pre code"));
    assert.equal(block.querySelector(".dial-disclosed").hidden, false, "opened to show what is selected");
    assert.equal(copy.textContent, "Selected: press Ctrl+C");
  } finally {
    shim.clipboardWorks = true;
  }
});

test("a done card shows the code of what ran, not as part of its result", () => {
  const { card } = mounted({ transcript: [FILTER, DONE] });
  assert.equal(card().getAttribute("data-dial-status"), "done");
  assert.equal(card().querySelector("[data-dial-dry-run]"), null, "what it would do is history once done");
  assert.equal(card().querySelector(":scope > [data-dial-code] pre code").textContent, CODE);
  assert.doesNotMatch(text(card().querySelector(".dial-outcome")), /code/);
  assert.match(text(card().querySelector(".dial-outcome")), /rows: 64/);
});

test("the footer offers all the code, to see and to copy, while there is some", async () => {
  const { el, set } = mounted({ transcript: [FILTER, DONE], code: "" });
  const box = el.querySelector("[data-dial-all-code]");
  assert.equal(box.hidden, true);
  assert.equal(el.querySelector(".dial-footer").hidden, true);
  await set("code", `import pandas as pd\n${CODE}`);
  assert.equal(box.hidden, false);
  assert.equal(text(box.querySelector("[data-dial-toggle=code]")), "All code · 2 lines");
  assert.equal(box.querySelector("pre code").textContent, `import pandas as pd\n${CODE}`);
  shim.clipboard.length = 0;
  box.querySelector("[data-dial-action=copy-all-code]").click();
  await Promise.resolve();
  assert.deepEqual(shim.clipboard, [`import pandas as pd\n${CODE}`]);
  await set("usage", { turns: 2, total: 40 });
  assert.equal(text(el.querySelector("[data-dial-usage]")), "2 replies · 40 tokens");
  await set("code", "");
  assert.equal(box.hidden, true);
  assert.equal(el.querySelector(".dial-footer").hidden, false);
});

test("Undo on a done card sends once, until the transcript changes", async () => {
  const { card, sent, set } = mounted({ transcript: [FILTER, DONE], undoable: { f1: true } });
  const undo = card().querySelector("[data-dial-action=undo]");
  assert.equal(text(undo), "Undo");
  undo.click();
  undo.click();
  assert.deepEqual(sent(), [{ type: "undo", id: "f1" }]);
  assert.equal(card().querySelector("[data-dial-action=undo]").disabled, true);
  await set("undoable", { f1: true }); // a trait echo redraws nothing the person did
  assert.equal(card().querySelector("[data-dial-action=undo]").disabled, true);
  // it failed: said on the card, which stays done, and Undo can be tried again
  await set("transcript", [FILTER, DONE, { type: "undo-failed", id: "f1", error: "sales changed since: it has 70 rows now" }]);
  assert.equal(card().getAttribute("data-dial-status"), "done");
  const alert = card().querySelector("[data-dial-undo-failed]");
  assert.equal(alert.getAttribute("role"), "alert");
  assert.equal(text(alert), "Undo failed: sales changed since: it has 70 rows now");
  assert.equal(card().querySelector("[data-dial-action=undo]").disabled, false);
});

test("a done card that cannot be undone says why, and offers nothing", () => {
  const { card } = mounted({ transcript: [FILTER, DONE], undoable: { f1: "sales was changed by a later step" } });
  assert.equal(card().querySelector("[data-dial-action=undo]"), null);
  assert.equal(text(card().querySelector("[data-dial-undo-no]")), "Can't undo: sales was changed by a later step");
  const none = mounted({ transcript: [FILTER, DONE], undoable: { constructor: true } });
  assert.equal(none.card().querySelector("[data-dial-action=undo], [data-dial-undo-no]"), null);
});

test("an undone card reads Undone, its done result kept, struck through", () => {
  const undone = { type: "outcome", id: "f1", action: "filter-rows", status: "undone", preview: FILTER.preview };
  const { card } = mounted({ transcript: [FILTER, DONE, undone], undoable: { f1: true } });
  assert.equal(card().getAttribute("data-dial-status"), "undone");
  assert.ok(card().classList.contains("dial-status-undone"));
  assert.equal(text(card().querySelector(".dial-chip")), "Undone");
  const was = card().querySelector(".dial-outcome-taken-back");
  assert.match(text(was), /^Done/);
  assert.match(text(was), /rows: 64/);
  assert.equal(text(card().querySelector("[data-dial-undone]")), "Undone — taken back");
  assert.equal(card().querySelector("[data-dial-action=undo]"), null);
  assert.ok(card().querySelector("[data-dial-code]"), "the code of what ran stays");
});

test("the items: an undone outcome and an undo that failed join their card", () => {
  const items = itemsOf([
    FILTER, DONE,
    { type: "undo-failed", id: "f1", error: "no" },
    { type: "outcome", id: "f1", status: "undone" },
    { type: "undo-failed", id: "nobody", error: "gone" },
  ], {});
  assert.deepEqual(items.map((i) => [i.kind, i.status]), [["suggestion", "undone"], ["status", undefined]]);
  assert.equal(items[0].outcome.status, "done");
  assert.equal(items[0].undoFailed.error, "no");
  assert.equal(STATUS_LABEL.undone, "Undone");
  // an 'undone' for a card that never ran is not a card's (shown on its own)
  const odd = itemsOf([FILTER, { type: "outcome", id: "f1", status: "dismissed" }, { type: "outcome", id: "f1", status: "undone" }], {});
  assert.deepEqual(odd.map((i) => i.kind), ["suggestion", "status"]);
});

test("two payloads are the same edit whatever their keys' order; counts read as people say them", () => {
  assert.equal(canonical({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } }), canonical({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 }));
  assert.notEqual(canonical({ a: 1 }), canonical({ a: "1" }));
  assert.equal(countChange([200, 64], "row"), "200 → 64 rows");
  assert.equal(countChange([6, 6], "column"), "6 columns");
  assert.equal(countChange([null, 1], "row"), "1 row (new)");
  assert.equal(countChange([1200, 1], "row"), "1,200 → 1 row");
  assert.equal(countChange("x", "row"), null);
});

