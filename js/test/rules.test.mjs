// node:test for rules, "always allow like this" (js/src/rules.js and its rules-schema.js,
// rules-state.js, rules-messages.js; rules-panel.js; drawn by cards.js and view.js): the
// schema a rule's fields make, the rule editor and its messages (rule-draft, allow), the
// kernel's answers (a stale one dropped), a card a rule accepted, and the footer's rules panel
// with Revoke. The widget is rendered into the small DOM of dom-shim.mjs from a model double,
// and clicked, as a person would.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { mounted as mountedWith, text, type } from "./model-double.mjs";
import {
  allowable, derivedSchema, fieldSchema, fieldsSchema, initialField, kindsFor, regexEscape, ruleFields, valueType,
} from "../src/rules-schema.js";
import { RULE_DRAFT_WAIT_MS } from "../src/rules-state.js";
import { NO_RULES, madeAt } from "../src/rules-panel.js";
import { render } from "../src/view.js";

const shim = install();

const PAYLOAD = { text: "buy milk (2l)", priority: 2, weight: 1.5, urgent: false };
const NOTE = {
  type: "suggestion", id: "s1", action: "add-note", text: "Shall I?", payload: PAYLOAD, preview: "Add note: buy milk (2l)",
  destructive: false, mutates: true, allowable: true,
};
const PENDING = { kind: "decide", token: "d1", id: "s1", action: "add-note", payload: PAYLOAD, issue: null, errors: [], edits_left: 3 };
const DERIVED = {
  type: "object",
  properties: { text: { const: "buy milk (2l)" }, priority: { const: 2 }, weight: { const: 1.5 }, urgent: { const: false } },
  required: ["text", "priority", "weight", "urgent"], additionalProperties: false,
};
const RULE = {
  id: "r1", action: "add-note", schema: { type: "object", properties: { text: { type: "string" } } }, scope: "conversation",
  created: "2025-03-14T09:12:00Z", fired: 3,
};

/** The widget drawn from `state` (model-double.mjs), with the rule editor at hand. */
function mounted(state) {
  const drawn = mountedWith(render, state, { defaults: { rules: [] } });
  const { card } = drawn;
  const editor = () => card()?.querySelector("[data-dial-rule-editor]") ?? null;
  const choose = (kind, field) => editor().querySelector(`[data-dial-action="rule-field-${kind}"][data-dial-field="${field}"]`).click();
  return { ...drawn, editor, choose };
}

const drafts = (sent) => sent().filter((m) => m.type === "rule-draft");

// ---- pure ----------------------------------------------------------------------------------------

test("a rule starts as every field exactly as proposed: an object of just those fields", () => {
  assert.deepEqual(derivedSchema(PAYLOAD), DERIVED);
  assert.deepEqual(derivedSchema({}), { type: "object", properties: {}, required: [], additionalProperties: false });
  // a payload that is no object: the one field's schema is the rule's
  assert.deepEqual(derivedSchema("hello"), { const: "hello" });
  assert.deepEqual(derivedSchema([1, 2]), { const: [1, 2] });
  assert.deepEqual(ruleFields(7), [{ pointer: "", name: "", value: 7 }]);
  assert.deepEqual(ruleFields({ "a/b": 1, "c~d": 2 }).map((f) => f.pointer), ["/a~1b", "/c~0d"]);
});

