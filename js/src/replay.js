// @ts-check
// The Replay's front end (dial_notebook/widget/_replay.py): a saved conversation, one event at
// a time. The conversation is drawn by the ChatWidget's own modules (items.js, log.js and the
// cards, questions and informs they draw), so it looks as it did, but read-only: every control
// in it is disabled and its model sends nothing. Beside it: the current event, what it means,
// its fields; the exact message the agent had received by then; the agent's raw reply.
//
//   traits in:   transcript (once), step, title, source, saved_at (and _view: 'replay')
//   step out:    First / Back / Next / Last, the slider, a tick on the timeline, ← → Home End
//                ──▶ model.set('step') + save_changes() ──▶ replay.step in the kernel
//   change:step  ──▶ update(): the log drawn from transcript[0:step] (drawLog keeps the nodes
//                    of items that did not change), the current item marked, the side redrawn
//
// widget.js renders this view for a model whose `_view` trait is 'replay' (one bundle for both
// widgets: dial_notebook/widget/static/widget.js); the side panels are replay-panels.js. Agent
// text is untrusted: it reaches the page only as text (textContent, text nodes), never as HTML.

import { itemsOf } from "./items.js";
import { button, h, redrawOnChange } from "./dom.js";
import { drawLog, refreshItem } from "./log.js";
import { drawContext, drawEvent, drawReply, drawWire } from "./replay-panels.js";
import { clampStep, describe, ownerKey, replayPending, savedAt, tickKind } from "./replay-steps.js";
import { viewState } from "./state.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./contract.js").Traits} Traits */
/** @typedef {import("./contract.js").TranscriptEvent} TranscriptEvent */
/** @typedef {import("./state.js").ViewState} ViewState */

/**
 * The part of the Replay's model this front end uses.
 * @typedef {{
 *   get: (key: 'transcript' | 'step' | 'title' | 'source' | 'saved_at' | '_view') => any,
 *   set: (key: 'step', value: number) => void,
 *   save_changes: () => void,
 *   on: (name: string, callback: (...args: any[]) => void) => void,
 *   off: (name?: string | null, callback?: ((...args: any[]) => void) | null) => void,
 * }} ReplayModel
 */

/** Timeline ticks are drawn for a conversation of up to this many events (the slider always). */
export const MAX_TICKS = 400;

const TRAITS = ["change:transcript", "change:step", "change:title", "change:source", "change:saved_at"];

/** The legend of the timeline's colours. */
const LEGEND = /** @type {const} */ ([["person", "the person"], ["wire", "sent / reply"], ["agent", "agent's message"],
  ["question", "question"], ["card", "card"], ["done", "done"], ["refused", "refused, dismissed"], ["trouble", "no reply, error"]]);

/**
 * One replay view.
 * @typedef {{
 *   model: ReplayModel, view: ViewState, shown: Partial<Traits>, root: HTMLElement,
 *   title: HTMLElement, origin: HTMLElement, counter: HTMLElement, upcoming: HTMLElement,
 *   slider: HTMLInputElement, timeline: HTMLElement, legend: HTMLElement, log: HTMLElement,
 *   empty: HTMLElement, wordsNote: HTMLElement, eventBox: HTMLElement, wireBox: HTMLElement, replyBox: HTMLElement,
 *   contextBox: HTMLElement, controls: {[action: string]: HTMLButtonElement},
 *   ticks: {sig: string, nodes: HTMLButtonElement[]}, current: HTMLElement | null,
 * }} View
 */

/**
 * anywidget's render: draw the replay in `el`; the returned function cleans up.
 * @param {{model: ReplayModel, el: HTMLElement}} props
 */
export function render({ model, el }) {
  const replay = frame(model);
  el.append(replay.root);
  const stopRedrawing = redrawOnChange(model, TRAITS, () => update(replay));
  update(replay);
  return stopRedrawing;
}

