// node:test for a card after the kernel refused an edit (editor.js, review.js, cards.js): one
// error per field, for the value that is there now (a refusal goes once the field it names is
// changed, and stays gone across redraws), and "What it will do" always about the payload the
// card now holds. The widget is rendered into the small DOM of dom-shim.mjs from a model double.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { mounted as mountedWith, text, type } from "./model-double.mjs";
import { DRY_RUN_WAIT_MS } from "../src/review.js";
import { render } from "../src/view.js";

install();

const PAYLOAD = { id: 3, title: "buy milk" };
const CARD = {
  type: "suggestion", id: "s1", action: "complete-todo", text: "Done?", payload: PAYLOAD, preview: "Complete todo 3",
  destructive: false, mutates: true,
};
const SCHEMAS = { "complete-todo": { type: "object", properties: { id: { type: "integer", minimum: 1 }, title: { type: "string" } }, additionalProperties: false } };
const REFUSED = {
  kind: "decide", token: "d2", id: "s1", action: "complete-todo", payload: { id: 0, title: "buy milk" },
  issue: { text: "id must be at least 1", code: "invalid-payload", field: "id" },
  errors: [{ field: "id", message: "id must be at least 1" }], edits_left: 2,
};

const mounted = (state) => mountedWith(render, state, { defaults: { schemas: SCHEMAS } });
/** Every error the card shows now, in order. */
const errorsOf = (card) => card.querySelectorAll("[data-dial-refusal], .dial-field-error, .dial-local-error, .dial-json-error").map(text);

test("after a refused edit, typing abc and Save shows one error for the field: the one for abc", async () => {
  const { card, sent } = mounted({ transcript: [CARD], pending: REFUSED });
  assert.deepEqual(errorsOf(card()), ["id must be at least 1", "Not accepted: id must be at least 1"]);
  type(card().querySelector("[data-dial-path=id] input"), "abc");
  card().querySelector("[data-dial-action=save-edit]").click();
  assert.deepEqual(sent().filter((m) => m.type === "decide"), [], "not sent");
  assert.deepEqual(errorsOf(card()), ["Enter a whole number."]);
  assert.match(text(card().querySelector("[data-dial-issue]")), /^2 tries left/, "the tries left stay");
  // a redraw of the card (a field added, a tab switched, …) does not bring the old refusal back
  card().querySelector("[data-dial-view=json]").click();
  card().querySelector("[data-dial-view=form]").click();
  assert.ok(!errorsOf(card()).some((e) => e.includes("at least 1")), errorsOf(card()).join(" | "));
});

test("a refusal of a field the person has not changed stays; the JSON changed clears it", () => {
  const { card } = mounted({ transcript: [CARD], pending: REFUSED });
  type(card().querySelector("[data-dial-path=title] input"), "buy bread");
  assert.deepEqual(errorsOf(card()), ["id must be at least 1", "Not accepted: id must be at least 1"]);
  card().querySelector("[data-dial-view=json]").click();
  type(card().querySelector("[data-dial-field=payload-json]"), '{"id": 2, "title": "buy bread"}');
  assert.deepEqual(errorsOf(card()), []);
});

test("a new refusal names its fields afresh", async () => {
  const { card, set } = mounted({ transcript: [CARD], pending: REFUSED });
  type(card().querySelector("[data-dial-path=id] input"), "-1");
  assert.deepEqual(errorsOf(card()), []);
  await set("pending", { ...REFUSED, token: "d3", payload: { id: -1, title: "buy milk" }, edits_left: 1 });
  assert.deepEqual(errorsOf(card()), ["id must be at least 1", "Not accepted: id must be at least 1"]);
});