test("each field kind makes its schema: exactly, any of its type (integer or number), a range, a pattern", () => {
  const rule = (kind, more = {}) => ({ ...initialField(null), kind, ...more });
  assert.deepEqual(fieldSchema({ a: [1] }, rule("exact")), { schema: { const: { a: [1] } } });
  assert.deepEqual(["s", 3, 3.5, true, [1], { a: 1 }, null].map((v) => fieldSchema(v, rule("any")).schema),
    [{ type: "string" }, { type: "integer" }, { type: "number" }, { type: "boolean" }, { type: "array" }, { type: "object" }, { type: "null" }]);
  assert.deepEqual([0, -4, 1e3, 0.1].map(valueType), ["integer", "integer", "integer", "number"]);
  assert.deepEqual(fieldSchema(3, rule("range", { min: "1", max: "10" })), { schema: { type: "integer", minimum: 1, maximum: 10 } });
  assert.deepEqual(fieldSchema(2.5, rule("range", { min: " ", max: "3.5" })), { schema: { type: "number", maximum: 3.5 } });
  assert.deepEqual(fieldSchema(2.5, rule("range", { min: "abc", max: "" })), { error: "From is not a number." });
  assert.match(fieldSchema(2, rule("range", { min: "5", max: "1" })).error, /From is above To/);
  assert.deepEqual(fieldSchema("x", rule("pattern", { pattern: "^x+$" })), { schema: { type: "string", pattern: "^x+$" } });
  // range and pattern start from the value itself
  assert.deepEqual(initialField(4), { kind: "exact", min: "4", max: "4", pattern: "" });
  assert.equal(initialField("a.b (c)?").pattern, "^a\\.b \\(c\\)\\?$");
  assert.deepEqual(kindsFor(3), ["exact", "any", "range"]);
  assert.deepEqual(kindsFor("s"), ["exact", "any", "pattern"]);
  assert.deepEqual(kindsFor(false), ["exact", "any"]);
  const fields = new Map([["/text", rule("pattern", { pattern: "^buy " })], ["/priority", rule("range", { min: "1", max: "" })]]);
  assert.deepEqual(fieldsSchema(PAYLOAD, fields).schema.properties,
    { text: { type: "string", pattern: "^buy " }, priority: { type: "integer", minimum: 1 }, weight: { const: 1.5 }, urgent: { const: false } });
  assert.deepEqual(fieldsSchema(PAYLOAD, new Map([["/weight", rule("range", { min: "x" })]])), { error: "From is not a number.", field: "/weight" });
  assert.deepEqual(fieldsSchema("hi", new Map([["", rule("pattern", { pattern: "^h" })]])), { schema: { type: "string", pattern: "^h" } });
});

test("an agent's field named __proto__ or constructor is a field of the rule like any other", () => {
  const payload = JSON.parse('{"__proto__": "x", "constructor": 1, "text": "a"}');
  const { schema } = /** @type {any} */ (fieldsSchema(payload, new Map()));
  assert.deepEqual(Object.keys(schema.properties), ["__proto__", "constructor", "text"]);
  assert.deepEqual(Object.getOwnPropertyDescriptor(schema.properties, "__proto__")?.value, { const: "x" });
  assert.equal(Object.getPrototypeOf(schema.properties), Object.prototype);
  assert.equal(JSON.stringify(schema.properties), '{"__proto__":{"const":"x"},"constructor":{"const":1},"text":{"const":"a"}}');
});

test("regular-expression characters are escaped, so a pattern first matches just the value", () => {
  const special = "^a.b*c+d?e(f)g[h]i{j}k|l$m\\n/o-p";
  assert.equal(regexEscape(special), "\\^a\\.b\\*c\\+d\\?e\\(f\\)g\\[h\\]i\\{j\\}k\\|l\\$m\\\\n/o-p");
  assert.ok(new RegExp(`^${regexEscape(special)}$`).test(special));
  assert.ok(!new RegExp(`^${regexEscape("a.c")}$`).test("abc"));
});

test("only an allowable card may get a rule: never an execute block, a destructive card, one a rule accepted", () => {
  assert.equal(allowable(NOTE), true);
  assert.equal(allowable({ ...NOTE, allowable: undefined }), false);
  assert.equal(allowable({ ...NOTE, destructive: true }), false);
  assert.equal(allowable({ ...NOTE, kind: "execute" }), false);
  assert.equal(allowable({ ...NOTE, rule: "r1" }), false);
  const { card } = mounted({ transcript: [{ ...NOTE, allowable: undefined }], pending: PENDING });
  assert.equal(card().querySelector("[data-dial-action=allow-rule]"), null);
  const danger = mounted({ transcript: [{ ...NOTE, destructive: true }], pending: PENDING });
  assert.equal(danger.card().querySelector("[data-dial-action=allow-rule]"), null);
});

// ---- the editor ----------------------------------------------------------------------------------

