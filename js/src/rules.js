// @ts-check
// "Always allow like this…": on a waiting card the kernel marked `allowable`, an editor that
// makes a rule from the card's payload — one row per top-level field (exactly this value, any
// value of its type, a range for a number, a pattern for a string), or the schema written by
// hand — with its scope; it asks the kernel what the schema would have accepted, and saves the
// rule (which accepts the card). The kernel decides what a rule is and what it matches; this
// only derives a schema, shows the kernel's answer and sends the person's clicks.
//
//   allow-rule ──▶ view.rules[id] opened (the fields' schema derived from the payload)
//   each change ──(RULE_DRAFT_WAIT_MS)──▶ {type: 'rule-draft', token, schema}
//   {type: 'rule-draft', token, schema, error, matches, total, card} ──▶ the live check, for
//                 that very schema only (an answer for another schema or token is dropped)
//   save-rule  ──▶ {type: 'allow', token, schema, scope}
//   {type: 'allow', token, rule, error} ──▶ the error in the editor (Save works again), or the
//                 editor closed: the kernel resolves the card (pending clears, the outcome
//                 comes with `rule`); a rule this card does not match is said on the card
//
// The field rows: data-dial-rule-field=<pointer> ('/text'; '' for a payload that is no object);
// its choices data-dial-action=rule-field-exact | -any | -range | -pattern with
// data-dial-field=<pointer>; the inputs data-dial-rule-min | -max | -pattern = <pointer>.

import { canonical } from "./review.js";
import { h, uid } from "./dom.js";
import { focusAfterDecision } from "./focus.js";
import { jsonPointer, summarise } from "./text.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./contract.js").RuleDraftResultMessage} RuleDraftResultMessage */
/** @typedef {import("./contract.js").AllowResultMessage} AllowResultMessage */
/** @typedef {import("./contract.js").SuggestionEvent} SuggestionEvent */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */
/** @typedef {import("./state.js").ViewState} ViewState */
/** @typedef {import("./state.js").RuleEdit} RuleEdit */
/** @typedef {import("./state.js").FieldRule} FieldRule */
/** @typedef {'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null'} ValueType */
/** @typedef {{schema: Json, error?: undefined, field?: undefined} | {error: string, field: string | null, schema?: undefined}} SchemaResult */

/** Milliseconds a change in the rule editor rests before the kernel is asked about it. */
export const RULE_DRAFT_WAIT_MS = 200;

// ---- pure: the schema a rule's fields make ----------------------------------------------------

/**
 * The JSON Schema type of a value: 'integer' for a whole number, 'number' for any other.
 * @param {Json} value
 * @returns {ValueType}
 */
export function valueType(value) {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  return "object";
}

/**
 * Text as a regular expression that matches it literally ('a.b' -> 'a\.b').
 * @param {string} text
 */