/** @param {ReplayModel} model */
function transcriptOf(model) {
  const transcript = model.get("transcript");
  return /** @type {TranscriptEvent[]} */ (Array.isArray(transcript) ? transcript : []);
}

/**
 * Show step `step` (clamped), here and in the kernel.
 * @param {View} replay
 * @param {number} step
 */
function go(replay, step) {
  const { model } = replay;
  const next = clampStep(step, transcriptOf(model).length);
  if (next === clampStep(model.get("step"), transcriptOf(model).length)) return;
  model.set("step", next);
  try {
    model.save_changes();
  } catch (error) {
    console.warn("dial-notebook: the kernel did not hear the step", error); // it still shows here
  }
}

/**
 * The replay's frame, empty, with its controls wired.
 * @param {ReplayModel} model
 * @returns {View}
 */
function frame(model) {
  // The conversation's own view state, over a model that only reads what this step shows and
  // sends nothing: no card, question or retry in a replay reaches the kernel.
  /** @type {Partial<Traits>} */
  const shown = { transcript: [], pending: {}, running: true, thinking: false, schemas: {} };
  /** @type {Model} */
  const readOnly = {
    get: (key) => /** @type {any} */ (shown[key]),
    set: () => {},
    on: () => {},
    off: () => {},
    send: () => {},
  };
  const root = h("div", {
    className: "dial-chat dial-replay", "data-dial-root": "", "data-dial-replay": "",
    "data-lm-suppress-shortcuts": "true", tabindex: "-1", "aria-label": "Replay of a conversation",
  });
  /** @type {View} */
  const replay = {
    model, view: viewState(readOnly, refreshItem), shown, root,
    title: h("span", { className: "dial-title" }),
    origin: h("span", { className: "dial-replay-origin", "data-dial-replay-origin": "" }),
    counter: h("span", { className: "dial-replay-counter", "data-dial-replay-counter": "", "aria-live": "polite" }),
    upcoming: h("span", { className: "dial-replay-upcoming", "data-dial-replay-next": "" }),
    slider: h("input", {
      type: "range", min: "0", max: "0", step: "1", value: "0", className: "dial-replay-slider",
      "data-dial-replay-slider": "", "aria-label": "Step",
    }),
    timeline: h("div", { className: "dial-replay-timeline", "data-dial-replay-timeline": "", role: "group", "aria-label": "Events" }),
    legend: h("div", { className: "dial-replay-legend", "aria-hidden": "true" },
      LEGEND.map(([kind, label]) => h("span", {}, h("i", { className: `dial-replay-swatch dial-replay-kind-${kind}` }), label))),
    log: h("div", { className: "dial-log dial-replay-log", "data-dial-replay-log": "", role: "log", "aria-label": "Conversation" }),
    empty: h("div", { className: "dial-replay-empty", "data-dial-replay-empty": "" }),
    wordsNote: h("div", { className: "dial-replay-note", "data-dial-replay-no-words": "" },
      "The runtime's own transcript: the person's words are not in it (they are in what the agent received). A ChatWidget's saved conversation has them."),
    eventBox: h("section", { className: "dial-replay-panel", "data-dial-replay-event": "" }),
    wireBox: h("section", { className: "dial-replay-panel", "data-dial-replay-received": "" }),
    replyBox: h("section", { className: "dial-replay-panel", "data-dial-replay-reply": "" }),
    contextBox: h("section", { className: "dial-replay-panel", "data-dial-replay-context": "" }),
    controls: {},
    ticks: { sig: "", nodes: [] },
    current: null,
  };
  wireControls(replay);
  const c = replay.controls;
  root.append(
    h("div", { className: "dial-header dial-replay-head" },
      h("span", { className: "dial-logo", "aria-hidden": "true" }, "◆"), replay.title, replay.origin),
    h("div", { className: "dial-replay-controls" }, c.first, c.back, c.next, c.last, replay.slider,
      h("span", { className: "dial-replay-where" }, replay.counter, replay.upcoming)),
    replay.timeline, replay.legend,
    h("div", { className: "dial-replay-body" },
      h("div", { className: "dial-replay-chat" }, h("h3", { className: "dial-replay-heading" }, "What the person saw"),
        replay.wordsNote, replay.empty, replay.log),
      h("aside", { className: "dial-replay-side" }, replay.eventBox, replay.wireBox, replay.replyBox, replay.contextBox)));
  return replay;
}

