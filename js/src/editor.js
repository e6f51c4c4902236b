// @ts-check
// The editor on a waiting card: the payload as a form (when the action's schema allows one) or
// as JSON, with the kernel's refusal of the last edit placed on the fields it names. Save sends
// the edited payload (the card sends {type: 'decide', decision: 'edit', payload}); Cancel (or Escape) closes it; Ctrl/⌘+Enter saves.
// After every change of the payload, onEdit (the card asks what the edit would do); `aside`
// (the card's "What it will do") and `comments` (the card's comments, or Comment…:
// comments.js; they go with the Save) sit above Save.
//
//   draft.view  'form' ⇄ 'json'   (switching to the form parses the JSON first; bad JSON stays)
//   draft.local  the form's own errors: Save is refused while there are any

import { button, h, uid } from "./dom.js";
import { buildForm, formSupported } from "./form.js";
import { normalisePath } from "./text.js";

/** @typedef {import("./contract.js").DecidePending} DecidePending */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */
/** @typedef {import("./state.js").ViewState} ViewState */
/** @typedef {import("./state.js").Draft} Draft */
/** @typedef {{field: string, message: string}} PlacedError */

/**
 * The editor of one card, and what its parts share.
 * @typedef {{
 *   view: ViewState, item: SuggestionItem & {pending: DecidePending}, draft: Draft, box: HTMLElement,
 *   onSave: (payload: import("./contract.js").Json) => void, onEdit: () => void,
 * }} Edit
 */

/**
 * @param {ViewState} view
 * @param {SuggestionItem & {pending: DecidePending}} item
 * @param {Draft} draft
 * @param {(payload: import("./contract.js").Json) => void} onSave  sends the edit
 * @param {{aside?: HTMLElement | null, onEdit?: () => void, comments?: HTMLElement | null}} [options]
 */
export function editor(view, item, draft, onSave, { aside = null, onEdit = () => {}, comments = null } = {}) {
  const schema = item.event.schema || view.model.get("schemas")?.[String(item.event.action)];
  const hasForm = formSupported(schema) && draft.value && typeof draft.value === "object" && !Array.isArray(draft.value);
  if (!draft.view) draft.view = hasForm ? "form" : "json";
  if (!hasForm) draft.view = "json";
  const issue = item.pending.issue;
  /** @type {PlacedError[]} */
  const errors = (item.pending.errors || []).map((e) => ({ field: normalisePath(e.field), message: String(e.message || "") }));
  /** @type {Edit} */
  const edit = { view, item, draft, box: h("div", { className: "dial-editor" }), onSave, onEdit };
  const { box } = edit;
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      cancel(edit);
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save(edit);
    }
  });
  if (hasForm) box.append(tabs(edit));
  /** @type {Set<number>} */
  let placed = new Set();
  if (draft.view === "form") placed = formPart(edit, /** @type {import("./contract.js").JsonSchema} */ (schema), errors);
  else jsonPart(edit);
  if (issue) box.append(issueBox(item.pending, errors.filter((_, index) => !placed.has(index))));
  if (aside) box.append(aside);
  if (comments) box.append(comments);
  box.append(h("div", { className: "dial-buttons" },
    button("Save", "save-edit", () => save(edit), { kind: "dial-primary", aria: "Save the edited payload" }),
    button("Cancel", "cancel-edit", () => cancel(edit), { aria: "Cancel editing" })));
  return box;
}

/**
 * The Form / JSON tabs.
 * @param {Edit} edit
 */
function tabs({ view, item, draft }) {
  const list = h("div", { className: "dial-tabs", role: "tablist", "aria-label": "Edit as" });
  for (const [mode, label] of /** @type {const} */ ([["form", "Form"], ["json", "JSON"]])) {
    list.append(h("button", {
      type: "button", role: "tab", className: "dial-tab", "aria-selected": String(draft.view === mode),
      "data-dial-view": mode,
      onClick: () => {
        if (draft.view === mode) return;
        if (mode === "form" && !syncFromJson(draft)) {
          view.refresh(item);
          return;
        }
        if (mode === "json") draft.json = JSON.stringify(draft.value, null, 2);
        draft.view = mode;
        view.refresh(item, { focusEditor: true });
      },
    }, label));
  }
  return list;
}

/**
 * The form, with each error placed on the field it names; the indexes of the errors placed.
 * @param {Edit} edit
 * @param {import("./contract.js").JsonSchema} schema
 * @param {PlacedError[]} errors
 */
