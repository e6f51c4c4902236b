// node:test for what the person says with a decision (js/src/comments.js, drawn by cards.js
// and editor.js): comments on fields (JSON Pointers), sent with Accept, the editor's Save and
// Dismiss; a dismissal's reason; and, once the card has its outcome, the reason and comments
// under the outcome line. The widget is rendered into the small DOM of dom-shim.mjs from a
// model double, and clicked, as a person would.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { mounted as mountedWith, text, type } from "./model-double.mjs";
import { POINTER_LIMIT, REASON_LABEL, WHOLE, commentLabel, fieldPointers } from "../src/comments.js";
import { jsonPointer } from "../src/text.js";
import { render } from "../src/view.js";

const shim = install();

const PAYLOAD = { text: "buy milk", tags: ["home", "today"], due: { day: "mon" } };
const NOTE = {
  type: "suggestion", id: "s1", action: "add-note", text: "Shall I?", payload: PAYLOAD, preview: "Add note: buy milk",
  destructive: false, mutates: true,
};
const PENDING = { kind: "decide", token: "d1", id: "s1", action: "add-note", payload: PAYLOAD, issue: null, errors: [], edits_left: 3 };
const SCHEMAS = {
  "add-note": {
    type: "object", required: ["text"],
    properties: { text: { type: "string" }, tags: { type: "array", items: { type: "string" } }, due: { type: "object", properties: { day: { type: "string" } } } },
  },
};

function mounted(state) {
  const drawn = mountedWith(render, state, { defaults: { schemas: SCHEMAS, rules: [] } });
  const { card } = drawn;
  const rows = () => card().querySelectorAll("[data-dial-comment]");
  /** Write comment `index` (its row there already): on `field`, saying `words`. */
  const write = (index, field, words) => {
    const row = rows()[index];
    const select = row.querySelector("[data-dial-comment-field]");
    select.value = field;
    select.dispatchEvent(new shim.Event("change"));
    type(row.querySelector("[data-dial-comment-text]"), words);
  };
  return { ...drawn, rows, write };
}

// ---- pure ----------------------------------------------------------------------------------------

test("a comment's field is a JSON Pointer: '~' is '~0', '/' is '~1'; the whole proposal is ''", () => {
  assert.equal(jsonPointer(["a/b", 0, "c~d"]), "/a~1b/0/c~0d");
  assert.equal(jsonPointer(["~1"]), "/~01");
  assert.equal(jsonPointer([]), "");
  assert.deepEqual(fieldPointers({ "a/b": 1, "c~d": { e: [1, { f: 2 }] } }).map((p) => p.pointer),
    ["", "/a~1b", "/c~0d", "/c~0d/e", "/c~0d/e/0", "/c~0d/e/1", "/c~0d/e/1/f"]);
  assert.deepEqual(fieldPointers(PAYLOAD), [
    { pointer: "", label: WHOLE }, { pointer: "/text", label: "/text" }, { pointer: "/tags", label: "/tags" },
    { pointer: "/tags/0", label: "/tags/0" }, { pointer: "/tags/1", label: "/tags/1" }, { pointer: "/due", label: "/due" },
    { pointer: "/due/day", label: "/due/day" }]);
  assert.equal(WHOLE, "The whole proposal");
  assert.equal(commentLabel(""), "Whole proposal");
  assert.equal(commentLabel("/text"), "/text");
});

test("the fields offered go four deep at most, and number a hundred at most", () => {
  assert.deepEqual(fieldPointers({ a: { b: { c: { d: { e: 1 } } } } }).map((p) => p.pointer), ["", "/a", "/a/b", "/a/b/c", "/a/b/c/d"]);
  const wide = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
  const offered = fieldPointers(wide);
  assert.equal(offered.length, POINTER_LIMIT + 1);
  assert.equal(offered[POINTER_LIMIT].pointer, "/k99");
  assert.deepEqual(fieldPointers("just text"), [{ pointer: "", label: WHOLE }]);
});

// ---- on a waiting card ---------------------------------------------------------------------------

