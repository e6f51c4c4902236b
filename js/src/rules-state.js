// @ts-check
// The rule editor's state, one per card (view.rules, kept across redraws), and what it sends:
// opened with its rows derived from the card's payload, changed by the person, the schema
// checked by the kernel once a change has rested, saved. The kernel's answers come back through
// rules-messages.js; the editor is drawn by rules.js.
//
//   allow-rule ──▶ openRuleEditor: view.rules[id] opened (the rows derived again if the
//                  payload changed since)
//   each change ──▶ ruleChanged ──(RULE_DRAFT_WAIT_MS)──▶ {type: 'rule-draft', token, schema}
//                   (only for a schema that parses and is not the one already answered)
//   save-rule  ──▶ saveRule ──▶ {type: 'allow', token, schema, scope} (once canSave)
//   Cancel / Escape ──▶ closeRuleEditor (what was chosen is kept for next time)

import { canonical } from "./review-shapes.js";
import { initialField, ruleFields, ruleSchemaOf } from "./rules-schema.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */
/** @typedef {import("./state.js").ViewState} ViewState */
/** @typedef {import("./state.js").RuleEdit} RuleEdit */

/** Milliseconds a change in the rule editor rests before the kernel is asked about it. */
export const RULE_DRAFT_WAIT_MS = 200;

/**
 * The card's payload now: the pending one, else the proposed one.
 * @param {SuggestionItem} item
 * @returns {Json}
 */
function payloadOf(item) {
  const payload = item.pending && item.pending.payload !== undefined ? item.pending.payload : item.event.payload;
  return payload === undefined ? null : payload;
}

/**
 * The card's rule editor, made (closed, every field exactly) the first time.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {RuleEdit}
 */
export function ruleEditFor(view, item) {
  const id = String(item.event.id);
  let rule = view.rules.get(id);
  if (!rule) {
    rule = {
      open: false, payload: null, fields: new Map(), json: null, jsonOpen: false, scope: "conversation",
      token: item.pending ? String(item.pending.token) : "", sig: null, answer: null, timer: null,
      saving: false, saveError: null, saved: null, sync: null,
    };
    derive(rule, payloadOf(item));
    view.rules.set(id, rule);
  }
  return rule;
}

/**
 * Start the rows again from `payload`: every field exactly its value.
 * @param {RuleEdit} rule
 * @param {Json} payload
 */
function derive(rule, payload) {
  rule.payload = structuredClone(payload);
  rule.fields = new Map(ruleFields(rule.payload).map((row) => [row.pointer, initialField(row.value)]));
  rule.json = null;
}

/**
 * The decide token waiting for card `id` now, or null.
 * @param {ViewState} view
 * @param {string} id
 */
function tokenFor(view, id) {
  const pending = /** @type {{kind?: string, id?: string, token?: string}} */ (view.model.get("pending") || {});
  return pending.kind === "decide" && String(pending.id) === id && pending.token ? String(pending.token) : null;
}

/**
 * Open the card's rule editor (its rows derived again if the payload changed since), focus its
 * first choice, and ask the kernel about the schema.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 */
export function openRuleEditor(view, item) {
  const rule = ruleEditFor(view, item);
  if (canonical(payloadOf(item)) !== canonical(rule.payload)) derive(rule, payloadOf(item));
  rule.open = true;
  rule.saving = false;
  rule.saveError = null;
  rule.saved = null;
  rule.sig = null; // ask again: the conversation may have more proposals since
  rule.answer = null;
  view.refresh(item, { focusSelector: "[data-dial-rule-editor] [aria-pressed=true]" });
  ruleChanged(view, String(item.event.id), rule);
}

/**
 * Close the editor (what was chosen is kept for next time); focus goes back to its button.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 */
export function closeRuleEditor(view, item) {
  const rule = ruleEditFor(view, item);
  rule.open = false;
  if (rule.timer) clearTimeout(rule.timer);
  rule.timer = null;
  view.refresh(item, { focusAction: "allow-rule" });
}

/**
 * After a change: the schema now; if it is not the one checked, the check is asked for once
 * the change has rested (nothing is asked while it does not parse). The live parts redrawn.
 * @param {ViewState} view
 * @param {string} id
 * @param {RuleEdit} rule
 */
export function ruleChanged(view, id, rule) {
  const token = tokenFor(view, id) ?? "";
  if (token !== rule.token) {
    rule.token = token; // a new decision is waiting (the old one's answers are no use)
    rule.sig = null;
    rule.answer = null;
  }
  const result = ruleSchemaOf(rule);
  const sig = result.error === undefined ? canonical(result.schema) : null;
  if (sig !== rule.sig) {
    rule.sig = sig;
    if (rule.answer && (rule.answer.token !== rule.token || canonical(rule.answer.schema) !== sig)) rule.answer = null;
    if (rule.timer) clearTimeout(rule.timer);
    rule.timer = null;
    if (sig !== null && !rule.answer) rule.timer = setTimeout(() => askRule(view, id, rule, sig), RULE_DRAFT_WAIT_MS);
  }
  rule.sync?.();
}

/**
 * Ask the kernel about the schema, if it is still the editor's and its token still waits.
 * @param {ViewState} view
 * @param {string} id
 * @param {RuleEdit} rule
 * @param {string} sig
 */
function askRule(view, id, rule, sig) {
  rule.timer = null;
  if (!rule.open || rule.sig !== sig || view.rules.get(id) !== rule) return;
  const token = tokenFor(view, id);
  const result = ruleSchemaOf(rule);
  if (!token || token !== rule.token || result.error !== undefined) return;
  view.model.send({ type: "rule-draft", token, schema: result.schema });
}

/**
 * Whether Save may be clicked: the schema parses, the kernel's answer for this very schema has
 * come and has no error, and no Save is waiting for its answer.
 * @param {RuleEdit} rule
 */
export function canSave(rule) {
  return Boolean(rule.open && !rule.saving && rule.sig !== null && rule.answer && !rule.answer.error
    && rule.answer.token === rule.token && canonical(rule.answer.schema) === rule.sig);
}

/**
 * Save: {type: 'allow', token, schema, scope}; Save is disabled until the kernel answers.
 * @param {ViewState} view
 * @param {string} id
 * @param {RuleEdit} rule
 */
export function saveRule(view, id, rule) {
  const result = ruleSchemaOf(rule);
  const token = tokenFor(view, id);
  if (!canSave(rule) || result.error !== undefined || !token || token !== rule.token) return;
  rule.saving = true;
  rule.saveError = null;
  view.model.send({ type: "allow", token, schema: result.schema, scope: rule.scope });
  rule.sync?.();
}
