// @ts-check
// What the person says with a decision: comments on the fields of a waiting card (each on a
// JSON Pointer into its payload, '' the whole proposal), sent with the card's next decision
// (Accept, the editor's Save, Dismiss), and a reason for a dismissal; once the card has its
// outcome, what was said, under the outcome line. Kept per suggestion id in view.comments, so
// every redraw keeps what is typed; what is shown is what is sent.
//
//   comment        ──▶ the comments area: rows of (field select, text, Remove), "+ Add a comment"
//                      (the last row removed closes it: the Comment… button comes back)
//   dismiss-reason ──▶ "Why? The agent is told." + Dismiss ──▶ decide 'dismiss' with `reason`
//   any decide     ──▶ commentsToSend(): the rows with text, trimmed ──▶ `comments` (left out
//                      when there is none)
//   outcome `reason` / `comments` ──▶ "Dismissed — reason: …" (cards.js), "Your comments" list
//
// Agent text (field names, values) and the person's own reach the page as text only.

import { button, h } from "./dom.js";
import { jsonPointer, summarise, words } from "./text.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").FieldComment} FieldComment */
/** @typedef {import("./contract.js").OutcomeEvent} OutcomeEvent */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */
/** @typedef {import("./state.js").ViewState} ViewState */
/** @typedef {import("./state.js").Comments} Comments */

/** How deep the field choices go (a pointer of at most this many parts). */
export const POINTER_DEPTH = 4;
/** Most fields offered (besides the whole proposal). */
export const POINTER_LIMIT = 100;
/** The label of the whole proposal in the field select. */
export const WHOLE = "The whole proposal";
/** The dismissal reason's label (and placeholder). */
export const REASON_LABEL = "Why? The agent is told.";

// ---- pure --------------------------------------------------------------------------------------

/**
 * The fields a comment may be on: the whole proposal (''), then a JSON Pointer for every field
 * of the payload, objects and arrays alike, depth first, at most POINTER_DEPTH deep and
 * POINTER_LIMIT of them; each labelled by its pointer ('/text', '/items/0/name').
 * @param {Json} payload
 * @returns {{pointer: string, label: string}[]}
 */
export function fieldPointers(payload) {
  /** @type {{pointer: string, label: string}[]} */
  const out = [{ pointer: "", label: WHOLE }];
  /** @param {Json} value @param {(string | number)[]} parts */
  const walk = (value, parts) => {
    if (parts.length >= POINTER_DEPTH || !value || typeof value !== "object") return;
    const entries = Array.isArray(value) ? value.map((v, i) => /** @type {[number, Json]} */ ([i, v])) : Object.entries(value);
    for (const [key, child] of entries) {
      if (out.length > POINTER_LIMIT) return;
      const pointer = jsonPointer([...parts, key]);
      out.push({ pointer, label: pointer });
      walk(child, [...parts, key]);
    }
  };
  walk(payload, []);
  return out.slice(0, POINTER_LIMIT + 1);
}

/**
 * A comment's field as the outcome shows it: 'Whole proposal' for '', else the pointer.
 * @param {unknown} field
 */
export function commentLabel(field) {
  return field === "" || field === null || field === undefined ? words("whole-proposal") : String(field);
}

// ---- state ---------------------------------------------------------------------------------------

/**
 * The card's comments and reason, made empty the first time.
 * @param {ViewState} view
 * @param {string} id
 * @returns {Comments}
 */
export function commentsFor(view, id) {
  let comments = view.comments.get(id);
  if (!comments) {
    comments = { rows: [], reason: null };
    view.comments.set(id, comments);
  }
  return comments;
}

/**
 * The comments a decision on card `id` carries: each row with text, trimmed.
 * @param {ViewState} view
 * @param {string} id
 * @returns {FieldComment[]}
 */
export function commentsToSend(view, id) {
  const comments = view.comments.get(id);
  if (!comments) return [];
  return comments.rows.filter((row) => row.text.trim()).map((row) => ({ field: String(row.field), text: row.text.trim() }));
}

/**
 * The payload a comment's fields come from: the person's edit while the editor is open, else
 * the pending payload, else the proposed one.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {Json}
 */
function payloadOf(view, item) {
  const draft = view.drafts.get(String(item.event.id));
  if (draft && draft.open && draft.value !== undefined) return draft.value;
  return item.pending && item.pending.payload !== undefined ? item.pending.payload : item.event.payload;
}

// ---- drawn on a waiting card ---------------------------------------------------------------------

/**
 * "Comment…", while the card has no comment row (it opens the area with one), else null.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {HTMLElement | null}
 */
export function commentButton(view, item) {
  const id = String(item.event.id);
  const comments = commentsFor(view, id);
  if (comments.rows.length) return null;
  const open = button("Comment…", "comment", () => {
    comments.rows.push({ field: "", text: "" });
    view.refresh(item, { focusSelector: "[data-dial-comments] [data-dial-comment-text]" });
  }, { kind: "dial-link" });
  open.setAttribute("aria-expanded", "false");
  open.title = "Comment on a field: the agent is told with your decision";
  return open;
}

/**
 * The comments area of a waiting card (null while it has no row): one row per comment (which
 * field, the text, Remove) and "+ Add a comment".
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {HTMLElement | null}
 */
