// @ts-check
// That a card's run is going, and how far it has come: "Running…", then "3 of 10 — copying
// files" over a <progress> bar, from the kernel's run-started and run-progress messages (the
// run's own report_progress; the kernel paces them — at most ~10 a second — and bounds the
// message: nothing here trusts that), and from the person's own Accept (at the click).
//
//   Accept / Save clicked (cards.js) ──▶ clicked(): the card runs from now on, unless the
//       kernel asks again (a new pending token for it: an edit refused)
//   {type: 'run-started', id, action, stoppable} ──▶ remembered (at most KEEP runs); the view
//       redrawn (its `redraw`, once per microtask): the card (or an execute step) says Running;
//       heard from initialize on (live.js: the kernel says again, after sync, which runs go),
//       so a view drawn later (a page come back) starts with them
//   runningIds(model, pending) ──▶ the ids running now, for itemsOf (a card's status 'running')
//   {type: 'run-progress', id, action, progress, total, message}
//       ──▶ remembered per model: the latest of each run (at most KEEP runs)
//       ──▶ every part drawn for that run updated in place (the card is not redrawn)
//       ──▶ said to a screen reader politely, at most once every SAY_MS per model
//   a card drawn while it has no outcome ──▶ runProgressPart(view, id, action): the part,
//       showing the latest progress ("Running…" while a run going has said nothing; hidden
//       while nothing runs); once the card shows its outcome it draws no part, and what the
//       run said goes as newer runs come (KEEP)
//   listenForRuns(model, redraw) ──▶ the view's; its cleanup stops listening (no listener
//       left per re-render)
//
// Nothing here decides anything: the card only shows what the run said of itself.

import { h } from "./dom.js";
import { connectedOf } from "./link.js";
import { summarise } from "./text.js";

/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./state.js").ViewState} ViewState */

/**
 * A run's latest progress.
 * @typedef {{id: string, action: string, progress: number, total: number | null, message: string | null}} RunProgress
 * A run the kernel said started: whether Stop cancels it (its action's spec says so).
 * @typedef {{id: string, action: string, stoppable: boolean}} RunStarted
 */

/** The runs remembered per model (older ones go first). */
export const KEEP = 64;
/** The shortest time between two progress lines said to a screen reader, in milliseconds. */
export const SAY_MS = 5000;
/** The longest message shown, in characters. */
const MESSAGE_CHARS = 200;

/** The words of a running card while its run has said nothing of how far it is. */
export const RUNNING = "Running…";

/**
 * @typedef {{runs: Map<string, RunProgress>, parts: Map<string, Set<HTMLElement>>, said: number,
 *   now: () => number, started: Map<string, RunStarted>, clicked: Map<string, string>,
 *   listener: (message: unknown) => void, redraw: (() => void) | null, scheduled: boolean}} Memory
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
 * A run-started message as this module reads it, or null when it is not one.
 *   readStarted({type: "run-started", id: "sg-1", action: "copy", stoppable: true})
 * @param {unknown} message
 * @returns {RunStarted | null}
 */
export function readStarted(message) {
  if (!message || typeof message !== "object") return null;
  const m = /** @type {{[key: string]: unknown}} */ (message);
  if (m.type !== "run-started" || typeof m.id !== "string" || !m.id) return null;
  return { id: m.id, action: typeof m.action === "string" ? m.action : "", stoppable: m.stoppable === true };
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
  /** @type {Memory} */
  const mine = {
    runs: new Map(), parts: new Map(), said: -Infinity, now, started: new Map(), clicked: new Map(),
    redraw: null, scheduled: false,
    listener: (message) => {
      const run = readProgress(message);
      if (run) received(mine, run);
      const started = readStarted(message);
      if (started) {
        remember(mine.started, started.id, started);
        for (const part of mine.parts.get(started.id) || []) { // a card running since the click
          const stop = /** @type {HTMLElement | null} */ (part.querySelector("[data-dial-run-stop]"));
          if (stop) stop.hidden = !started.stoppable;
        }
        redrawSoon(mine);
      }
    },
  };
  const connected = connectedOf(model); // runs heard before this view was drawn (initialize's)
  const heard = connected !== model ? memories.get(connected) : undefined;
  for (const [id, run] of heard ? heard.started : []) remember(mine.started, id, run);
  memories.set(model, mine);
  model.on("msg:custom", mine.listener);
  return mine;
}

