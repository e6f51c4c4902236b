// node:test for where focus goes after a decision (js/src/focus.js, called by cards.js, ask.js,
// rules.js and rules-panel.js): never to <body>, but to the next card that waits, else to the
// message box. The widget is rendered into the small DOM of dom-shim.mjs and used with focus on
// the control clicked, as a keyboard user would.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { mounted as mountedWith, type } from "./model-double.mjs";
import { focusAfterDecision } from "../src/focus.js";
import { RULE_DRAFT_WAIT_MS } from "../src/rules.js";
import { render } from "../src/view.js";

install();

const PAYLOAD = { text: "buy milk" };
const NOTE = {
  type: "suggestion", id: "s1", action: "add-note", text: "Shall I?", payload: PAYLOAD, preview: "Add note: buy milk",
  destructive: false, mutates: true, allowable: true,
};
const PENDING = { kind: "decide", token: "d1", id: "s1", action: "add-note", payload: PAYLOAD, issue: null, errors: [], edits_left: 3 };
const SCHEMAS = { "add-note": { type: "object", properties: { text: { type: "string" } }, required: ["text"] } };
const RULE = { id: "r1", action: "add-note", schema: { const: 1 }, scope: "conversation", created: "2025-03-14T09:12:00Z", fired: 0 };

const mounted = (state) => mountedWith(render, state, { defaults: { schemas: SCHEMAS, rules: [] } });
const say = (el) => el.querySelector("[data-dial-field=say]");

/** Focus `control` and press it, as Tab then Enter would. */
function press(control) {
  control.focus();
  control.click();
}

for (const action of ["accept", "dismiss"]) {
  test(`after ${action}, focus goes to the message box, not to <body>`, () => {
    const { el, card, sent } = mounted({ transcript: [NOTE], pending: PENDING });
    press(card().querySelector(`[data-dial-action=${action}]`));
    assert.equal(sent().at(-1).decision, action);
    assert.equal(document.activeElement, say(el));
  });
}

test("after an edit's Save, focus goes to the message box", () => {
  const { el, card, sent } = mounted({ transcript: [NOTE], pending: PENDING });
  press(card().querySelector("[data-dial-action=edit]"));
  type(card().querySelector("[data-dial-path=text] input"), "buy bread");
  press(card().querySelector("[data-dial-action=save-edit]"));
  assert.equal(sent().at(-1).decision, "edit");
  assert.equal(document.activeElement, say(el));
});

test("after Dismiss with a reason, focus goes to the message box", () => {
  const { el, card, sent } = mounted({ transcript: [NOTE], pending: PENDING });
  press(card().querySelector("[data-dial-action=dismiss-reason]"));
  type(card().querySelector("[data-dial-reason]"), "not now");
  press(card().querySelector("[data-dial-action=dismiss-confirm]"));
  assert.deepEqual(sent().at(-1), { type: "decide", token: "d1", decision: "dismiss", reason: "not now" });
  assert.equal(document.activeElement, say(el));
});

test("after an answered question, focus goes to the message box", () => {
  const ask = { type: "ask", text: "Which list?", response_type: "choice", options: [{ value: "home", label: "Home" }] };
  const { el, sent } = mounted({ transcript: [ask], pending: { kind: "answer", token: "a1", index: 0, response_type: "choice", options: ask.options } });
  press(el.querySelector("[data-dial-option=home]"));
  assert.deepEqual(sent().at(-1), { type: "answer", token: "a1", value: "home" });
  assert.equal(document.activeElement, say(el));
});

test("after Save rule and accept, focus goes to the message box; after Revoke too", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { el, card, model } = mounted({ transcript: [NOTE], pending: PENDING });
  press(card().querySelector("[data-dial-action=allow-rule]"));
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  const { schema } = model.sent.find((m) => m.type === "rule-draft");
  model.emit({ type: "rule-draft", token: "d1", schema, error: null, matches: [], total: 0, card: true });
  press(card().querySelector("[data-dial-action=save-rule]"));
  model.emit({ type: "allow", token: "d1", rule: "r1", error: null, card: true });
  assert.equal(document.activeElement, say(el));
  // the rule accepted the card: nothing waits now
  model.set("pending", {});
  model.set("transcript", [NOTE, { type: "outcome", id: "s1", action: "add-note", status: "done", preview: NOTE.preview, rule: "r1" }]);
  model.set("rules", [RULE]);
  return Promise.resolve().then(() => {
    press(el.querySelector("[data-dial-action=rules]"));
    press(el.querySelector('[data-dial-action=revoke][data-dial-rule="r1"]'));
    assert.equal(document.activeElement, say(el));
  });
});

test("focus goes to the next waiting card's Accept when there is one", () => {
  const other = { ...NOTE, id: "s2", preview: "Add note: eggs" };
  const { el, card } = mounted({ transcript: [NOTE, other], pending: PENDING });
  // a second waiting card, drawn as the kernel would draw it
  const second = card("s2");
  second.setAttribute("data-dial-status", "pending");
  const accept = document.createElement("button");
  accept.setAttribute("data-dial-action", "accept");
  second.append(accept);
  assert.equal(focusAfterDecision(card("s1").querySelector("[data-dial-action=accept]")), accept);
  assert.equal(document.activeElement, accept);
  accept.disabled = true; // nothing usable there: the message box
  assert.equal(focusAfterDecision(card("s1")), say(el));
});