export function commentsArea(view, item) {
  const id = String(item.event.id);
  const comments = commentsFor(view, id);
  if (!comments.rows.length) return null;
  const options = fieldPointers(payloadOf(view, item));
  const box = h("section", { className: "dial-comments", "data-dial-comments": id, "aria-label": "Your comments" },
    h("div", { className: "dial-comments-title" }, "Your comments, sent to the agent with your decision"));
  comments.rows.forEach((row, index) => {
    const number = index + 1;
    const choices = options.some((o) => o.pointer === row.field) ? options
      : [...options, { pointer: row.field, label: row.field }]; // a field the edit has since removed
    const select = h("select", {
      className: "dial-input dial-comment-field", "data-dial-comment-field": "", "aria-label": `Comment ${number}: on which field`,
      onChange: () => { row.field = select.value; },
    }, choices.map((o) => h("option", { value: o.pointer, selected: o.pointer === row.field }, summarise(o.label, 120))));
    select.value = row.field;
    const text = h("input", {
      type: "text", className: "dial-input dial-comment-text", "data-dial-comment-text": "", value: row.text,
      "aria-label": `Comment ${number}`, placeholder: "What should the agent know?",
      onInput: () => { row.text = text.value; },
    });
    const remove = button("Remove", "comment-remove", () => {
      comments.rows.splice(index, 1);
      const next = comments.rows.length
        ? `[data-dial-comments] [data-dial-comment="${Math.min(index, comments.rows.length - 1)}"] [data-dial-comment-text]`
        : "[data-dial-action=comment]";
      view.refresh(item, { focusSelector: next });
    }, { kind: "dial-icon", aria: `Remove comment ${number}` });
    box.append(h("div", { className: "dial-comment-row", "data-dial-comment": String(index) }, select, text, remove));
  });
  box.append(button("+ Add a comment", "comment-add", () => {
    comments.rows.push({ field: "", text: "" });
    view.refresh(item, { focusSelector: `[data-dial-comments] [data-dial-comment="${comments.rows.length - 1}"] [data-dial-comment-text]` });
  }, { kind: "dial-link" }));
  return box;
}

/**
 * In the editor, above its Save: the comments area, or the Comment… button that opens it.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {HTMLElement}
 */
export function commentsPart(view, item) {
  return commentsArea(view, item) ?? h("div", { className: "dial-comments-open" }, commentButton(view, item));
}

/**
 * Whether the card's reason box is open.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 */
export function reasonOpen(view, item) {
  return commentsFor(view, String(item.event.id)).reason !== null;
}

/**
 * "Dismiss with a reason…": opens the reason box (in place of the card's buttons).
 * @param {ViewState} view
 * @param {SuggestionItem} item
 */
export function reasonButton(view, item) {
  const comments = commentsFor(view, String(item.event.id));
  const open = button("Dismiss with a reason…", "dismiss-reason", () => {
    comments.reason = comments.reason ?? "";
    view.refresh(item, { focusSelector: "[data-dial-reason]" });
  }, { kind: "dial-link" });
  open.setAttribute("aria-expanded", "false");
  return open;
}

/**
 * The reason box: the reason, Dismiss (Enter) and Cancel (Escape).
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @param {(reason: string) => void} dismiss  sends the dismissal ('' : no reason)
 */
export function reasonRow(view, item, dismiss) {
  const comments = commentsFor(view, String(item.event.id));
  const input = h("input", {
    type: "text", className: "dial-input dial-reason", "data-dial-reason": "", value: comments.reason ?? "",
    "aria-label": REASON_LABEL, placeholder: REASON_LABEL,
    onInput: () => { comments.reason = input.value; },
  });
  const confirm = () => dismiss(String(comments.reason ?? "").trim());
  const cancel = () => {
    comments.reason = null;
    view.refresh(item, { focusAction: "dismiss-reason" });
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      confirm();
    } else if (event.key === "Escape") {
      event.preventDefault();
      cancel();
    }
  });
  return h("div", { className: "dial-buttons dial-reason-row", "data-dial-reason-row": "" }, input,
    button("Dismiss", "dismiss-confirm", confirm, { aria: "Dismiss, and tell the agent why" }),
    button("Cancel", "dismiss-reason-cancel", cancel, { aria: "Cancel: do not dismiss" }));
}

// ---- drawn under an outcome ----------------------------------------------------------------------

/**
 * The comments the person sent with the decision, under the outcome line ("Your comments",
 * then "/text: too long", "Whole proposal: …"), or null when there are none.
 * @param {OutcomeEvent | null | undefined} outcome
 * @returns {HTMLElement | null}
 */
export function outcomeComments(outcome) {
  const list = outcome && Array.isArray(outcome.comments)
    ? outcome.comments.filter((c) => c && typeof c === "object" && typeof c.text === "string" && c.text.trim()) : [];
  if (!list.length) return null;
  return h("div", { className: "dial-outcome-comments", "data-dial-outcome-comments": "" },
    h("div", { className: "dial-outcome-comments-title" }, words("comments")),
    h("ul", {}, list.map((c) => h("li", { "data-dial-outcome-comment": String(c.field ?? "") },
      h("span", { className: "dial-comment-where" }, commentLabel(c.field)), `: ${summarise(c.text, 1000)}`))));
}

/**
 * The reason a dismissal was given, as the outcome line says it (" — reason: …"), or null.
 * @param {OutcomeEvent | null | undefined} outcome
 * @returns {HTMLElement | null}
 */
export function outcomeReason(outcome) {
  const reason = outcome && typeof outcome.reason === "string" ? outcome.reason.trim() : "";
  if (!reason) return null;
  return h("span", { className: "dial-outcome-reason", "data-dial-outcome-reason": "" }, ` — reason: ${summarise(reason, 1000)}`);
}