/**
 * The view's: its runs heard, `redraw` called (once per microtask) when one starts; the
 * returned function stops listening and forgets them (the view's cleanup).
 * @param {Model} model
 * @param {() => void} redraw
 * @returns {() => void}
 */
export function listenForRuns(model, redraw) {
  const memory = memoryOf(model);
  memory.redraw = redraw;
  return () => {
    model.off("msg:custom", memory.listener);
    memory.redraw = null;
    memory.parts.clear();
    if (memories.get(model) === memory) memories.delete(model);
  };
}

/**
 * The person accepted (or saved an edit of) card `id`, answering `token`: it runs from now
 * on, unless the kernel asks again; the view is redrawn.
 * @param {Model} model
 * @param {string} id
 * @param {string} token
 */
export function clicked(model, id, token) {
  const memory = memoryOf(model);
  remember(memory.clicked, id, token);
  redrawSoon(memory);
}

/**
 * The ids of the runs going now, as far as this view knows: those the kernel said started,
 * and the cards accepted here, unless the kernel asks about that card again (an edit refused).
 *   runningIds(model, {})  // Set {"sg-1"} once sg-1 was accepted
 * @param {Model} model
 * @param {Partial<import("./contract.js").Pending> | null | undefined} pending
 * @returns {Set<string>}
 */
export function runningIds(model, pending) {
  const memory = memoryOf(model);
  const ids = new Set(memory.started.keys());
  const asking = pending && pending.kind === "decide" ? pending : null;
  for (const [id, token] of memory.clicked) {
    if (!asking || String(asking.id) !== id || asking.token === token) ids.add(id);
  }
  return ids;
}

/**
 * The run `id` the kernel said started, if it did.
 * @param {Model} model
 * @param {string} id
 * @returns {RunStarted | undefined}
 */
export function startedRun(model, id) {
  return memoryOf(model).started.get(id);
}

/**
 * `map` with `key` set to `value`, the newest last, at most KEEP kept.
 * @template T
 * @param {Map<string, T>} map
 * @param {string} key
 * @param {T} value
 */
function remember(map, key, value) {
  map.delete(key);
  map.set(key, value);
  while (map.size > KEEP) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

/** @param {Memory} memory */
function redrawSoon(memory) {
  if (memory.scheduled || !memory.redraw) return;
  memory.scheduled = true;
  queueMicrotask(() => {
    memory.scheduled = false;
    memory.redraw?.();
  });
}

/**
 * A run's progress arrived: remembered, and shown on every part drawn for it.
 * @param {Memory} memory
 * @param {RunProgress} run
 */
function received(memory, run) {
  remember(memory.runs, run.id, run); // the newest last: the oldest go first
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
 * The progress part of a card (or an execute step) with no outcome yet: "Running…" over an
 * indeterminate bar while its run (`running`) has said nothing, its latest progress once it
 * has; hidden while nothing runs (a card not decided yet).
 * @param {ViewState} view
 * @param {string} id  the card's (or the step's) id, as its run's messages carry it
 * @param {string} action
 * @param {boolean} running
 * @returns {HTMLElement}
 */
export function runProgressPart(view, id, action, running) {
  const memory = memoryOf(view.model);
  const part = h("div", { className: "dial-run-progress", "data-dial-run-progress": id, hidden: !running },
    h("progress", { "aria-label": `Progress of ${summarise(action || "the run", 80)}` }),
    h("span", { className: "dial-run-progress-text" }, running ? RUNNING : ""),
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
