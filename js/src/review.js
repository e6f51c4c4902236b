// @ts-check
// On a card, what it will do, the code, and a way back: the dry run the domain made of a
// proposal ("What it will do", above the card's buttons; made again for the person's edit),
// the code of a proposal or of what ran (with Copy), the widget's whole script in the footer,
// and Undo on a done card. The kernel says what a dry run found and what can be undone; this
// only draws it and sends the person's clicks. The code blocks, Copy and the collapsed parts
// are code.js's; what a dry run, an edit and an undo word are (pure) is review-shapes.js's.
//
//   suggestion.dry_run ──▶ "What it will do": data frames' rows, columns, chips, a sample
//                          before and after; any other domain's summary and effect as JSON
//   an edit that parses ──(DRY_RUN_WAIT_MS)──▶ {type: 'dry-run', token, payload}
//   {type: 'dry-run', token, payload, result} ──▶ the same section, "With your edit"
//                          (an answer for another token, or an older edit, is dropped)
//   trait undoable[id] true ──▶ Undo ──▶ {type: 'undo', id}, disabled until the transcript
//                          changes; a reason ──▶ "Can't undo: …"
//   outcome 'undone', event 'undo-failed' ──▶ items.js puts both on the card
//   trait code ──▶ the footer's "All code" (shown on a click) and "Copy all code" (code.js)
//
// Collapsed parts are a button with aria-expanded over a hidden region, not <details> (as the
// context panel): no <details> is ever drawn, so a test can say agent text made none.

import { codeBlock, disclosure } from "./code.js";
import { button, h, jsonBlock } from "./dom.js";
import { tableOf } from "./inform.js";
import {
  canonical, countChange, editedPayload, formatCount, isDryRun, isFramesEffect, shownDryRun, undoableOf,
} from "./review-shapes.js";
import { summarise } from "./text.js";

// cards.js, log.js, view.js and the tests take these from here
export { COPIED_MS, codeBlock, drawAllCode } from "./code.js";
export { canonical, countChange, undoableOf } from "./review-shapes.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").DryRun} DryRun */
/** @typedef {import("./contract.js").Table} Table */
/** @typedef {import("./contract.js").DryRunResultMessage} DryRunResultMessage */
/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */
/** @typedef {import("./state.js").ViewState} ViewState */
/** @typedef {import("./state.js").Draft} Draft */
/** @typedef {import("./state.js").DryRunAsk} DryRunAsk */

/** Milliseconds an edit rests before its dry run is asked for. */
export const DRY_RUN_WAIT_MS = 300;
/** Milliseconds to wait for the kernel's answer before saying the edit was not checked. */
export const DRY_RUN_ANSWER_MS = 15000;
/** Most chips of one kind (added, removed, …) shown; the rest are counted. */
const CHIPS = 30;

// ---- What it will do ---------------------------------------------------------------------------

/**
 * The card's "What it will do" section, or null when the proposal has no dry run.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {HTMLElement | null}
 */