export function regexEscape(text) {
  return String(text).replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

/**
 * The choices a field offers: exactly, any (of its type), and a range for a number, a pattern
 * for a string.
 * @param {Json} value
 * @returns {FieldRule['kind'][]}
 */
export function kindsFor(value) {
  const type = valueType(value);
  return ["exact", "any", ...(type === "integer" || type === "number" ? /** @type {const} */ (["range"]) : []),
    ...(type === "string" ? /** @type {const} */ (["pattern"]) : [])];
}

/**
 * A field's rule at first: exactly its value; the range and the pattern pre-filled from it.
 * @param {Json} value
 * @returns {FieldRule}
 */
export function initialField(value) {
  const number = typeof value === "number";
  return {
    kind: "exact", min: number ? String(value) : "", max: number ? String(value) : "",
    pattern: typeof value === "string" ? `^${regexEscape(value)}$` : "",
  };
}

/**
 * @param {Json} value
 * @returns {value is {[key: string]: Json}}
 */
function isObject(value) {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}

/**
 * The rows of a rule: each top-level field of an object payload, else the whole value ('').
 * @param {Json} payload
 * @returns {{pointer: string, name: string, value: Json}[]}
 */
export function ruleFields(payload) {
  if (isObject(payload)) return Object.entries(payload).map(([name, value]) => ({ pointer: jsonPointer([name]), name, value }));
  return [{ pointer: "", name: "", value: payload ?? null }];
}

/**
 * One field's schema as its rule says, or why there is none (a bound that is no number).
 * @param {Json} value
 * @param {FieldRule} rule
 * @returns {{schema: {[key: string]: Json}} | {error: string}}
 */
export function fieldSchema(value, rule) {
  const type = valueType(value);
  if (rule.kind === "any") return { schema: { type } };
  if (rule.kind === "range" && (type === "integer" || type === "number")) {
    /** @type {{[key: string]: Json}} */
    const schema = { type };
    for (const [key, raw, label] of /** @type {const} */ ([["minimum", rule.min, "From"], ["maximum", rule.max, "To"]])) {
      const text = String(raw ?? "").trim();
      if (text === "") continue; // no bound on that side
      const bound = Number(text);
      if (!Number.isFinite(bound)) return { error: `${label} is not a number.` };
      schema[key] = bound;
    }
    if (typeof schema.minimum === "number" && typeof schema.maximum === "number" && schema.minimum > schema.maximum) {
      return { error: "From is above To: no value is in that range." };
    }
    return { schema };
  }
  if (rule.kind === "pattern" && type === "string") return { schema: { type: "string", pattern: String(rule.pattern ?? "") } };
  return { schema: { const: value } };
}

/**
 * The schema the rows make: for an object payload, an object of exactly those fields (each as
 * its rule says); for any other payload, the one field's schema. A field whose rule is not
 * given is exactly its value.
 * @param {Json} payload
 * @param {Map<string, FieldRule>} fields  pointer -> rule
 * @returns {SchemaResult}
 */
export function fieldsSchema(payload, fields) {
  const rows = ruleFields(payload);
  if (!isObject(payload)) {
    const one = fieldSchema(rows[0].value, fields.get("") ?? initialField(rows[0].value));
    return "error" in one ? { error: one.error, field: "" } : { schema: one.schema };
  }
  /** @type {[string, Json][]} */
  const entries = [];
  for (const row of rows) {
    const one = fieldSchema(row.value, fields.get(row.pointer) ?? initialField(row.value));
    if ("error" in one) return { error: one.error, field: row.pointer };
    entries.push([row.name, one.schema]);
  }
  // own properties whatever the agent named its fields: `__proto__` included (an assignment
  // would set the prototype, leaving that field out of the rule)
  const properties = Object.fromEntries(entries);
  return { schema: { type: "object", properties, required: rows.map((row) => row.name), additionalProperties: false } };
}

/**
 * The schema a rule starts with: every field exactly as it is.
 * @param {Json} payload
 */
export function derivedSchema(payload) {
  return /** @type {{schema: Json}} */ (fieldsSchema(payload, new Map())).schema;
}

/**
 * The schema the editor holds now: the hand-written one when there is one (or why it does not
 * parse), else the rows'.
 * @param {RuleEdit} rule
 * @returns {SchemaResult}
 */
export function ruleSchemaOf(rule) {
  if (rule.json !== null) {
    try {
      return { schema: JSON.parse(rule.json) };
    } catch (error) {
      return { error: `That is not valid JSON: ${/** @type {Error} */ (error).message}`, field: null };
    }
  }
  return fieldsSchema(rule.payload, rule.fields);
}

/**
 * Whether a card may get "Always allow like this…": the kernel said so, and it is no execute
 * block, no destructive card, nor one a rule already accepted.
 * @param {SuggestionEvent} event
 */
export function allowable(event) {
  return event.allowable === true && event.kind !== "execute" && !event.destructive && !event.rule;
}

// ---- the editor's state ---------------------------------------------------------------------

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
function closeRuleEditor(view, item) {
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
function saveRule(view, id, rule) {
  const result = ruleSchemaOf(rule);
  const token = tokenFor(view, id);
  if (!canSave(rule) || result.error !== undefined || !token || token !== rule.token) return;
  rule.saving = true;
  rule.saveError = null;
  view.model.send({ type: "allow", token, schema: result.schema, scope: rule.scope });
  rule.sync?.();
}

// ---- the kernel's answers --------------------------------------------------------------------

/**
 * The kernel's check of a schema: kept by the open editor whose token it is and whose schema
 * now is that very one (compared as canonical JSON); any other answer is dropped.
 * @param {ViewState} view
 * @param {RuleDraftResultMessage} message
 * @returns {boolean} whether an editor took it
 */
export function ruleDraftAnswered(view, message) {
  if (!message || typeof message !== "object") return false;
  const token = String(message.token);
  const sig = canonical(message.schema);
  for (const rule of view.rules.values()) {
    if (!rule.open || rule.token !== token || rule.sig === null || rule.sig !== sig) continue;
    rule.answer = {
      type: "rule-draft", token, schema: message.schema,
      error: typeof message.error === "string" && message.error.trim() ? message.error : null,
      matches: Array.isArray(message.matches)
        ? message.matches.filter((m) => m && typeof m === "object").slice(0, 20) : [],
      total: Number.isFinite(Number(message.total)) ? Number(message.total) : 0,
      card: message.card !== false,
    };
    if (rule.timer) clearTimeout(rule.timer);
    rule.timer = null;
    rule.sync?.();
    return true;
  }
  return false;
}

/**
 * The kernel's answer to Save: its error, said in the editor (Save works again); or the rule's
 * id: the editor closes (the kernel resolves the card), and if the card does not match the
 * rule, the card says it was saved and still waits.
 * @param {ViewState} view
 * @param {AllowResultMessage} message
 * @returns {boolean} whether an editor took it
 */
export function allowAnswered(view, message) {
  if (!message || typeof message !== "object") return false;
  const token = String(message.token);
  for (const [id, rule] of view.rules) {
    if (!rule.saving || rule.token !== token) continue;
    rule.saving = false;
    const saved = typeof message.rule === "string" && message.rule ? message.rule : null;
    const error = typeof message.error === "string" && message.error.trim() ? message.error : null;
    if (error || !saved) {
      rule.saveError = error || "The rule was not saved (the kernel did not say why).";
      rule.sync?.();
      return true;
    }
    rule.open = false;
    rule.saveError = null;
    const matched = typeof message.card === "boolean" ? message.card : !(rule.answer && rule.answer.card === false);
    rule.saved = matched ? null : saved;
    if (rule.timer) clearTimeout(rule.timer);
    rule.timer = null;
    for (const entry of view.nodes.values()) {
      const item = entry.item;
      if (item.kind === "suggestion" && String(item.event.id) === id && item.pending) {
        view.refresh(item, { focusAction: "allow-rule" });
        if (matched) focusAfterDecision(view.nodes.get(item.key)?.node); // the rule accepts the card
      }
    }
    return true;
  }
  return false;
}

/**
 * Listen for the kernel's rule-draft and allow answers.
 * @param {Model} connected
 * @param {ViewState} view
 * @returns {() => void} stop listening
 */
export function listenForRules(connected, view) {
  const onMessage = (/** @type {{type?: string} | undefined} */ message) => {
    if (!message) return;
    if (message.type === "rule-draft") ruleDraftAnswered(view, /** @type {RuleDraftResultMessage} */ (message));
    else if (message.type === "allow") allowAnswered(view, /** @type {AllowResultMessage} */ (message));
  };
  connected.on("msg:custom", onMessage);
  return () => connected.off("msg:custom", onMessage);
}

// ---- drawn -------------------------------------------------------------------------------------

/** @type {{[type: string]: string}} */
const ANY_LABEL = {
  string: "Any text", integer: "Any whole number", number: "Any number", boolean: "Any true / false",
  array: "Any list", object: "Any object", null: "Null",
};

/**
 * @param {FieldRule['kind']} kind
 * @param {Json} value
 */
function kindLabel(kind, value) {
  if (kind === "exact") return "Exactly this";
  if (kind === "any") return ANY_LABEL[valueType(value)];
  if (kind === "range") return "A range";
  return "A pattern";
}

/** @param {Json} value */
function jsonText(value) {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** @param {Json} schema */
function pretty(schema) {
  try {
    return JSON.stringify(schema, null, 2) ?? "";
  } catch {
    return "";
  }
}

/**
 * What the card says after a rule was saved that it does not match itself, or null.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {HTMLElement | null}
 */
export function ruleSavedNote(view, item) {
  const rule = view.rules.get(String(item.event.id));
  if (!rule || !rule.saved || rule.open) return null;
  return h("div", { className: "dial-rule-saved", role: "status", "data-dial-rule-saved": rule.saved },
    `Saved as rule ${rule.saved}. This card itself does not match it, so it still waits for you.`);
}

/**
 * The rule editor of a waiting card.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {HTMLElement}
 */
export function ruleEditor(view, item) {
  const id = String(item.event.id);
  const rule = ruleEditFor(view, item);
  const action = String(item.event.action || "");
  const titleId = uid("rule-title");
  const box = h("section", { className: "dial-rule-editor", "data-dial-rule-editor": id, "aria-labelledby": titleId });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      closeRuleEditor(view, item);
    }
  });
  const changed = () => ruleChanged(view, id, rule);
  box.append(h("div", { className: "dial-rule-title", id: titleId }, `Always allow ${action} like this`),
    h("div", { className: "dial-note" },
      `From now on, a proposal of ${action} that matches is accepted without asking you. How may each field differ?`));

  // the rows, and what says they are overridden by a hand-written schema
  const back = h("button", {
    type: "button", className: "dial-button dial-link", "data-dial-action": "rule-schema-reset",
    onClick: () => {
      rule.json = null;
      view.refresh(item, { focusSelector: "[data-dial-rule-editor] [aria-pressed=true]" });
      changed();
    },
  }, "Back to the fields");
  const overridden = h("div", { className: "dial-rule-overridden", "data-dial-rule-overridden": "" },
    "The schema written by hand below is the one used; these choices are not.", " ", back);
  const fields = h("div", { className: "dial-rule-fields", role: "group", "aria-label": "How each field may differ" });
  for (const row of ruleFields(rule.payload)) fields.append(fieldRow(view, item, rule, row, changed));

  // the schema as JSON, collapsed
  const region = h("div", { className: "dial-rule-schema", id: uid("rule-schema") });
  const area = h("textarea", {
    className: "dial-input dial-mono dial-json", "data-dial-rule-schema": "", "aria-label": "The rule's JSON Schema",
    spellcheck: "false", rows: "8",
  });
  const first = ruleSchemaOf(rule);
  area.value = rule.json !== null ? rule.json : first.error === undefined ? pretty(first.schema) : "";
  area.addEventListener("input", () => {
    rule.json = area.value;
    changed();
  });
  const jsonError = h("div", { className: "dial-json-error", role: "alert", "data-dial-rule-json-error": "" });
  region.append(area, jsonError);
  region.hidden = !rule.jsonOpen;
  const toggle = h("button", {
    type: "button", className: "dial-disclose", "data-dial-action": "rule-schema",
    "aria-expanded": String(rule.jsonOpen), "aria-controls": region.id,
    onClick: () => {
      rule.jsonOpen = !rule.jsonOpen;
      region.hidden = !rule.jsonOpen;
      toggle.setAttribute("aria-expanded", String(rule.jsonOpen));
      sync();
    },
  }, "Schema (JSON)");

  // the scope
  const name = uid("rule-scope");
  const scope = h("fieldset", { className: "dial-rule-scope" }, h("legend", {}, "Applies to"),
    ...(/** @type {const} */ ([["conversation", "This conversation"], ["notebook", "This notebook"]])).map(([value, label]) => {
      const choose = () => { rule.scope = value; };
      return h("label", { className: "dial-check-row" },
        h("input", {
          type: "radio", name, value, checked: rule.scope === value, "data-dial-action": `rule-scope-${value}`,
          onClick: choose, onChange: choose,
        }), label);
    }));

  const check = h("div", { className: "dial-rule-check", role: "status", "aria-live": "polite", "data-dial-rule-check": "checking" });
  const saveError = h("div", { className: "dial-rule-error", role: "alert", "data-dial-rule-error": "" });
  const save = /** @type {HTMLButtonElement} */ (h("button", {
    type: "button", className: "dial-button dial-primary", "data-dial-action": "save-rule",
    onClick: () => saveRule(view, id, rule),
  }, "Save rule and accept"));
  const cancel = h("button", {
    type: "button", className: "dial-button", "data-dial-action": "cancel-rule", onClick: () => closeRuleEditor(view, item),
  }, "Cancel");

  box.append(overridden, fields, h("div", { className: "dial-rule-json" }, toggle, region), scope, check, saveError,
    h("div", { className: "dial-buttons" }, save, cancel));

  /** The parts that follow the state: redrawn in place, what is being typed is left alone. */
  function sync() {
    const result = ruleSchemaOf(rule);
    const hand = rule.json !== null;
    overridden.hidden = !hand;
    fields.classList.toggle("dial-rule-fields-overridden", hand);
    fields.querySelectorAll("button, input").forEach((node) => {
      /** @type {HTMLButtonElement} */ (node).disabled = hand;
    });
    fields.querySelectorAll("[data-dial-rule-field-error]").forEach((node) => {
      const mine = !hand && result.error !== undefined && result.field === node.getAttribute("data-dial-rule-field-error");
      node.textContent = mine ? String(result.error) : "";
      /** @type {HTMLElement} */ (node).hidden = !mine;
    });
    if (!hand && result.error === undefined && document.activeElement !== area) area.value = pretty(result.schema);
    const jsonWrong = hand && result.error !== undefined;
    jsonError.textContent = jsonWrong ? String(result.error) : "";
    jsonError.hidden = !jsonWrong;
    if (jsonWrong) area.setAttribute("aria-invalid", "true");
    else area.removeAttribute("aria-invalid");
    if (jsonWrong && !rule.jsonOpen) { // the error is in the box: show it
      rule.jsonOpen = true;
      region.hidden = false;
      toggle.setAttribute("aria-expanded", "true");
    }
    drawCheck(check, rule, result, action);
    save.disabled = !canSave(rule);
    save.textContent = rule.saving ? "Saving…" : rule.answer && rule.answer.card === false ? "Save rule" : "Save rule and accept";
    saveError.textContent = rule.saveError || "";
    saveError.hidden = !rule.saveError;
  }
  rule.sync = sync;
  sync();
  if (item.pending && String(item.pending.token) !== rule.token) changed(); // a new token: ask again
  return box;
}