test("Always allow like this… opens the editor with every field exactly, and asks the kernel once it rests", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, sent, editor, el } = mounted({ transcript: [NOTE], pending: PENDING });
  const open = card().querySelector("[data-dial-action=allow-rule]");
  assert.equal(text(open), "Always allow like this…");
  assert.equal(open.getAttribute("aria-expanded"), "false");
  open.click();
  assert.ok(editor(), "the editor is open on the card");
  assert.equal(card().querySelector("[data-dial-action=accept]"), null, "in place of the card's buttons");
  assert.ok(editor().contains(document.activeElement), "focus moves into the editor");
  const rows = editor().querySelectorAll("[data-dial-rule-field]");
  assert.deepEqual(rows.map((r) => r.getAttribute("data-dial-rule-field")), ["/text", "/priority", "/weight", "/urgent"]);
  assert.deepEqual(rows.map((r) => text(r.querySelector(".dial-rule-field-value"))), ['"buy milk (2l)"', "2", "1.5", "false"]);
  assert.deepEqual(rows.map((r) => r.querySelectorAll("[aria-pressed]").map((b) => b.getAttribute("data-dial-action"))), [
    ["rule-field-exact", "rule-field-any", "rule-field-pattern"], ["rule-field-exact", "rule-field-any", "rule-field-range"],
    ["rule-field-exact", "rule-field-any", "rule-field-range"], ["rule-field-exact", "rule-field-any"]]);
  assert.ok(rows.every((r) => r.querySelector("[data-dial-action=rule-field-exact]").getAttribute("aria-pressed") === "true"));
  const check = () => editor().querySelector("[data-dial-rule-check]");
  assert.equal(text(check()), "Checking…");
  assert.equal(editor().querySelector("[data-dial-action=save-rule]").disabled, true, "no answer yet");
  assert.deepEqual(sent(), [], "not at once");
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  assert.deepEqual(sent(), [{ type: "rule-draft", token: "d1", schema: DERIVED }]);
  assert.equal(el.querySelectorAll("details").length, 0);
});

test("each choice changes the schema asked about; the answer for it enables Save, which sends allow", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, sent, editor, choose, model } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=allow-rule]").click();
  choose("any", "/text");
  assert.equal(document.activeElement, editor().querySelector('[data-dial-action=rule-field-any][data-dial-field="/text"]'),
    "focus stays on the choice");
  choose("range", "/priority");
  const min = editor().querySelector('[data-dial-rule-min="/priority"]');
  const max = editor().querySelector('[data-dial-rule-max="/priority"]');
  assert.deepEqual([min.value, max.value], ["2", "2"], "pre-filled with the value");
  type(min, "1");
  type(max, "5");
  assert.equal(document.activeElement, max, "typing redraws nothing");
  choose("pattern", "/text");
  const pattern = editor().querySelector('[data-dial-rule-pattern="/text"]');
  assert.equal(pattern.value, "^buy milk \\(2l\\)$");
  type(pattern, "^buy ");
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  const schema = {
    ...DERIVED,
    properties: { ...DERIVED.properties, text: { type: "string", pattern: "^buy " }, priority: { type: "integer", minimum: 1, maximum: 5 } },
  };
  assert.deepEqual(sent(), [{ type: "rule-draft", token: "d1", schema }], "once, the latest schema");
  model.emit({
    type: "rule-draft", token: "d1", schema, error: null, total: 4, card: true,
    matches: [{ id: "s0", preview: "Add note: buy bread", status: "done" }, { id: "sA", preview: "Add note: buy eggs", status: "dismissed" },
      { id: "sB", preview: "Add note: buy tea", status: "done", edited: true }],
  });
  const check = editor().querySelector("[data-dial-rule-check]");
  assert.equal(check.getAttribute("data-dial-rule-check"), "ok");
  assert.match(text(check), /^Would have accepted 4 earlier proposals:/);
  assert.deepEqual(check.querySelectorAll("[data-dial-rule-match]").map(text),
    ["Add note: buy bread · you accepted it", "Add note: buy eggs · you dismissed it",
      "Add note: buy tea · you edited it before it ran (the rule would have run it as proposed)"],
    "said in words, not by the agent's ids");
  assert.equal(text(check.querySelector(".dial-more")), "and 1 more");
  const save = editor().querySelector("[data-dial-action=save-rule]");
  assert.equal(save.disabled, false);
  assert.equal(text(save), "Save rule and accept");
  editor().querySelector("[data-dial-action=rule-scope-notebook]").click();
  save.click();
  assert.deepEqual(sent().at(-1), { type: "allow", token: "d1", schema, scope: "notebook" });
  assert.equal(editor().querySelector("[data-dial-action=save-rule]").disabled, true, "until the kernel answers");
});