test("comments go with Accept: only those with text, trimmed; they survive the card's redraws", () => {
  const { card, sent, rows, write } = mounted({ transcript: [NOTE], pending: PENDING });
  const open = card().querySelector("[data-dial-action=comment]");
  assert.equal(text(open), "Comment…");
  assert.equal(open.getAttribute("aria-expanded"), "false");
  open.click();
  assert.equal(rows().length, 1);
  assert.equal(card().querySelector("[data-dial-action=comment]"), null, "the area is open");
  assert.equal(document.activeElement, rows()[0].querySelector("[data-dial-comment-text]"));
  const options = rows()[0].querySelectorAll("option");
  assert.deepEqual(options.map((o) => [o.value, text(o)]), [["", "The whole proposal"], ["/text", "/text"], ["/tags", "/tags"],
    ["/tags/0", "/tags/0"], ["/tags/1", "/tags/1"], ["/due", "/due"], ["/due/day", "/due/day"]]);
  write(0, "/text", "  too long  ");
  card().querySelector("[data-dial-action=comment-add]").click(); // redraws the card
  assert.equal(rows().length, 2);
  assert.equal(rows()[0].querySelector("[data-dial-comment-text]").value, "  too long  ", "kept across the redraw");
  assert.equal(rows()[0].querySelector("[data-dial-comment-field]").value, "/text");
  assert.equal(document.activeElement, rows()[1].querySelector("[data-dial-comment-text]"));
  write(1, "", "   ");
  card().querySelector("[data-dial-action=comment-add]").click();
  write(2, "", "fine otherwise");
  card().querySelector("[data-dial-action=accept]").click();
  assert.deepEqual(sent(), [{
    type: "decide", token: "d1", decision: "accept",
    comments: [{ field: "/text", text: "too long" }, { field: "", text: "fine otherwise" }],
  }]);
});

test("no comment, no key: Accept and Dismiss send just the decision; Remove closes the area with the last row", () => {
  const { card, sent, rows, write } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=comment]").click();
  write(0, "/tags/1", "drop this one");
  card().querySelector("[data-dial-action=comment-remove]").click();
  assert.equal(rows().length, 0);
  assert.equal(card().querySelector("[data-dial-comments]"), null);
  assert.equal(document.activeElement, card().querySelector("[data-dial-action=comment]"), "focus back on Comment…");
  card().querySelector("[data-dial-action=dismiss]").click();
  assert.deepEqual(sent(), [{ type: "decide", token: "d1", decision: "dismiss" }]);
});

test("Dismiss with a reason…: the reason and the comments go with the dismissal", () => {
  const { card, sent, write } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=comment]").click();
  write(0, "/due/day", "not monday");
  const open = card().querySelector("[data-dial-action=dismiss-reason]");
  assert.equal(text(open), "Dismiss with a reason…");
  open.click();
  const reason = card().querySelector("[data-dial-reason]");
  assert.equal(document.activeElement, reason);
  assert.equal(reason.getAttribute("aria-label"), REASON_LABEL);
  assert.equal(reason.getAttribute("placeholder"), "Why? The agent is told.");
  assert.equal(card().querySelector("[data-dial-action=accept]"), null, "the reason box stands in for the buttons");
  assert.ok(card().querySelector("[data-dial-comments]"), "the comments stay in view: they go too");
  type(reason, "  I already have one  ");
  assert.equal(text(card().querySelector("[data-dial-action=dismiss-confirm]")), "Dismiss");
  card().querySelector("[data-dial-action=dismiss-confirm]").click();
  assert.deepEqual(sent(), [{
    type: "decide", token: "d1", decision: "dismiss", reason: "I already have one",
    comments: [{ field: "/due/day", text: "not monday" }],
  }]);
  assert.equal(card().querySelector("[data-dial-reason]").disabled, true);
});