/**
 * One field's row: its name and value, its choices, and the range's or the pattern's inputs.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @param {RuleEdit} rule
 * @param {{pointer: string, name: string, value: Json}} row
 * @param {() => void} changed
 */
function fieldRow(view, item, rule, row, changed) {
  const { pointer, value } = row;
  let fieldRule = rule.fields.get(pointer);
  if (!fieldRule) {
    fieldRule = initialField(value);
    rule.fields.set(pointer, fieldRule);
  }
  const current = fieldRule;
  const label = pointer === "" ? "The whole proposal" : row.name;
  const text = jsonText(value);
  const box = h("div", { className: "dial-rule-field", "data-dial-rule-field": pointer, "data-dial-kind": current.kind });
  const choices = h("div", { className: "dial-rule-choices", role: "group", "aria-label": `${label}: which values` },
    kindsFor(value).map((kind) => h("button", {
      type: "button", className: "dial-rule-choice", "data-dial-action": `rule-field-${kind}`, "data-dial-field": pointer,
      "aria-pressed": String(current.kind === kind),
      onClick: () => {
        if (current.kind === kind) return;
        current.kind = kind;
        const at = `[data-dial-rule-editor] [data-dial-action="rule-field-${kind}"][data-dial-field="${CSS.escape(pointer)}"]`;
        view.refresh(item, { focusSelector: at });
        changed();
      },
    }, kindLabel(kind, value))));
  box.append(h("div", { className: "dial-rule-field-head" },
    h("span", { className: "dial-rule-field-name" }, label), " ",
    h("span", { className: "dial-rule-field-value dial-mono", title: summarise(text, 2000) }, summarise(text, 120))),
  choices);
  const integer = valueType(value) === "integer";
  if (current.kind === "range") {
    /** @param {'min' | 'max'} side @param {string} word */
    const bound = (side, word) => h("label", { className: "dial-rule-bound" }, `${word} `,
      h("input", {
        type: "number", step: integer ? "1" : "any", className: "dial-input dial-input-number", value: current[side],
        [`data-dial-rule-${side}`]: pointer, "aria-label": `${label}: ${word.toLowerCase()} (empty: no bound)`,
        onInput: (/** @type {Event} */ event) => {
          current[side] = /** @type {HTMLInputElement} */ (event.currentTarget).value;
          changed();
        },
      }));
    box.append(h("div", { className: "dial-rule-inputs" }, bound("min", "From"), bound("max", "To")));
  } else if (current.kind === "pattern") {
    box.append(h("div", { className: "dial-rule-inputs" }, h("label", { className: "dial-rule-bound dial-rule-pattern" }, "Pattern ",
      h("input", {
        type: "text", className: "dial-input dial-mono", value: current.pattern, spellcheck: "false",
        "data-dial-rule-pattern": pointer, "aria-label": `${label}: pattern (a regular expression)`,
        onInput: (/** @type {Event} */ event) => {
          current.pattern = /** @type {HTMLInputElement} */ (event.currentTarget).value;
          changed();
        },
      }))));
  }
  box.append(h("div", { className: "dial-field-error", "data-dial-rule-field-error": pointer }));
  return box;
}