export function dryRunSection(view, item) {
  const id = String(item.event.id);
  // the person's edit counts while the editor is open (after Cancel, Accept sends the proposal)
  const draft = view.drafts.get(id);
  const editing = Boolean(item.pending && draft && draft.open);
  const shown = shownDryRun(item, editing ? view.dryRuns.get(id) : undefined);
  const { result } = shown;
  let { edit } = shown;
  if (editing && draft && edit === "none") {
    const payload = editedPayload(draft); // an edit not tried (yet): say the dry run is not its
    if (payload === undefined || canonical(payload) !== canonical(item.event.payload)) edit = "unanswered";
  }
  if (!result) return null;
  const tag = edit === "answered" ? h("span", { className: "dial-dry-run-tag dial-dry-run-tag-edit" }, "With your edit")
    : edit === "checking" ? h("span", { className: "dial-dry-run-tag", role: "status" }, "Checking your edit…")
      : edit === "unanswered" ? h("span", { className: "dial-dry-run-tag" }, "As proposed: your edit was not checked")
        : null;
  const box = h("section", {
    className: `dial-dry-run${edit === "checking" ? " dial-dry-run-stale" : ""}${result.ok ? "" : " dial-dry-run-unavailable"}`,
    "data-dial-dry-run": result.ok ? "ok" : "unavailable", "data-dial-dry-run-edit": edit,
    "aria-label": "What it will do", "aria-busy": edit === "checking" ? "true" : null,
  });
  if (!result.ok) {
    box.append(h("div", { className: "dial-dry-run-error" },
      `Effect unavailable: ${summarise(result.error || "the domain could not say", 400)}`));
    if (tag) box.append(tag);
    return box;
  }
  box.append(h("div", { className: "dial-dry-run-head" },
    h("span", { className: "dial-dry-run-title" }, "What it will do"), tag));
  const summary = typeof result.summary === "string" && result.summary.trim()
    ? h("div", { className: "dial-dry-run-summary" }, summarise(result.summary, 600)) : null;
  // a note is only there to warn of something
  const note = typeof result.note === "string" && result.note.trim()
    ? h("div", { className: "dial-dry-run-note", "data-dial-dry-run-note": "" },
      h("span", { className: "dial-dry-run-warn", "aria-hidden": "true" }, "⚠ "), summarise(result.note, 600))
    : null;
  const effect = result.effect;
  if (isFramesEffect(effect)) {
    const { rows, chips, sampled, sample } = framesEffect(view, id, effect);
    // the domain's summary under the counts, unless it says just what they say
    const same = summary && plain(summary.textContent) === plain(rows.textContent);
    box.append(.../** @type {HTMLElement[]} */ ([rows, same ? null : summary, chips, note, sampled, sample].filter(Boolean)));
  } else {
    box.append(.../** @type {HTMLElement[]} */ ([summary, note].filter(Boolean)));
    if (effect !== undefined && effect !== null) {
      const { toggle, region } = disclosure(view, `${id}:effect`, "Effect (JSON)", jsonBlock(effect), "effect");
      box.append(h("div", { className: "dial-dry-run-more" }, toggle, region));
    }
  }
  if (typeof result.code === "string" && result.code.trim()) {
    box.append(codeBlock(view, `${id}:dry-code`, result.code));
  }
  return box;
}

/** @param {string | null} text */
function plain(text) {
  return String(text ?? "").replace(/\s*·\s*/g, ", ").replace(/\s+/g, " ").trim();
}

/**
 * A data-frames effect: "sales: 200 → 64 rows · 6 columns", chips for the columns added,
 * removed and renamed and the new dtypes, why the sample is one, and the sample before and
 * after (collapsed).
 * @param {ViewState} view
 * @param {string} id
 * @param {{[key: string]: Json}} effect
 * @returns {{rows: HTMLElement, chips: HTMLElement | null, sampled: HTMLElement | null, sample: HTMLElement | null}}
 */
function framesEffect(view, id, effect) {
  const frame = typeof effect.frame === "string" ? effect.frame : "";
  const into = typeof effect.into === "string" && effect.into !== frame ? effect.into : "";
  const counts = [countChange(effect.rows, "row"), countChange(effect.columns, "column")].filter(Boolean);
  const rows = h("div", { className: "dial-dry-run-rows", "data-dial-dry-run-rows": "" },
    frame || into ? h("span", { className: "dial-dry-run-frame" }, frame, into ? ` → ${into}` : "", ": ") : null,
    counts.join(" · "));
  const names = (/** @type {Json} */ list) => (Array.isArray(list) ? list.map((n) => String(n)) : []);
  const pairs = (/** @type {Json} */ map) => (map && typeof map === "object" && !Array.isArray(map)
    ? Object.entries(map).map(([k, v]) => /** @type {[string, string]} */ ([k, String(v)])) : []);
  /** @type {[string, string, HTMLElement[]][]} */
  const groups = [
    ["added", "Adds", names(effect.added).map((n) => h("span", { className: "dial-col-chip dial-col-added", title: `New column ${n}` }, `+ ${n}`))],
    ["removed", "Removes", names(effect.removed).map((n) => h("span", { className: "dial-col-chip dial-col-removed", title: `Column ${n} goes` }, `− ${n}`))],
    ["renamed", "Renames", pairs(effect.renamed).map(([old, now]) => h("span", { className: "dial-col-chip dial-col-renamed", title: `${old} is renamed ${now}` }, `${old} → ${now}`))],
    ["dtypes", "Types", pairs(effect.dtypes).map(([column, dtype]) => h("span", { className: "dial-col-chip dial-col-dtype", title: `${column} will be ${dtype}` },
      column, " ", h("span", { className: "dial-col-dtype-name" }, dtype)))],
  ];
  const chips = groups.filter(([, , list]) => list.length).map(([kind, label, list]) =>
    h("div", { className: "dial-chip-row", "data-dial-dry-run-chips": kind },
      h("span", { className: "dial-chip-row-label" }, label),
      list.slice(0, CHIPS),
      list.length > CHIPS ? h("span", { className: "dial-more" }, `+${list.length - CHIPS} more`) : null));
  const sampled = typeof effect.sampled === "string" && effect.sampled.trim()
    ? h("div", { className: "dial-note", "data-dial-dry-run-sampled": "" }, summarise(effect.sampled, 400)) : null;
  const sample = effect.sample && typeof effect.sample === "object" ? effect.sample : {};
  const sides = /** @type {[string, Json][]} */ ([["Before", sample.before], ["After", sample.after]])
    .map(([label, table]) => sampleSide(label, table)).filter(Boolean);
  let sampleNode = null;
  if (sides.length) {
    const { toggle, region } = disclosure(view, `${id}:sample`, "Sample before and after",
      h("div", { className: "dial-sample" }, sides), "sample");
    sampleNode = h("div", { className: "dial-dry-run-more", "data-dial-dry-run-sample": "" }, toggle, region);
  }
  return {
    rows, chips: chips.length ? h("div", { className: "dial-dry-run-chips" }, chips) : null, sampled, sample: sampleNode,
  };
}