test("an answer for an older schema, or another token, is dropped; no match and a card that does not match are said", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, sent, editor, choose, model } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=allow-rule]").click();
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  choose("any", "/urgent");
  const answer = (schema, more = {}) => model.emit({ type: "rule-draft", token: "d1", schema, error: null, matches: [], total: 0, card: true, ...more });
  answer(DERIVED); // the first schema's answer comes after the change: stale
  const check = () => editor().querySelector("[data-dial-rule-check]");
  assert.equal(text(check()), "Checking…");
  assert.equal(editor().querySelector("[data-dial-action=save-rule]").disabled, true);
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  const schema = sent().at(-1).schema;
  assert.deepEqual(schema.properties.urgent, { type: "boolean" });
  answer(schema, { token: "d0" });
  assert.equal(text(check()), "Checking…", "another token's answer is dropped");
  // the kernel's echo may order the keys its own way
  const reordered = { additionalProperties: false, required: schema.required, properties: schema.properties, type: "object" };
  answer(reordered, { card: false });
  assert.equal(check().getAttribute("data-dial-rule-check"), "ok");
  assert.match(text(check()), /^No earlier proposal of add-note would have matched\./);
  assert.match(text(check().querySelector("[data-dial-rule-card-warning]")), /This card itself does not match this rule/);
  assert.equal(text(editor().querySelector("[data-dial-action=save-rule]")), "Save rule");
});

test("a schema the kernel refuses says why and keeps Save disabled; a refused Save says why and can be tried again", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, sent, editor, choose, model } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=allow-rule]").click();
  choose("pattern", "/text");
  type(editor().querySelector('[data-dial-rule-pattern="/text"]'), "(");
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  const bad = sent().at(-1).schema;
  model.emit({ type: "rule-draft", token: "d1", schema: bad, error: "/text: '(' is not a valid pattern", matches: [], total: 0, card: false });
  const check = editor().querySelector("[data-dial-rule-check]");
  assert.equal(check.getAttribute("data-dial-rule-check"), "error");
  assert.equal(text(check), "Not a valid rule: /text: '(' is not a valid pattern");
  const save = () => editor().querySelector("[data-dial-action=save-rule]");
  assert.equal(save().disabled, true);
  save().click();
  assert.equal(sent().filter((m) => m.type === "allow").length, 0);
  type(editor().querySelector('[data-dial-rule-pattern="/text"]'), "^buy");
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  const good = sent().at(-1).schema;
  model.emit({ type: "rule-draft", token: "d1", schema: good, error: null, matches: [], total: 0, card: true });
  save().click();
  assert.equal(save().disabled, true);
  model.emit({ type: "allow", token: "d1", rule: null, error: "a rule like this already exists (r2)" });
  assert.equal(text(editor().querySelector("[data-dial-rule-error]")), "a rule like this already exists (r2)");
  assert.equal(save().disabled, false, "Save works again");
});

test("saved: the editor closes; a rule the card does not match is said, and the card still waits", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, sent, editor, model } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=allow-rule]").click();
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  model.emit({ type: "rule-draft", token: "d1", schema: DERIVED, error: null, matches: [], total: 0, card: false });
  editor().querySelector("[data-dial-action=save-rule]").click();
  assert.deepEqual(sent().at(-1), { type: "allow", token: "d1", schema: DERIVED, scope: "conversation" });
  model.emit({ type: "allow", token: "d1", rule: "r1", error: null });
  assert.equal(editor(), null);
  assert.equal(text(card().querySelector("[data-dial-rule-saved]")),
    "Saved as rule r1. This card itself does not match it, so it still waits for you.");
  assert.ok(card().querySelector("[data-dial-action=accept]"), "its buttons are back");
  assert.equal(document.activeElement, card().querySelector("[data-dial-action=allow-rule]"));
});