function formPart({ view, item, draft, box, onEdit }, schema, errors) {
  /** @type {Set<number>} */
  const placed = new Set();
  const { form, fields } = buildForm(schema, draft, ({ rebuild, focus } = {}) => {
    draft.json = null;
    onEdit();
    if (rebuild) view.refresh(item, { focusPath: focus });
  });
  for (const [index, error] of errors.entries()) {
    const wrap = error.field === "" ? null : fields.get(error.field);
    if (!wrap) continue; // the payload as a whole, or a field the form does not show
    placed.add(index);
    const note = h("div", { className: "dial-field-error", id: uid("err") }, error.message);
    wrap.classList.add("dial-field-invalid");
    wrap.append(note);
    // the refusal was of the old value: once the person changes the field it goes
    wrap.addEventListener("input", () => {
      note.remove();
      wrap.classList.remove("dial-field-invalid");
    }, { once: true });
    const input = wrap.querySelector(":scope > .dial-input, :scope > .dial-check-row > input, :scope > fieldset");
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", note.id);
    }
  }
  box.append(form);
  return placed;
}

/**
 * The payload as JSON text; a parse error (from Save or a tab switch) is said under it.
 * @param {Edit} edit
 */
function jsonPart({ draft, box, onEdit }) {
  if (draft.json === null) draft.json = JSON.stringify(draft.value, null, 2);
  const area = h("textarea", {
    className: "dial-input dial-mono dial-json", "data-dial-field": "payload-json",
    "aria-label": "Payload as JSON", spellcheck: "false",
    rows: String(Math.min(18, Math.max(4, draft.json.split("\n").length + 1))),
  });
  area.value = draft.json;
  area.addEventListener("input", () => {
    draft.json = area.value;
    onEdit();
    if (draft.jsonError) {
      draft.jsonError = null;
      const note = box.querySelector(".dial-json-error");
      if (note) note.remove();
      area.removeAttribute("aria-invalid");
    }
  });
  box.append(area);
  if (draft.jsonError) {
    area.setAttribute("aria-invalid", "true");
    box.append(h("div", { className: "dial-json-error", role: "alert" }, draft.jsonError));
  }
}

/**
 * Why the last edit was refused: the issue, the errors no field shows, and the tries left.
 * @param {DecidePending} pending
 * @param {PlacedError[]} rest
 */
function issueBox(pending, rest) {
  const left = Number(pending.edits_left);
  const tries = !Number.isFinite(left) ? null
    : left <= 1 ? "Last try: if this edit is refused too, the proposal is dropped (the agent is told it was invalid)."
      : `${left} tries left before the proposal is dropped.`;
  return h("div", { className: "dial-issue", "data-dial-issue": "", role: "alert" },
    h("strong", {}, "Not accepted: "), String(pending.issue?.text || ""),
    rest.length ? h("ul", {}, rest.map((e) => h("li", {}, e.field ? h("code", {}, e.field) : null, e.field ? " " : null, e.message))) : null,
    tries ? h("div", { className: `dial-tries${left <= 1 ? " dial-tries-last" : ""}`, "data-dial-edits-left": String(left) }, tries) : null);
}

/** @param {Edit} edit */
function save({ view, item, draft, box, onSave }) {
  if (draft.view === "json" && !syncFromJson(draft)) {
    view.refresh(item, { focusEditor: true });
    return;
  }
  if (draft.view === "form" && draft.local.size) {
    const first = box.querySelector(".dial-local-error");
    if (first) /** @type {HTMLElement | null} */ (first.parentElement?.querySelector("input, textarea, select"))?.focus();
    return;
  }
  onSave(structuredClone(draft.value));
}

/** @param {Edit} edit */
function cancel({ view, item, draft }) {
  draft.open = false;
  draft.view = null;
  draft.json = null;
  draft.jsonError = null;
  draft.local = new Map();
  view.refresh(item, { focusAction: "edit" });
}

/**
 * The JSON tab's text as the draft's value; false (and the reason in draft.jsonError) if it
 * does not parse.
 * @param {Draft} draft
 */
function syncFromJson(draft) {
  if (draft.json === null) return true;
  try {
    draft.value = JSON.parse(draft.json);
    draft.jsonError = null;
    return true;
  } catch (error) {
    draft.jsonError = `That is not valid JSON: ${/** @type {Error} */ (error).message}`;
    return false;
  }
}