test("the reason box: Enter dismisses (an empty reason is left out), Escape and Cancel go back to the buttons", () => {
  const { card, sent } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=dismiss-reason]").click();
  type(card().querySelector("[data-dial-reason]"), "later");
  card().querySelector("[data-dial-reason]").dispatchEvent(new shim.Event("keydown", { key: "Escape" }));
  assert.equal(card().querySelector("[data-dial-reason]"), null);
  assert.equal(document.activeElement, card().querySelector("[data-dial-action=dismiss-reason]"));
  card().querySelector("[data-dial-action=dismiss-reason]").click();
  assert.equal(card().querySelector("[data-dial-reason]").value, "", "a cancelled reason is gone");
  card().querySelector("[data-dial-action=dismiss-reason-cancel]").click();
  assert.ok(card().querySelector("[data-dial-action=accept]"));
  card().querySelector("[data-dial-action=dismiss-reason]").click();
  type(card().querySelector("[data-dial-reason]"), "   ");
  card().querySelector("[data-dial-reason]").dispatchEvent(new shim.Event("keydown", { key: "Enter" }));
  assert.deepEqual(sent(), [{ type: "decide", token: "d1", decision: "dismiss" }]);
});

test("comments can be written while editing, and go with the edit's Save", () => {
  const { card, sent, rows, write } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=edit]").click();
  const editor = () => card().querySelector(".dial-editor");
  editor().querySelector("[data-dial-action=comment]").click();
  assert.ok(editor().querySelector("[data-dial-comments]"), "the comments sit in the editor, above Save");
  write(0, "/text", "shorter, please");
  type(card().querySelector("[data-dial-path=text] input"), "milk");
  card().querySelector("[data-dial-action=save-edit]").click();
  assert.deepEqual(sent(), [{
    type: "decide", token: "d1", decision: "edit", payload: { ...PAYLOAD, text: "milk" },
    comments: [{ field: "/text", text: "shorter, please" }],
  }]);
  assert.equal(rows().length, 1);
});

test("comments opened on the card stay when the editor opens, and the editor's Cancel keeps them", () => {
  const { card, rows, write } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=comment]").click();
  write(0, "", "mostly fine");
  card().querySelector("[data-dial-action=edit]").click();
  assert.equal(card().querySelector(".dial-editor [data-dial-comment-text]").value, "mostly fine");
  card().querySelector("[data-dial-action=cancel-edit]").click();
  assert.equal(rows().length, 1);
  assert.equal(rows()[0].querySelector("[data-dial-comment-text]").value, "mostly fine");
});

// ---- under the outcome ---------------------------------------------------------------------------

test("the outcome line says the reason, and the comments are listed under it, as text", () => {
  const hostile = "<img src=x onerror=alert(1)>";
  const outcome = {
    type: "outcome", id: "s1", action: "add-note", status: "dismissed", preview: NOTE.preview, reason: "I already have one",
    comments: [{ field: "/text", text: "too long" }, { field: "", text: hostile }, { field: "/x", text: "  " }],
  };
  const { card, el } = mounted({ transcript: [NOTE, outcome] });
  assert.equal(text(card().querySelector(".dial-outcome")), "Dismissed — reason: I already have one");
  const said = card().querySelector("[data-dial-outcome-comments]");
  assert.equal(text(said.querySelector(".dial-outcome-comments-title")), "Your comments");
  assert.deepEqual(said.querySelectorAll("li").map(text), ["/text: too long", `Whole proposal: ${hostile}`]);
  assert.equal(el.querySelectorAll("img").length, 0, "agent and person text never becomes markup");
  // a done card with comments, no reason
  const done = { type: "outcome", id: "s1", action: "add-note", status: "done", preview: NOTE.preview, result: { id: 3 },
    comments: [{ field: "/tags/0", text: "nice" }] };
  const other = mounted({ transcript: [NOTE, done] });
  assert.doesNotMatch(text(other.card().querySelector(".dial-outcome")), /reason/);
  assert.deepEqual(other.card().querySelectorAll("[data-dial-outcome-comment]").map(text), ["/tags/0: nice"]);
  // a plain dismissal says what it meant (the chip above already says "Dismissed")
  const plain = mounted({ transcript: [NOTE, { ...outcome, reason: undefined, comments: undefined }] });
  assert.equal(text(plain.card().querySelector(".dial-outcome")), "Dismissed — nothing ran");
  assert.equal(plain.card().querySelector("[data-dial-outcome-comments]"), null);
});