test("saved and matching: the kernel resolves the card, which then reads accepted by the rule", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, editor, model, set } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=allow-rule]").click();
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  model.emit({ type: "rule-draft", token: "d1", schema: DERIVED, error: null, matches: [], total: 0, card: true });
  editor().querySelector("[data-dial-action=save-rule]").click();
  model.emit({ type: "allow", token: "d1", rule: "r1", error: null });
  assert.equal(editor(), null);
  assert.equal(card().querySelector("[data-dial-rule-saved]"), null);
  await set("rules", [{ ...RULE, schema: DERIVED, fired: 1 }]);
  await set("pending", {});
  await set("transcript", [NOTE, { type: "outcome", id: "s1", action: "add-note", status: "done", preview: NOTE.preview, result: { id: 6 }, rule: "r1" }]);
  assert.equal(card().getAttribute("data-dial-status"), "done");
  assert.equal(text(card().querySelector("[data-dial-by-rule]")), "Accepted by rule r1");
});

test("the schema written by hand is the one used: the rows say so; bad JSON is said and not sent; Back to the fields", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { card, sent, editor } = mounted({ transcript: [NOTE], pending: PENDING });
  card().querySelector("[data-dial-action=allow-rule]").click();
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  const toggle = editor().querySelector("[data-dial-action=rule-schema]");
  assert.equal(text(toggle), "Schema (JSON)");
  assert.equal(toggle.getAttribute("aria-expanded"), "false");
  toggle.click();
  assert.equal(toggle.getAttribute("aria-expanded"), "true");
  const area = editor().querySelector("[data-dial-rule-schema]");
  assert.deepEqual(JSON.parse(area.value), DERIVED);
  assert.equal(editor().querySelector("[data-dial-rule-overridden]").hidden, true);
  type(area, '{"type": "object", ');
  assert.match(text(editor().querySelector("[data-dial-rule-json-error]")), /^That is not valid JSON/);
  assert.equal(editor().querySelector("[data-dial-rule-check]").getAttribute("data-dial-rule-check"), "invalid");
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  assert.equal(drafts(sent).length, 1, "nothing sent for JSON that does not parse");
  type(area, '{"type": "object", "required": ["text"]}');
  assert.equal(editor().querySelector("[data-dial-rule-json-error]").hidden, true);
  assert.equal(editor().querySelector("[data-dial-rule-overridden]").hidden, false, "the rows say they are overridden");
  assert.ok(editor().querySelectorAll("[data-dial-rule-field] button").every((b) => b.disabled));
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  assert.deepEqual(sent().at(-1), { type: "rule-draft", token: "d1", schema: { type: "object", required: ["text"] } });
  editor().querySelector("[data-dial-action=rule-schema-reset]").click();
  assert.equal(editor().querySelector("[data-dial-rule-overridden]").hidden, true);
  assert.deepEqual(JSON.parse(editor().querySelector("[data-dial-rule-schema]").value), DERIVED);
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  assert.deepEqual(sent().at(-1), { type: "rule-draft", token: "d1", schema: DERIVED });
});

test("a payload that is no object: one row for the whole value; Escape and Cancel close the editor, choices kept", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const scalar = { ...NOTE, payload: "milk" };
  const { card, sent, editor, choose } = mounted({ transcript: [scalar], pending: { ...PENDING, payload: "milk" } });
  card().querySelector("[data-dial-action=allow-rule]").click();
  const rows = editor().querySelectorAll("[data-dial-rule-field]");
  assert.deepEqual(rows.map((r) => r.getAttribute("data-dial-rule-field")), [""]);
  assert.equal(text(rows[0].querySelector(".dial-rule-field-name")), "The whole proposal");
  choose("any", "");
  t.mock.timers.tick(RULE_DRAFT_WAIT_MS);
  assert.deepEqual(sent(), [{ type: "rule-draft", token: "d1", schema: { type: "string" } }]);
  editor().dispatchEvent(new shim.Event("keydown", { key: "Escape" }));
  assert.equal(editor(), null);
  assert.equal(document.activeElement, card().querySelector("[data-dial-action=allow-rule]"));
  card().querySelector("[data-dial-action=allow-rule]").click();
  assert.equal(editor().querySelector('[data-dial-action=rule-field-any][data-dial-field=""]').getAttribute("aria-pressed"), "true");
  editor().querySelector("[data-dial-action=cancel-rule]").click();
  assert.equal(editor(), null);
});