/**
 * One side of the sample: "Before · 5 of 200 rows" over its small table.
 * @param {string} label
 * @param {Json} table
 * @returns {HTMLElement | null}
 */
function sampleSide(label, table) {
  if (!table || typeof table !== "object" || !Array.isArray(table.columns) || !Array.isArray(table.rows)) return null;
  const total = Number(table.total_rows);
  const shown = table.rows.length;
  const count = Number.isFinite(total) && total > shown ? `${formatCount(shown)} of ${formatCount(total)} rows`
    : `${formatCount(shown)} row${shown === 1 ? "" : "s"}`;
  const body = tableOf({ columns: table.columns.map(String), data: table.rows, index: table.index }, `${label} · ${count}`) || [];
  const indexed = Array.isArray(table.index) && table.index.length === table.rows.length; // its first column
  return h("div", { className: `dial-sample-side${indexed ? " dial-sample-indexed" : ""}`, "data-dial-sample": label.toLowerCase() },
    h("div", { className: "dial-sample-caption" }, h("strong", {}, label), ` · ${count}`), body);
}

// ---- the person's edit, tried ------------------------------------------------------------------

/**
 * After each edit of a waiting card whose proposal has a dry run: once the edit has rested
 * DRY_RUN_WAIT_MS and parses, ask the kernel what it would do; an edit back to the proposal
 * shows the proposal's own again.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @param {Draft} draft
 */
export function edited(view, item, draft) {
  if (!item.pending || !isDryRun(item.event.dry_run)) return;
  const id = String(item.event.id);
  const token = String(item.pending.token);
  const payload = editedPayload(draft);
  if (payload === undefined) return;
  const sig = canonical(payload);
  const before = view.dryRuns.get(id);
  const current = before && before.token === token ? before : null;
  if (current && current.sig === sig) return;
  if (before && before.timer) clearTimeout(before.timer);
  if (sig === canonical(item.event.payload)) {
    view.dryRuns.delete(id);
    redrawDryRun(view, id);
    return;
  }
  /** @type {DryRunAsk} */
  const asked = {
    token, sig, payload: structuredClone(payload), state: "checking",
    result: current ? current.result : null, timer: null,
  };
  asked.timer = setTimeout(() => askDryRun(view, id, asked), DRY_RUN_WAIT_MS);
  view.dryRuns.set(id, asked);
  redrawDryRun(view, id);
}

/**
 * Send the dry-run request for `asked` (if it is still the card's newest edit and its token
 * still waits), then wait for the answer.
 * @param {ViewState} view
 * @param {string} id
 * @param {DryRunAsk} asked
 */
