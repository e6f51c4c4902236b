// @ts-check
// "Always allow like this…", drawn: on a waiting card the kernel marked `allowable`, an editor
// that makes a rule from the card's payload — one row per top-level field (exactly this value,
// any value of its type, a range for a number, a pattern for a string), or the schema written
// by hand — with its scope; the kernel's check of the schema (what it would have accepted), and
// Save (which accepts the card). The kernel decides what a rule is and what it matches; the
// editor only derives a schema, shows the kernel's answer and sends the person's clicks.
//
//   rules-schema.js    the schema the rows make (pure)
//   rules-state.js     the editor's state per card, and what it sends (rule-draft, allow)
//   rules-messages.js  the kernel's answers (the check, Save's outcome)
//   rules.js           the editor drawn, and what cards.js and view.js use of the four
//
// The field rows: data-dial-rule-field=<pointer> ('/text'; '' for a payload that is no object);
// its choices data-dial-action=rule-field-exact | -any | -range | -pattern with
// data-dial-field=<pointer>; the inputs data-dial-rule-min | -max | -pattern = <pointer>.

import { h, uid } from "./dom.js";
import { initialField, kindsFor, ruleFields, ruleSchemaOf, valueType } from "./rules-schema.js";
import { canSave, closeRuleEditor, ruleChanged, ruleEditFor, saveRule } from "./rules-state.js";
import { summarise, words } from "./text.js";

export { allowable } from "./rules-schema.js";
export { RULE_DRAFT_WAIT_MS, openRuleEditor } from "./rules-state.js";
export { listenForRules } from "./rules-messages.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */
/** @typedef {import("./state.js").ViewState} ViewState */
/** @typedef {import("./state.js").RuleEdit} RuleEdit */
/** @typedef {import("./state.js").FieldRule} FieldRule */
/** @typedef {import("./rules-schema.js").SchemaResult} SchemaResult */

/**
 * The editor's parts that follow its state (syncEditor).
 * @typedef {{
 *   overridden: HTMLElement, fields: HTMLElement, region: HTMLElement, area: HTMLTextAreaElement,
 *   jsonError: HTMLElement, toggle: HTMLElement, check: HTMLElement, saveError: HTMLElement,
 *   save: HTMLButtonElement,
 * }} EditorParts
 */

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

  /** @type {EditorParts} */
  const parts = {
    ...fieldsPart(view, item, rule, changed),
    ...schemaPart(rule, changed, () => sync()),
    check: h("div", { className: "dial-rule-check", role: "status", "aria-live": "polite", "data-dial-rule-check": "checking" }),
    saveError: h("div", { className: "dial-rule-error", role: "alert", "data-dial-rule-error": "" }),
    save: /** @type {HTMLButtonElement} */ (h("button", {
      type: "button", className: "dial-button dial-primary", "data-dial-action": "save-rule",
      onClick: () => saveRule(view, id, rule),
    }, "Save rule and accept")),
  };
  const scope = scopePart(rule);
  const cancel = h("button", {
    type: "button", className: "dial-button", "data-dial-action": "cancel-rule", onClick: () => closeRuleEditor(view, item),
  }, "Cancel");

  box.append(parts.overridden, parts.fields, h("div", { className: "dial-rule-json" }, parts.toggle, parts.region), scope,
    parts.check, parts.saveError, h("div", { className: "dial-buttons" }, parts.save, cancel));

  /** The parts that follow the state: redrawn in place, what is being typed is left alone. */
  const sync = () => syncEditor(parts, rule, action);
  rule.sync = sync;
  sync();
  if (item.pending && String(item.pending.token) !== rule.token) changed(); // a new token: ask again
  return box;
}

/**
 * The editor's rows, and what says they are overridden by a hand-written schema (with the way
 * back to them).
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @param {RuleEdit} rule
 * @param {() => void} changed
 */
function fieldsPart(view, item, rule, changed) {
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
  return { overridden, fields };
}

/**
 * The schema as JSON, collapsed: the textarea (typing in it makes the hand-written schema the
 * rule's), its error, and the button that shows it.
 * @param {RuleEdit} rule
 * @param {() => void} changed
 * @param {() => void} sync  redraws the editor's live parts
 */
function schemaPart(rule, changed, sync) {
  const region = h("div", { className: "dial-rule-schema", id: uid("rule-schema") });
  const area = /** @type {HTMLTextAreaElement} */ (h("textarea", {
    className: "dial-input dial-mono dial-json", "data-dial-rule-schema": "", "aria-label": "The rule's JSON Schema",
    spellcheck: "false", rows: "8",
  }));
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
  return { region, area, jsonError, toggle };
}

/**
 * The scope: this conversation or this notebook.
 * @param {RuleEdit} rule
 */
function scopePart(rule) {
  const name = uid("rule-scope");
  return h("fieldset", { className: "dial-rule-scope" }, h("legend", {}, "Applies to"),
    ...(/** @type {const} */ ([["conversation", "This conversation"], ["notebook", "This notebook"]])).map(([value, label]) => {
      const choose = () => { rule.scope = value; };
      return h("label", { className: "dial-check-row" },
        h("input", {
          type: "radio", name, value, checked: rule.scope === value, "data-dial-action": `rule-scope-${value}`,
          onClick: choose, onChange: choose,
        }), label);
    }));
}

/**
 * The editor's live parts as the state says: the rows enabled unless a hand-written schema
 * overrides them, each row's error, the JSON (unless it is being typed) and its error, the
 * kernel's check, Save.
 * @param {EditorParts} parts
 * @param {RuleEdit} rule
 * @param {string} action
 */
function syncEditor(parts, rule, action) {
  const { overridden, fields, area, jsonError, region, toggle, check, save, saveError } = parts;
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
      h("span", { className: "dial-rule-match-id" }, ` · ${decided(match)}`))));
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

/**
 * What became of an earlier proposal a draft rule matches, in the person's words (the agent's
 * ids mean nothing to them).
 *   decided({id: "note-2", preview: "…", status: "done", edited: true})
 *     // "you edited it before it ran (the rule would have run it as proposed)"
 * @param {import("./contract.js").RuleMatch} match
 * @returns {string}
 */
function decided(match) {
  if (match.status === "done" && match.edited) return "you edited it before it ran (the rule would have run it as proposed)";
  const said = { done: "you accepted it", dismissed: "you dismissed it", superseded: words("superseded").replace(/^\s*—\s*/, ""),
    pending: "waiting for you", failed: "it failed", invalid: "it was refused", undone: "you accepted it, then undid it" };
  return Object.hasOwn(said, match.status) ? said[/** @type {keyof said} */ (match.status)] : summarise(match.status || "", 40);
}