// ---- accepted by a rule, and the rules panel -----------------------------------------------------

test("a card a rule accepted has no decision buttons and says which rule; the id opens the panel at it", async () => {
  const byRule = { ...NOTE, allowable: undefined, rule: "r1" };
  const done = { type: "outcome", id: "s1", action: "add-note", status: "done", preview: NOTE.preview, result: { id: 7 }, rule: "r1" };
  const { card, el, set } = mounted({ transcript: [byRule], pending: PENDING, rules: [RULE] });
  assert.equal(card().querySelector("[data-dial-action=accept], [data-dial-action=edit], [data-dial-action=dismiss]"), null);
  assert.equal(text(card().querySelector("[data-dial-by-rule]")), "Accepted by rule r1");
  await set("pending", {});
  await set("transcript", [byRule, done]);
  assert.equal(card().querySelector("[data-dial-action=accept]"), null);
  assert.match(text(card().querySelector(".dial-outcome")), /^Done/);
  const panel = el.querySelector("[data-dial-rules]");
  assert.equal(panel.hidden, true);
  const link = card().querySelector("[data-dial-action=show-rule]");
  assert.equal(link.getAttribute("data-dial-rule"), "r1");
  link.click();
  assert.equal(panel.hidden, false);
  assert.equal(el.querySelector("[data-dial-action=rules]").getAttribute("aria-expanded"), "true");
  const entry = panel.querySelector('[data-dial-rule-id="r1"]');
  assert.ok(entry.hasAttribute("data-dial-highlight"));
  assert.equal(document.activeElement, entry);
  // revoked: the card says so, and offers no link
  await set("rules", []);
  assert.equal(text(card().querySelector("[data-dial-by-rule]")), "Accepted by rule r1 (revoked)");
  assert.equal(card().querySelector("[data-dial-action=show-rule]"), null);
  assert.equal(text(panel.querySelector("[data-dial-rule-gone]")), "Rule r1 is no longer there: it was revoked.");
});

test("the rules panel lists every rule from the trait; Revoke sends once and disables itself", async () => {
  const other = { id: "r2", action: "set-due", schema: { const: 1 }, scope: "notebook", created: "2025-03-15T10:00:00Z", fired: 1 };
  const { el, sent, set } = mounted({ transcript: [], rules: [] });
  const toggle = el.querySelector("[data-dial-action=rules]");
  assert.equal(toggle.hidden, true, "no rule, no allowable card: nothing to show");
  assert.equal(el.querySelector(".dial-footer").hidden, true);
  await set("transcript", [NOTE]);
  assert.equal(toggle.hidden, false, "an allowable card: the toggle shows");
  assert.equal(text(toggle), "Rules (0)");
  toggle.click();
  const panel = el.querySelector("[data-dial-rules]");
  assert.equal(text(panel), NO_RULES);
  assert.equal(NO_RULES, 'No rules. On a card, "Always allow like this…" makes one.');
  await set("rules", [RULE, other]);
  assert.equal(text(toggle), "Rules (2)");
  const entries = panel.querySelectorAll("[data-dial-rule-id]");
  assert.deepEqual(entries.map((e) => e.getAttribute("data-dial-rule-id")), ["r1", "r2"]);
  assert.deepEqual(entries.map((e) => text(e.querySelector(".dial-rule-head"))),
    ["r1 · add-note · this conversation Revoke", "r2 · set-due · this notebook Revoke"]);
  assert.equal(text(entries[0].querySelector(".dial-rule-meta")), `accepted 3 proposals · made ${madeAt(RULE.created)}`);
  assert.equal(text(entries[1].querySelector(".dial-rule-meta")), `accepted 1 proposal · made ${madeAt(other.created)}`);
  assert.deepEqual(JSON.parse(entries[0].querySelector("pre").textContent), RULE.schema);
  const revoke = () => panel.querySelector('[data-dial-action=revoke][data-dial-rule="r1"]');
  revoke().click();
  revoke().click();
  assert.deepEqual(sent(), [{ type: "revoke", id: "r1" }]);
  assert.equal(revoke().disabled, true);
  await set("rules", [other]);
  assert.deepEqual(panel.querySelectorAll("[data-dial-rule-id]").map((e) => e.getAttribute("data-dial-rule-id")), ["r2"]);
  toggle.click();
  assert.equal(panel.hidden, true);
  assert.equal(toggle.getAttribute("aria-expanded"), "false");
});