test("after a refused edit, What it will do is about the refused payload, not the proposal", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const dryCard = { ...CARD, dry_run: { ok: true, summary: "Completes todo 3." } };
  const { card, sent, model } = mounted({ transcript: [dryCard], pending: REFUSED });
  const dry = () => card().querySelector("[data-dial-dry-run]");
  assert.notEqual(dry().getAttribute("data-dial-dry-run-edit"), "none", "never the proposal's as the card's own");
  assert.notEqual(text(dry().querySelector(".dial-dry-run-tag")), "As proposed: your edit was not checked");
  t.mock.timers.tick(DRY_RUN_WAIT_MS);
  assert.deepEqual(sent().filter((m) => m.type === "dry-run"), [{ type: "dry-run", token: "d2", payload: REFUSED.payload }]);
  model.emit({ type: "dry-run", token: "d2", payload: REFUSED.payload, result: { ok: false, error: "no todo 0" } });
  assert.equal(dry().getAttribute("data-dial-dry-run"), "unavailable");
  assert.match(text(dry()), /^Effect unavailable: no todo 0/);
});

test("a field the schema does not know is shown in the form, with its error and a Remove", () => {
  const UNKNOWN = {
    ...REFUSED, payload: { id: 3, title: "buy milk", titel: "x" },
    issue: { text: "unexpected field 'titel' (did you mean 'title'?)", code: "invalid-payload", field: "titel" },
    errors: [{ field: "titel", message: "unexpected field 'titel' (did you mean 'title'?)" }],
  };
  const { card, sent } = mounted({ transcript: [CARD], pending: UNKNOWN });
  const row = card().querySelector("[data-dial-path=titel]");
  assert.ok(row, "the unknown field has a row in the form");
  assert.match(text(row), /titel.*is not a field of this action/);
  assert.match(text(row), /did you mean 'title'/, "its error next to it");
  row.querySelector("[data-dial-action=remove-field]").click();
  assert.equal(card().querySelector("[data-dial-path=titel]"), null, "removed from the draft");
  card().querySelector("[data-dial-action=save-edit]").click();
  assert.deepEqual(sent().filter((m) => m.type === "decide").map((m) => m.payload), [{ id: 3, title: "buy milk" }]);
});

test("a payload of many keys the schema does not name shows a few of them, and says how many more", () => {
  const many = Object.fromEntries(Array.from({ length: 5000 }, (_, n) => [`k${n}`, n]));
  const WIDE = { ...REFUSED, payload: { id: 3, title: "buy milk", ...many }, issue: null, errors: [] };
  const { card } = mounted({ transcript: [CARD], pending: WIDE });
  card().querySelector("[data-dial-action=edit]")?.click();
  assert.equal(card().querySelectorAll(".dial-field-unknown").length, 20);
  assert.match(text(card().querySelector("[data-dial-unknown-more]")), /^\+4,980 more keys .*JSON tab/);
});

test("a list of thousands of items shows the first of them in the form, says how many more, and keeps them all", () => {
  const rows = Array.from({ length: 5000 }, (_, n) => n + 1);
  const LIST = { ...CARD, id: "s9", action: "tag-rows", payload: { rows }, preview: "Tag 5,000 rows" };
  const schemas = { "tag-rows": { type: "object", properties: { rows: { type: "array", items: { type: "integer" } } } } };
  const pending = { kind: "decide", token: "d9", id: "s9", action: "tag-rows", payload: { rows }, issue: null, errors: [] };
  const { card, sent } = mountedWith(render, { transcript: [LIST], pending }, { defaults: { schemas }, card: "s9" });
  card().querySelector("[data-dial-action=edit]")?.click();
  assert.equal(card().querySelectorAll(".dial-array-row").length, 100);
  assert.match(text(card().querySelector("[data-dial-items-more]")), /^\+4,900 more items .*JSON tab/);
  assert.equal(card().querySelector("[data-dial-action=add-item]"), null, "an item added would not be shown");
  type(card().querySelector('[data-dial-path="rows[0]"] input'), "7");
  card().querySelector("[data-dial-action=save-edit]").click();
  const [decided] = sent().filter((m) => m.type === "decide");
  assert.equal(decided.payload.rows.length, 5000, "the items not shown are kept");
  assert.deepEqual(decided.payload.rows.slice(0, 2), [7, 2]);
});
