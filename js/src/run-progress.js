// @ts-check
// How far a run has come, on its running card: "3 of 10 — copying files" over a <progress>
// bar, from the kernel's run-progress messages (the run's own report_progress; the kernel
// paces them — at most ~10 a second — and bounds the message: nothing here trusts that).
//
//   {type: 'run-progress', id, action, progress, total, message}
//       ──▶ remembered per model: the latest of each run (at most KEEP runs)
//       ──▶ every part drawn for that run updated in place (the card is not redrawn)
//       ──▶ said to a screen reader politely, at most once every SAY_MS per model
//   a card drawn while it has no outcome ──▶ runProgressPart(view, item): the part, showing
//       the latest progress (hidden while its run has said nothing); once the card shows its
//       outcome it draws no part, and what the run said goes as newer runs come (KEEP)
//
// Nothing here decides anything: the card only shows what the run said of itself.

import { h } from "./dom.js";
import { summarise } from "./text.js";

/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./state.js").ViewState} ViewState */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */

/**
 * A run's latest progress.
 * @typedef {{id: string, action: string, progress: number, total: number | null, message: string | null}} RunProgress
 */

/** The runs remembered per model (older ones go first). */
export const KEEP = 64;
/** The shortest time between two progress lines said to a screen reader, in milliseconds. */
export const SAY_MS = 5000;
/** The longest message shown, in characters. */
const MESSAGE_CHARS = 200;

/**
 * @typedef {{runs: Map<string, RunProgress>, parts: Map<string, Set<HTMLElement>>, said: number,
 *   now: () => number}} Memory
 */

/** @type {WeakMap<Model, Memory>} */
const memories = new WeakMap();

/**
 * A message as this module reads it, or null when it is not a run's progress it can show.
 *   readProgress({type: "run-progress", id: "sg-1", action: "copy", progress: 3, total: 10})
 * @param {unknown} message
 * @returns {RunProgress | null}
 */
export function readProgress(message) {
  if (!message || typeof message !== "object") return null;
  const m = /** @type {{[key: string]: unknown}} */ (message);
  if (m.type !== "run-progress" || typeof m.id !== "string" || !m.id) return null;
  const progress = Number(m.progress);
  if (typeof m.progress !== "number" || !Number.isFinite(progress) || progress < 0) return null;
  const total = typeof m.total === "number" && Number.isFinite(m.total) && m.total > 0 ? m.total : null;
  const message_ = typeof m.message === "string" && m.message.trim()
    ? summarise(m.message.replace(/\s+/g, " ").trim(), MESSAGE_CHARS) : null;
  return { id: m.id, action: typeof m.action === "string" ? m.action : "", progress, total, message: message_ };
}

/**
 * What a run's progress says, in words.
 *   progressText({progress: 3, total: 10, message: "copying files"})  // "3 of 10 — copying files"
 * @param {Pick<RunProgress, "progress" | "total" | "message">} run
 * @returns {string}
 */
export function progressText(run) {
  const count = run.total === null ? number(run.progress) : `${number(run.progress)} of ${number(run.total)}`;
  return run.message ? `${count} — ${run.message}` : count;
}

/** @param {number} value */
function number(value) {
  return Number.isInteger(value) ? value.toLocaleString("en-US") : value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/**
 * The model's memory, listening for run-progress messages from its first use on.
 * @param {Model} model
 * @param {() => number} [now]
 * @returns {Memory}
 */
export function memoryOf(model, now = () => Date.now()) {
  let memory = memories.get(model);
  if (memory) return memory;
  const mine = /** @type {Memory} */ ({ runs: new Map(), parts: new Map(), said: -Infinity, now });
  memories.set(model, mine);
  model.on("msg:custom", (/** @type {unknown} */ message) => {
    const run = readProgress(message);
    if (run) received(mine, run);
  });
  return mine;
}

/**
 * A run's progress arrived: remembered, and shown on every part drawn for it.
 * @param {Memory} memory
 * @param {RunProgress} run
 */
function received(memory, run) {
  memory.runs.delete(run.id); // the newest last: the oldest go first
  memory.runs.set(run.id, run);
  while (memory.runs.size > KEEP) {
    const oldest = memory.runs.keys().next().value;
    if (oldest === undefined) break;
    memory.runs.delete(oldest);
  }
  const parts = memory.parts.get(run.id);
  if (!parts) return;
  const say = memory.now() - memory.said >= SAY_MS;
  let said = false;
  for (const part of [...parts]) {
    if (!part.isConnected) {
      parts.delete(part);
      continue;
    }
    fill(part, run, say && !said);
    said = said || say;
  }
  if (said) memory.said = memory.now();
  if (!parts.size) memory.parts.delete(run.id);
}

/**
 * The progress part of a card with no outcome yet: hidden while its run has said nothing
 * (a card not decided yet, or a run that never reports).
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {HTMLElement}
 */
export function runProgressPart(view, item) {
  const id = String(item.event.id);
  const memory = memoryOf(view.model);
  const part = h("div", { className: "dial-run-progress", "data-dial-run-progress": id, hidden: true },
    h("progress", { "aria-label": `Progress of ${summarise(String(item.event.action || "the run"), 80)}` }),
    h("span", { className: "dial-run-progress-text" }),
    h("span", { className: "dial-sr-only", "aria-live": "polite", "data-dial-run-said": "" }));
  const parts = memory.parts.get(id) || new Set();
  for (const old of parts) if (!old.isConnected) parts.delete(old);
  parts.add(part);
  memory.parts.set(id, parts);
  const run = memory.runs.get(id);
  if (run) fill(part, run, false);
  return part;
}

/**
 * Show `run` on `part`; `say`: also into its polite live region.
 * @param {HTMLElement} part
 * @param {RunProgress} run
 * @param {boolean} say
 */
function fill(part, run, say) {
  const bar = /** @type {HTMLProgressElement | null} */ (part.querySelector("progress"));
  const text = part.querySelector(".dial-run-progress-text");
  const words = progressText(run);
  if (bar) {
    if (run.total === null) { // how much is left is unknown: an indeterminate bar
      bar.removeAttribute("value");
      bar.removeAttribute("max");
    } else {
      bar.setAttribute("max", String(run.total));
      bar.setAttribute("value", String(Math.min(run.progress, run.total)));
    }
    bar.setAttribute("aria-valuetext", words);
  }
  if (text && text.textContent !== words) text.textContent = words;
  part.hidden = false;
  const live = part.querySelector("[data-dial-run-said]");
  if (say && live) live.textContent = words;
}
