// @ts-check
// What one view remembers between redraws, in one object handed to the parts that draw (no
// part keeps state of its own across the view): the person's unsaved edits and typed answers,
// the node drawn for each item, the tokens already answered from this view.
//
//   view.model     the model; its send is dropped once the kernel is gone (view.js)
//   view.drafts    suggestion id -> the editor's draft (open, form or JSON, the value so far)
//   view.askDrafts ask index -> the answer typed so far
//   view.nodes     item key -> {sig, node, item}: redrawn only when its signature (parts) changes
//   view.sending   tokens answered from this view (a second click sends nothing)
//   view.dryRuns   suggestion id -> the dry run asked for the person's edit, and its answer
//   view.undoing   suggestion ids whose Undo was clicked (until the transcript changes)
//   view.disclosed what the person opened (a card's code, its sample): open across redraws
//   view.rules     suggestion id -> the "Always allow like this…" editor (rules.js)
//   view.comments  suggestion id -> the person's field comments and dismissal reason (comments.js)
//   view.panel     the rules panel: open, and the rule a card's "Accepted by rule" points at
//   view.revoking  rule ids whose Revoke was clicked (until the `rules` trait drops them)
//   view.showRule  open the rules panel at a rule (view.js sets it; null where there is none)
//   view.refresh   redraw one item now (an editor opened, a tab switched, a field added)

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./items.js").Item} Item */

/**
 * An edit in progress: `value` is the payload so far; `json` the JSON tab's text while it is
 * shown; `local` the form's own errors (field path -> message), which block Save; `touched` the
 * fields changed since the kernel's last refusal ('*': the JSON), whose refused errors are gone.
 * @typedef {{
 *   open: boolean, view: 'form' | 'json' | null, value: Json, json: string | null,
 *   jsonError: string | null, local: Map<string, string>, issueSeen?: string, touched?: Set<string>,
 * }} Draft
 */

/**
 * A dry run asked for the person's edit of a waiting card: the pending `token` and the edit
 * (`payload`, `sig` its canonical JSON); 'checking' until the kernel answers for this very
 * edit, then 'answered' with its `result` (while checking, `result` is the one shown before);
 * 'unanswered' if no answer came in time. `timer`: the debounce, then the wait for an answer.
 * @typedef {{
 *   token: string, sig: string, payload: Json, state: 'checking' | 'answered' | 'unanswered',
 *   result: import("./contract.js").DryRun | null, timer: ReturnType<typeof setTimeout> | null,
 * }} DryRunAsk
 */

/**
 * How one top-level field (JSON Pointer; '' a payload that is no object) may vary in a rule:
 * exactly its value, any value of its type, a number in [min, max] (as typed; '' no bound), a
 * string matching `pattern`.
 * @typedef {{kind: 'exact' | 'any' | 'range' | 'pattern', min: string, max: string, pattern: string}} FieldRule
 */

/**
 * A rule being made on a waiting card: the payload it was derived from, a FieldRule per field,
 * the hand-written schema (`json`, null: the fields' schema is used) and whether its box is
 * shown, the scope; the pending `token`, `sig` (canonical JSON of the schema now, null while it
 * does not parse), the kernel's `answer` for that very schema (null: not yet), the debounce;
 * Save sent and not answered (`saving`), why it was refused, the id of a rule saved that this
 * card does not match (`saved`). `sync` redraws the editor's live parts in place.
 * @typedef {{
 *   open: boolean, payload: import("./contract.js").Json, fields: Map<string, FieldRule>,
 *   json: string | null, jsonOpen: boolean, scope: 'conversation' | 'notebook',
 *   token: string, sig: string | null, answer: import("./contract.js").RuleDraftResultMessage | null,
 *   timer: ReturnType<typeof setTimeout> | null,
 *   saving: boolean, saveError: string | null, saved: string | null, sync: (() => void) | null,
 * }} RuleEdit
 */

/**
 * A waiting card's comments (one row each: field pointer, text as typed) and its dismissal
 * reason (null: the reason box is closed).
 * @typedef {{rows: {field: string, text: string}[], reason: string | null}} Comments
 */

/**
 * Where focus goes after a redraw (the first that applies): an editor's field, the field at
 * `focusPath`, the node `focusSelector` selects, the button with data-dial-action `focusAction`.
 * @typedef {{focusEditor?: boolean, focusPath?: string, focusSelector?: string, focusAction?: string}} Focus
 */

/** @typedef {{sig: unknown[], node: HTMLElement, item: Item}} Entry */

/**
 * @typedef {{
 *   model: Model,
 *   drafts: Map<string, Draft>,
 *   askDrafts: Map<number, string>,
 *   nodes: Map<string, Entry>,
 *   sending: Set<string>,
 *   dryRuns: Map<string, DryRunAsk>,
 *   undoing: Set<string>,
 *   disclosed: Set<string>,
 *   rules: Map<string, RuleEdit>,
 *   comments: Map<string, Comments>,
 *   panel: {open: boolean, highlight: string | null},
 *   revoking: Set<string>,
 *   showRule: ((id: string) => void) | null,
 *   refresh: (item: Item, focus?: Focus) => void,
 * }} ViewState
 */

/**
 * A view's state, empty.
 * @param {Model} model
 * @param {(view: ViewState, item: Item, focus?: Focus) => void} refresh
 * @returns {ViewState}
 */
export function viewState(model, refresh) {
  /** @type {ViewState} */
  const view = {
    model,
    drafts: new Map(),
    askDrafts: new Map(),
    nodes: new Map(),
    sending: new Set(),
    dryRuns: new Map(),
    undoing: new Set(),
    disclosed: new Set(),
    rules: new Map(),
    comments: new Map(),
    panel: { open: false, highlight: null },
    revoking: new Set(),
    showRule: null,
    refresh: (item, focus) => refresh(view, item, focus),
  };
  return view;
}