function askDryRun(view, id, asked) {
  asked.timer = null;
  if (view.dryRuns.get(id) !== asked) return;
  const pending = /** @type {{token?: string, kind?: string}} */ (view.model.get("pending") || {});
  if (pending.kind !== "decide" || String(pending.token) !== asked.token) return;
  view.model.send({ type: "dry-run", token: asked.token, payload: asked.payload });
  asked.timer = setTimeout(() => {
    asked.timer = null;
    if (view.dryRuns.get(id) !== asked || asked.state !== "checking") return;
    asked.state = "unanswered";
    redrawDryRun(view, id);
  }, DRY_RUN_ANSWER_MS);
}

/**
 * The kernel's answer to a dry-run request: shown if it is for the card's newest edit of the
 * token still waiting; any other is dropped. A result that is no dry run (the domain made none
 * for the edit) says the edit was not checked.
 * @param {ViewState} view
 * @param {DryRunResultMessage} message
 * @returns {boolean} whether it was shown
 */
export function dryRunAnswered(view, message) {
  if (!message || typeof message !== "object") return false;
  const result = isDryRun(message.result) ? message.result : null; // null: no dry run of it
  const token = String(message.token);
  const sig = canonical(message.payload);
  for (const [id, asked] of view.dryRuns) {
    if (asked.token !== token || asked.sig !== sig) continue;
    if (asked.timer) clearTimeout(asked.timer);
    asked.timer = null;
    asked.state = result ? "answered" : "unanswered";
    if (result) asked.result = result;
    redrawDryRun(view, id);
    return true;
  }
  return false;
}

/**
 * Listen for the kernel's dry-run answers.
 * @param {Model} connected
 * @param {ViewState} view
 * @returns {() => void} stop listening
 */
export function listenForDryRuns(connected, view) {
  const onMessage = (/** @type {{type?: string} | undefined} */ message) => {
    if (message && message.type === "dry-run") dryRunAnswered(view, /** @type {DryRunResultMessage} */ (message));
  };
  connected.on("msg:custom", onMessage);
  return () => connected.off("msg:custom", onMessage);
}

/**
 * Redraw the "What it will do" section of card `id` in place (the editor next to it, and
 * whatever the person is typing there, are left alone).
 * @param {ViewState} view
 * @param {string} id
 */
function redrawDryRun(view, id) {
  for (const entry of view.nodes.values()) {
    const item = entry.item;
    if (item.kind !== "suggestion" || String(item.event.id) !== id || !item.pending) continue;
    const old = entry.node.querySelector("[data-dial-dry-run]");
    const fresh = dryRunSection(view, item);
    if (!old) continue;
    const focused = old.contains(document.activeElement)
      ? document.activeElement && document.activeElement.getAttribute("data-dial-toggle") : null;
    if (fresh) old.replaceWith(fresh);
    else old.remove();
    if (fresh && focused) /** @type {HTMLElement | null} */ (fresh.querySelector(`[data-dial-toggle="${focused}"]`))?.focus();
  }
}

// ---- Undo ----------------------------------------------------------------------------------------

/**
 * Under a done card: why its last Undo failed, then Undo (or why it cannot be undone).
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @param {string} preview
 * @returns {HTMLElement[]}
 */
export function undoPart(view, item, preview) {
  if (item.status !== "done") return [];
  const id = String(item.event.id);
  /** @type {HTMLElement[]} */
  const nodes = [];
  if (item.undoFailed) {
    nodes.push(h("div", { className: "dial-undo-failed", role: "alert", "data-dial-undo-failed": "" },
      h("strong", {}, "Undo failed: "), summarise(item.undoFailed.error || "the domain did not say why", 600)));
  }
  const word = undoableOf(view.model, id);
  if (word === true) {
    const busy = view.undoing.has(id);
    const undo = /** @type {HTMLButtonElement} */ (button(busy ? "Undoing…" : "Undo", "undo", () => {
      if (view.undoing.has(id)) return;
      view.undoing.add(id);
      view.model.send({ type: "undo", id });
      undo.disabled = true;
      undo.textContent = "Undoing…";
    }, { aria: `Undo: ${preview}`, disabled: busy }));
    nodes.push(h("div", { className: "dial-buttons dial-undo-row" }, undo));
  } else if (typeof word === "string") {
    nodes.push(h("div", { className: "dial-undo-no", "data-dial-undo-no": "" }, `Can't undo: ${summarise(word, 300)}`));
  }
  return nodes;
}