test("a rule's time reads short and local; what is no date is shown as it came", () => {
  assert.notEqual(madeAt("2025-03-14T09:12:00Z"), "2025-03-14T09:12:00Z");
  assert.match(madeAt("2025-03-14T09:12:00Z"), /\d/);
  assert.equal(madeAt("soon"), "soon");
  assert.equal(madeAt(undefined), "");
});

test("a conversation shown read-only says so, lists its file's rules as not active, and Trust this file sends once", async () => {
  const { el, sent, set } = mounted({ transcript: [], rules: [], untrusted: {} });
  const notice = el.querySelector("[data-dial-untrusted]");
  assert.equal(notice.hidden, true, "a conversation that may act: no notice");
  await set("untrusted", { file: ".dial/eda.json", rules: [{ ...RULE, id: "r7", scope: "notebook" }] });
  assert.equal(notice.hidden, false);
  assert.match(text(notice), /comes from \.dial\/eda\.json, a file you did not make/);
  const listed = notice.querySelector('[data-dial-untrusted-rule="r7"]');
  assert.match(text(listed), /r7 · add-note · this notebook · not active, from a file you did not make/);
  assert.equal(notice.querySelector("[data-dial-action=revoke]"), null, "nothing to revoke: it is not active");
  const trust = () => notice.querySelector("[data-dial-action=trust]");
  assert.equal(text(trust()), "Trust this file");
  trust().click();
  trust().click();
  assert.deepEqual(sent(), [{ type: "trust" }]);
  assert.equal(trust().disabled, true);
  await set("untrusted", { file: ".dial/eda.json", rules: [], error: ".dial/eda.json could not be signed: read-only" });
  assert.equal(trust().disabled, false, "it failed: offered again, with why");
  assert.match(text(notice.querySelector("[data-dial-trust-error]")), /could not be signed/);
  await set("untrusted", {});
  assert.equal(notice.hidden, true);
});

test("while a conversation is read-only the message box and Send are off, and say why; trusted, they are back", async () => {
  const { el, set } = mounted({ transcript: [], rules: [], untrusted: {} });
  const say = el.querySelector("[data-dial-field=say]");
  const send = el.querySelector("[data-dial-action=say]");
  assert.equal(say.disabled, false);
  await set("untrusted", { file: ".dial/eda.json", rules: [] });
  assert.equal(say.disabled, true, "what is typed would only be refused");
  assert.equal(send.disabled, true);
  assert.match(say.placeholder, /Read-only.*Trust this file/);
  await set("untrusted", {});
  assert.equal(say.disabled, false);
  assert.equal(send.disabled, false);
  assert.doesNotMatch(say.placeholder, /Read-only/);
});

test("a notebook rule another chat read from its file is listed as not active here, with Confirm", async () => {
  const { el, sent, set } = mounted({ transcript: [], rules: [] });
  await set("rules", [{ ...RULE, id: "r7", scope: "notebook", state: "unconfirmed" }]);
  const toggle = el.querySelector("[data-dial-action=rules]");
  toggle.click();
  const entry = el.querySelector('[data-dial-rule-id="r7"]');
  assert.match(text(entry.querySelector(".dial-rule-head")), /not active here: another chat read it from its file Confirm/);
  assert.equal(entry.querySelector("[data-dial-action=revoke]"), null);
  entry.querySelector("[data-dial-action=confirm-rule]").click();
  assert.deepEqual(sent(), [{ type: "confirm-rule", id: "r7" }]);
});