/**
 * The controls made and wired: First / Back / Next / Last, the slider, a tick on the timeline,
 * and the keys (← → PageUp PageDown Home End) on the whole replay.
 * @param {View} replay
 */
function wireControls(replay) {
  const { model, root } = replay;
  const step = () => clampStep(model.get("step"), transcriptOf(model).length);
  /** @type {[string, string, string, () => number][]} */
  const actions = [
    ["first", "« First", "Go to the start, before the first event", () => 0],
    ["back", "◀ Back", "One event back", () => step() - 1],
    ["next", "Next ▶", "One event on", () => step() + 1],
    ["last", "Last »", "Go to the end, every event shown", () => transcriptOf(model).length],
  ];
  for (const [action, label, aria, target] of actions) {
    const node = /** @type {HTMLButtonElement} */ (button(label, `replay-${action}`, () => go(replay, target()),
      { kind: action === "next" ? "dial-primary" : "", aria }));
    node.setAttribute("data-dial-replay-action", action);
    replay.controls[action] = node;
  }
  replay.slider.addEventListener("input", () => go(replay, Number(replay.slider.value)));
  replay.timeline.addEventListener("click", (event) => {
    const tick = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest("[data-dial-replay-tick]"));
    if (tick) go(replay, Number(tick.getAttribute("data-dial-replay-tick")));
  });
  // keys step too (a presenter's clicker sends PageDown / PageUp); the notebook hears none
  root.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.target === replay.slider || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { ArrowRight: 1, PageDown: 1, ArrowLeft: -1, PageUp: -1 };
    if (event.key in keys) go(replay, step() + keys[/** @type {keyof typeof keys} */ (event.key)]);
    else if (event.key === "Home") go(replay, 0);
    else if (event.key === "End") go(replay, transcriptOf(model).length);
    else return;
    event.preventDefault();
  });
}

/**
 * Everything drawn for the model's step, now.
 * @param {View} replay
 */
function update(replay) {
  const { model, view, shown, log } = replay;
  const transcript = transcriptOf(model);
  const count = transcript.length;
  const step = clampStep(model.get("step"), count);
  const prefix = transcript.slice(0, step);
  const current = step ? transcript[step - 1] : null;

  replay.title.textContent = String(model.get("title") || "Replay");
  const saved = savedAt(model.get("saved_at"));
  const source = String(model.get("source") || "");
  const file = source.split(/[\\/]/).pop() || source; // a path: its file's name (the whole on hover)
  replay.origin.textContent = [file, saved ? `saved ${saved}` : ""].filter(Boolean).join(" · ");
  replay.origin.title = source;

  replay.counter.textContent = step ? `Event ${step} of ${count}` : `Start · ${count} event${count === 1 ? "" : "s"}`;
  replay.upcoming.textContent = step < count ? `Next: ${describe(transcript[step])}` : "The end of the conversation.";
  replay.slider.max = String(count);
  replay.slider.value = String(step);
  replay.slider.setAttribute("aria-valuetext", replay.counter.textContent);
  const focused = replay.root.contains(document.activeElement);
  replay.controls.first.disabled = replay.controls.back.disabled = step === 0;
  replay.controls.next.disabled = replay.controls.last.disabled = step === count;
  // a button that has just been disabled (Next at the end) takes the keys' focus with it
  const active = /** @type {HTMLButtonElement | null} */ (document.activeElement);
  if (focused && (!active || !replay.root.contains(active) || active.disabled)) replay.root.focus({ preventScroll: true });
  drawTicks(replay, transcript, step);

  // the conversation as the widget drew it after `step` events, read-only
  shown.transcript = prefix;
  shown.pending = replayPending(transcript, step);
  const items = itemsOf(prefix, shown.pending);
  drawLog(view, log, items);
  const words = transcript.some((event) => event && event.type === "person");
  readOnly(log, words);
  replay.wordsNote.hidden = words || count === 0;
  replay.empty.hidden = items.length > 0;
  replay.empty.textContent = step === 0
    ? "Nothing has happened yet. Press Next ▶ to see the first event."
    : "Nothing for the person to see yet: the runtime and the agent are talking (on the right).";
  const key = step ? ownerKey(items, prefix, step - 1) : null;
  const entry = key ? view.nodes.get(key) : null;
  if (replay.current && replay.current !== entry?.node) replay.current.classList.remove("dial-replay-current");
  replay.current = entry ? entry.node : null;
  replay.current?.classList.add("dial-replay-current");
  scrollToCurrent(replay);

  drawEvent(replay.eventBox, current, step);
  drawWire(replay.wireBox, transcript, step);
  drawReply(replay.replyBox, current);
  drawContext(replay.contextBox, prefix);
}

