// node:test: the front end makes the same display items as the one description of them
// (dial_notebook/widget/_items.py), which the static copy and the export draw. The Python side
// wrote what it makes from the contract transcript, whole and at a few moments, to
// fixtures/items.json (tests/contract_transcript.py; tests/unit/test_widget_items.py keeps it
// current); itemsOf must make the same items from the same events: same kinds, keys and order,
// each card with the same outcome, steps, acknowledgements, Undo and status, each question with
// the same answer, the same Retry. Kinds only the copy draws as items are left out (the fixture
// names them). And both sides take their words from one file.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { contextOf, itemsOf } from "../src/items.js";
import { STATUS_LABEL, words } from "../src/text.js";

const read = (/** @type {string} */ path) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const transcript = read("./fixtures/transcript.json");
const fixture = read("./fixtures/items.json");
const wordings = read("../../dial_notebook/widget/wordings.json");

/**
 * An item as the fixture writes it: each event named by its index in `shown`.
 * @param {any} item
 * @param {any[]} shown
 */
function describe(item, shown) {
  const ref = (/** @type {any} */ event) => (event === null || event === undefined ? null : shown.indexOf(event));
  /** @type {{[key: string]: any}} */
  const described = { kind: item.kind, key: item.key, event: ref(item.event) };
  if (item.kind === "suggestion") {
    Object.assign(described, {
      outcome: ref(item.outcome),
      steps: Object.fromEntries([...item.steps].map(([id, outcome]) => [id, ref(outcome)])),
      acks: item.acks.map(ref),
      undone: ref(item.undone),
      undo_failed: ref(item.undoFailed),
      status: item.status,
      pending: Boolean(item.pending),
    });
  } else if (item.kind === "ask") {
    Object.assign(described, { answer: item.answer ?? null, pending: Boolean(item.pending) });
  } else if (item.kind === "no-reply") {
    described.retry = Boolean(item.retry);
  }
  return described;
}

test("the fixture covers every kind the widget draws, and the moments worth checking", () => {
  const kinds = new Set(fixture.cases.flatMap((/** @type {any} */ c) => c.items.map((/** @type {any} */ i) => i.kind)));
  for (const kind of ["person", "inform", "ask", "suggestion", "status", "delegate", "no-reply"]) {
    assert.ok(kinds.has(kind), kind);
  }
  assert.equal(fixture.cases[0].events, transcript.length);
  assert.ok(fixture.cases.some((/** @type {any} */ c) => c.items.some((/** @type {any} */ i) => i.pending)));
  assert.ok(fixture.cases.some((/** @type {any} */ c) => c.items.some((/** @type {any} */ i) => i.retry)));
});

for (const moment of fixture.cases) {
  test(`itemsOf makes the items the description makes: ${moment.name}`, () => {
    const shown = transcript.slice(0, moment.events);
    const copyOnly = new Set(fixture.copy_kinds);
    const expected = moment.items.filter((/** @type {any} */ item) => !copyOnly.has(item.kind));
    const made = itemsOf(shown, moment.pending).map((item) => describe(item, shown));
    assert.deepEqual(made.map((i) => i.key), expected.map((/** @type {any} */ i) => i.key));
    assert.deepEqual(made, expected);
    assert.deepEqual(contextOf(shown), moment.context);
  });
}

test("the status labels and the words are the shared file's, in the widget's voice", () => {
  assert.deepEqual(STATUS_LABEL, wordings.status);
  assert.equal(words("turn-limit", { turns: 8 }), "Stopped after 8 turns (turn limit).");
  assert.equal(words("superseded"), wordings.words.superseded.widget);
  assert.equal(words("hint", { hint: "{hint}" }), "Hint: {hint}"); // a value is put in as it is
  for (const [key, wording] of Object.entries(wordings.words)) {
    assert.equal(typeof words(/** @type {any} */ (key), {}), "string", key);
    assert.ok(typeof wording === "string" || (wording.widget && wording.copy), key);
  }
});