/**
 * The live check: "Checking…", why the schema cannot be a rule, or what it would have
 * accepted (and a warning when it does not accept this very card).
 * @param {HTMLElement} box
 * @param {RuleEdit} rule
 * @param {SchemaResult} result
 * @param {string} action
 */
function drawCheck(box, rule, result, action) {
  const answer = rule.answer;
  if (result.error !== undefined) {
    box.setAttribute("data-dial-rule-check", "invalid");
    box.replaceChildren(h("span", { className: "dial-note" }, "Fix the schema to check it."));
    return;
  }
  if (!answer) {
    box.setAttribute("data-dial-rule-check", "checking");
    box.replaceChildren(h("span", { className: "dial-note" }, "Checking…"));
    return;
  }
  if (answer.error) {
    box.setAttribute("data-dial-rule-check", "error");
    box.replaceChildren(h("div", { className: "dial-rule-check-error" },
      h("strong", {}, "Not a valid rule: "), summarise(answer.error, 600)));
    return;
  }
  box.setAttribute("data-dial-rule-check", "ok");
  const total = answer.total;
  /** @type {HTMLElement[]} */
  const parts = [];
  if (total > 0) {
    parts.push(h("div", {}, `Would have accepted ${total} earlier proposal${total === 1 ? "" : "s"}:`));
    const list = h("ul", { className: "dial-rule-matches" }, answer.matches.map((match) => h("li", { "data-dial-rule-match": String(match.id ?? "") },
      summarise(match.preview ?? "", 200),
      h("span", { className: "dial-rule-match-id" }, ` · ${summarise(match.id ?? "", 40)}${match.status ? ` · ${summarise(match.status, 40)}` : ""}`))));
    if (total > answer.matches.length) list.append(h("li", { className: "dial-more" }, `and ${total - answer.matches.length} more`));
    parts.push(list);
  } else {
    parts.push(h("div", {}, `No earlier proposal of ${action} would have matched.`));
  }
  if (answer.card === false) {
    parts.push(h("div", { className: "dial-rule-card-warning", "data-dial-rule-card-warning": "" },
      h("span", { className: "dial-dry-run-warn", "aria-hidden": "true" }, "⚠ "),
      "This card itself does not match this rule: saving it does not accept this card, which will still wait for you."));
  }
  box.replaceChildren(...parts);
}
