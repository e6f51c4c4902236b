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
//   draft.touched  fields changed since the kernel's refusal ('*': the JSON): its errors there
//                  are of a value no longer there, so they go (one error per field, for now)

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
  const tabList = hasForm ? tabs(edit) : null;
  if (tabList) box.append(tabList);
  /** @type {Set<number>} */
  let placed = new Set();
  const touched = draft.touched || (draft.touched = new Set());
  /** @type {HTMLElement | null} */
  let issueNode = null;
  const stale = () => { // the refusal is of values no longer there: only the tries left stay
    if (issueNode && !refusalStands(item.pending, errors, touched)) issueNode.querySelector("[data-dial-refusal]")?.remove();
  };
  if (draft.view === "form") placed = formPart(edit, /** @type {import("./contract.js").JsonSchema} */ (schema), errors, stale);
  else jsonPart(edit, stale);
  if (tabList) tabPanel(tabList);
  if (issue) {
    issueNode = issueBox(item.pending, errors.filter((e, index) => !placed.has(index) && !isTouched(touched, e.field)));
    box.append(issueNode);
    stale();
  }
  if (aside) box.append(aside);
  if (comments) box.append(comments);
  box.append(h("div", { className: "dial-buttons" },
    button("Save", "save-edit", () => save(edit), { kind: "dial-primary", aria: "Save the edited payload" }),
    button("Cancel", "cancel-edit", () => cancel(edit), { aria: "Cancel editing" })));
  return box;
}

/**
 * The Form / JSON tabs (ARIA tabs: the selected one in the Tab order, Left / Right / Home / End
 * move between them and select, each controls the tab panel `tabPanel` makes).
 * @param {Edit} edit
 */
function tabs({ view, item, draft }) {
  const list = h("div", { className: "dial-tabs", role: "tablist", "aria-label": "Edit as" });
  const panel = uid("tabpanel");
  const modes = /** @type {const} */ (["form", "json"]);
  const onTab = { focusSelector: "[role=tab][aria-selected=true]" };
  /**
   * @param {"form" | "json"} mode
   * @param {import("./state.js").Focus} focus  where focus goes once switched (a click: the editor)
   */
  const select = (mode, focus) => {
    if (draft.view === mode) return;
    if (mode === "form" && !syncFromJson(draft)) {
      view.refresh(item, focus === onTab ? onTab : {});
      return;
    }
    if (mode === "json") draft.json = JSON.stringify(draft.value, null, 2);
    draft.view = mode;
    view.refresh(item, focus);
  };
  for (const [mode, label] of /** @type {const} */ ([["form", "Form"], ["json", "JSON"]])) {
    const selected = draft.view === mode;
    list.append(h("button", {
      type: "button", role: "tab", className: "dial-tab", "aria-selected": String(selected),
      "aria-controls": panel, id: `${panel}-${mode}`, tabindex: selected ? "0" : "-1",
      "data-dial-view": mode,
      onClick: () => select(mode, { focusEditor: true }),
      onKeydown: (/** @type {KeyboardEvent} */ event) => {
        const at = modes.indexOf(mode);
        const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: modes.length - 1 }[event.key];
        if (to === undefined) return;
        event.preventDefault();
        select(modes[(to + modes.length) % modes.length], onTab);
      },
    }, label));
  }
  return list;
}

/**
 * Move what follows the tab list (the form, or the JSON) into the panel its tabs control.
 * @param {HTMLElement} list
 */
function tabPanel(list) {
  const selected = list.querySelector("[aria-selected=true]");
  const panel = h("div", {
    className: "dial-tab-panel", role: "tabpanel", id: selected?.getAttribute("aria-controls") || uid("tabpanel"),
    "aria-labelledby": selected?.id || "",
  });
  while (list.nextSibling) panel.append(list.nextSibling);
  list.after(panel);
}

/**
 * The form, with each error placed on the field it names; the indexes of the errors placed.
 * @param {Edit} edit
 * @param {import("./contract.js").JsonSchema} schema
 * @param {PlacedError[]} errors
 * @param {() => void} stale  called once a refused field has changed
 */
function formPart({ view, item, draft, box, onEdit }, schema, errors, stale) {
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
    if (isTouched(draft.touched, error.field)) continue; // changed since: its error went with the value
    const note = h("div", { className: "dial-field-error", id: uid("err") }, error.message);
    wrap.classList.add("dial-field-invalid");
    wrap.append(note);
    // the refusal was of the old value: once the person changes the field it goes
    wrap.addEventListener("input", () => {
      note.remove();
      wrap.classList.remove("dial-field-invalid");
      draft.touched?.add(error.field);
      stale();
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
 * @param {() => void} stale  called once the JSON has changed
 */
function jsonPart({ draft, box, onEdit }, stale) {
  if (draft.json === null) draft.json = JSON.stringify(draft.value, null, 2);
  const area = h("textarea", {
    className: "dial-input dial-mono dial-json", "data-dial-field": "payload-json",
    "aria-label": "Payload as JSON", spellcheck: "false",
    rows: String(Math.min(18, Math.max(4, draft.json.split("\n").length + 1))),
  });
  area.value = draft.json;
  area.addEventListener("input", () => {
    draft.json = area.value;
    draft.touched?.add("*");
    stale();
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
    h("div", { "data-dial-refusal": "" }, h("strong", {}, "Not accepted: "), String(pending.issue?.text || ""),
      rest.length ? h("ul", {}, rest.map((e) => h("li", {}, e.field ? h("code", {}, e.field) : null, e.field ? " " : null, e.message))) : null),
    tries ? h("div", { className: `dial-tries${left <= 1 ? " dial-tries-last" : ""}`, "data-dial-edits-left": String(left) }, tries) : null);
}

/**
 * Whether field `field` (or, for '', anything) changed since the refusal ('*': the JSON did).
 * @param {Set<string> | undefined} touched
 * @param {string} field
 */
function isTouched(touched, field) {
  return Boolean(touched) && (touched?.has("*") || touched?.has(field) || (field === "" && Boolean(touched?.size)));
}

/**
 * Whether the refusal still speaks of a value that is there: some field it names is unchanged.
 * @param {DecidePending} pending
 * @param {PlacedError[]} errors
 * @param {Set<string>} touched
 */
function refusalStands(pending, errors, touched) {
  const fields = new Set(errors.map((e) => e.field));
  if (pending.issue && typeof pending.issue.field === "string" && pending.issue.field) fields.add(normalisePath(pending.issue.field));
  if (!fields.size) fields.add("");
  return [...fields].some((field) => !isTouched(touched, field));
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