/**
 * Every control of the conversation disabled (a replay decides nothing); a question without an
 * answer says why, not "write below" (there is no box here): it was not answered, or the
 * transcript is the runtime's own, which keeps none of the person's words.
 * @param {HTMLElement} log
 * @param {boolean} words  the transcript keeps the person's words
 */
function readOnly(log, words) {
  log.querySelectorAll("button, input, textarea, select").forEach((node) => {
    /** @type {HTMLButtonElement} */ (node).disabled = true;
  });
  log.querySelectorAll('.dial-ask[data-dial-status="open"] > .dial-note').forEach((note) => {
    note.textContent = words ? "Not answered."
      : "The answer is not in this transcript: it went to the agent with the next message.";
  });
}

/**
 * The log scrolled so that the current item is in view (else to the end).
 * @param {View} replay
 */
function scrollToCurrent(replay) {
  const { log, current } = replay;
  if (!current) {
    log.scrollTop = log.scrollHeight;
    return;
  }
  const area = log.getBoundingClientRect();
  const box = current.getBoundingClientRect();
  const top = box.top - area.top + log.scrollTop;
  const bottom = top + box.height;
  if (top < log.scrollTop) log.scrollTop = top - 8;
  else if (bottom > log.scrollTop + log.clientHeight) log.scrollTop = Math.min(top - 8, bottom - log.clientHeight + 8);
}

/**
 * The timeline: one tick per event, coloured by kind, a gap before each thing the person said;
 * ticks up to the step filled, the current one marked. None past MAX_TICKS events.
 * @param {View} replay
 * @param {readonly TranscriptEvent[]} transcript
 * @param {number} step
 */
function drawTicks(replay, transcript, step) {
  const { ticks, timeline } = replay;
  const sig = `${transcript.length}`;
  if (ticks.sig !== sig) {
    ticks.sig = sig;
    ticks.nodes = transcript.length > MAX_TICKS ? [] : transcript.map((event, index) => {
      const label = `${index + 1} · ${describe(event)}`;
      return /** @type {HTMLButtonElement} */ (h("button", {
        type: "button", title: label, "aria-label": label, "data-dial-replay-tick": String(index + 1),
        className: `dial-replay-tick dial-replay-kind-${tickKind(event)}${event && event.type === "person" && index ? " dial-replay-gap" : ""}`,
      }));
    });
    timeline.replaceChildren(...ticks.nodes);
    timeline.hidden = ticks.nodes.length === 0;
    replay.legend.hidden = ticks.nodes.length === 0;
  }
  ticks.nodes.forEach((node, index) => {
    node.classList.toggle("dial-replay-past", index < step);
    node.classList.toggle("dial-replay-now", index === step - 1);
    node.setAttribute("aria-current", index === step - 1 ? "step" : "false");
  });
}
