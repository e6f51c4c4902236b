// @ts-check
// The conversation log: one node per display item, kept across updates. An item is redrawn
// only when its signature changes (a card's status, pending state, outcome, steps, whether the
// rule that accepted it is still there, …), so what the person typed into an open editor
// survives every other change.
//
//   drawLog(view, log, items) ──▶ new items appended in order, changed ones replaced in place
//                                 (focus kept, or moved to a refused field), gone ones removed;
//                                 the entries kept in blocks of BLOCK (what a frame costs stays
//                                 flat however long the conversation)
//   view.refresh(item)         ──▶ refreshItem: one item redrawn now, focus where asked

import { askCard } from "./ask.js";
import { STATUS_LABEL, suggestionCard } from "./cards.js";
import { button, h, jsonBlock } from "./dom.js";
import { informNode } from "./inform.js";
import { undoableOf } from "./review.js";
import { ruleStateOf } from "./rules-panel.js";
import { summarise, words } from "./text.js";

/** @typedef {import("./items.js").Item} Item */
/** @typedef {import("./items.js").StatusItem} StatusItem */
/** @typedef {import("./items.js").NoReplyItem} NoReplyItem */
/** @typedef {import("./items.js").DelegateItem} DelegateItem */
/** @typedef {import("./state.js").ViewState} ViewState */
/** @typedef {import("./state.js").Focus} Focus */

/**
 * An outcome without a card, the turn limit, a stopped say, a resumed session, or an error.
 * @param {StatusItem} item
 */
function statusNode(item) {
  const event = item.event;
  if (event.type === "outcome") {
    const bits = [`${String(event.action || "action")}: ${STATUS_LABEL[event.status] || event.status}`];
    if (event.status === "done" && event.result !== undefined && event.result !== null) bits.push(summarise(event.result, 120));
    if (event.error) bits.push(summarise(event.error, 160));
    if (event.hint) bits.push(summarise(event.hint, 160));
    return h("div", { className: `dial-status-line dial-outcome-${event.status}`, "data-dial-outcome": String(event.id ?? "") }, bits.join(" — "));
  }
  if (event.type === "stopped") {
    const line = h("div", { className: "dial-status-line dial-stopped", "data-dial-stopped": "" }, words("stopped"));
    if (typeof event.partial !== "string" || !event.partial) return line;
    // what the person had read of the reply cut short (the agent never got it back)
    return h("div", { className: "dial-stopped-reply" },
      h("div", { className: "dial-inform dial-partial", "data-dial-partial": "" }, h("div", { className: "dial-prose" }, event.partial)),
      line);
  }
  if (event.type === "resumed") {
    const saved = event.saved_at ? words("saved-at", { when: event.saved_at.replace("T", " ").replace("+00:00", " UTC") }) : "";
    if (event.read_only) {
      return h("div", { className: "dial-status-line dial-resumed dial-warn", "data-dial-resumed": "", "data-dial-read-only": "" },
        words("read-only", { session: event.session, saved }));
    }
    const waiting = event.waiting ? words("waiting-is-back") : ".";
    return h("div", { className: "dial-status-line dial-resumed", "data-dial-resumed": "" },
      words("carried-on", { session: event.session, saved, waiting }));
  }
  if (event.type === "undo-failed") {
    return h("div", { className: "dial-status-line dial-error", role: "alert", "data-dial-undo-failed": String(event.id ?? "") },
      words("undo-failed", { id: summarise(event.id, 60), error: summarise(event.error, 400) }));
  }
  if (event.type === "turn-limit") return h("div", { className: "dial-status-line dial-warn" }, words("turn-limit", { turns: event.turns }));
  return h("div", { className: "dial-status-line dial-error", role: "alert" }, words("error", { error: summarise(event.error, 400) }));
}

/**
 * The agent did not reply; the latest such note offers Retry while no say runs.
 * @param {ViewState} view
 * @param {NoReplyItem} item
 */
function noReplyNode(view, item) {
  const box = h("div", { className: "dial-no-reply", role: "alert" },
    h("span", {}, words("no-reply")),
    h("span", { className: "dial-hint" }, summarise(item.event.error || "", 200)));
  if (item.retry && !view.model.get("running")) {
    box.append(button("Retry", "retry", () => {
      view.model.send({ type: "retry" });
      /** @type {HTMLButtonElement} */ (box.querySelector("[data-dial-action=retry]")).disabled = true;
    }, { aria: "Send again what the agent has not heard" }));
  }
  return box;
}

/**
 * A hand-off to another actor, and whether anybody here takes it over.
 * @param {DelegateItem} item
 */
function delegateNode(item) {
  const event = item.event;
  const box = h("div", { className: "dial-delegate", "data-dial-delegate": String(event.to ?? "") });
  box.append(h("div", { className: "dial-note" },
    words("hand-off", { to: String(event.to || words("another-actor")), intent: event.intent ? ` (${String(event.intent)})` : "" })
    + (event.registered ? "" : words("hand-off-to-nobody"))));
  if (event.text) box.append(h("div", {}, String(event.text)));
  if (event.context !== null && event.context !== undefined) box.append(jsonBlock(event.context));
  return box;
}

/**
 * @param {ViewState} view
 * @param {Item} item
 * @returns {HTMLElement}
 */
function nodeFor(view, item) {
  switch (item.kind) {
    case "delegate": return delegateNode(item);
    case "person": return h("div", { className: "dial-person" }, h("div", { className: "dial-bubble" }, String(item.event.text)));
    case "inform": return informNode(item.event);
    case "ask": return askCard(view, item);
    case "suggestion": return suggestionCard(view, item);
    case "no-reply": return noReplyNode(view, item);
    default: return statusNode(item);
  }
}

/**
 * What a chart inform shows: a chart drawn late (widget/_vegalite.py) replaces its note.
 * @param {import("./contract.js").Chart | undefined} chart
 */
function chartSignature(chart) {
  if (!chart) return "";
  return "src" in chart ? `${String(chart.src).length}:${String(chart.src).slice(-64)}` : String(chart.error);
}

/**
 * What an item's node depends on beyond its event, as a list of parts: a change redraws it.
 * A part is a value or an event (a card's outcome, steps, acknowledgements), compared by
 * identity first, so that an append costs nothing for the items it leaves alone; by content
 * only when it is another object (the whole transcript came again).
 * @param {ViewState} view
 * @param {Item} item
 * @returns {unknown[]}
 */
function signature(view, item) {
  switch (item.kind) {
    case "suggestion": {
      const id = String(item.event.id);
      return [item.status, item.pending, item.outcome, view.model.get("schemas")?.[String(item.event.action)] ? 1 : 0,
        item.steps.size, ...item.steps.values(), item.acks.length, ...item.acks, item.undone, item.undoFailed,
        undoableOf(view.model, id), view.undoing.has(id), ruleStateOf(view, item)];
    }
    case "ask": return [item.pending, item.answer];
    case "inform": return [chartSignature(item.event.chart)]; // "Drawing the chart…", then the chart
    case "no-reply": return [item.retry, view.model.get("running")];
    default: return [];
  }
}

/**
 * Whether two signatures are the same: part by part, the same value or object, or (another
 * object) the same JSON; null and undefined alike (as JSON has them).
 * @param {unknown[]} before
 * @param {unknown[]} now
 */
export function sameSignature(before, now) {
  if (before.length !== now.length) return false;
  for (let at = 0; at < now.length; at += 1) {
    const a = before[at];
    const b = now[at];
    if (a === b || (a == null && b == null)) continue;
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
    if (JSON.stringify(a) !== JSON.stringify(b)) return false;
  }
  return true;
}

/**
 * Redraw one item's node now, and put focus where asked.
 * @param {ViewState} view
 * @param {Item} item
 * @param {Focus} [focus]
 */
export function refreshItem(view, item, { focusEditor, focusPath, focusSelector, focusAction } = {}) {
  const entry = view.nodes.get(item.key);
  if (!entry) return;
  const node = nodeFor(view, item);
  entry.node.replaceWith(node);
  entry.node = node;
  entry.item = item;
  /** @type {HTMLElement | null} */
  let target = null;
  if (focusPath !== undefined) {
    target = node.querySelector(`[data-dial-path="${CSS.escape(focusPath)}"] :is(input, textarea, select)`);
  } else if (focusEditor) {
    target = node.querySelector(".dial-field-invalid :is(input, textarea, select), .dial-editor :is(input, textarea, select)");
  } else if (focusSelector) {
    target = node.querySelector(focusSelector);
  } else if (focusAction) {
    target = node.querySelector(`[data-dial-action="${focusAction}"]`);
  }
  target?.focus();
}

/** Entries per block of the log. The log holds blocks, each holding up to BLOCK entries in
 * order: the browser skips a block off screen whole (chat.css: `content-visibility`), so what a
 * frame costs does not grow with the conversation (2,000 entries are 40 blocks to look at, not
 * 2,000). Every entry stays in the DOM, in order: find-in-page and the keyboard reach them all. */
export const BLOCK = 50;

/** @type {WeakMap<HTMLElement, HTMLElement[]>} each log's item nodes, in the order drawLog left them */
const drawnOrder = new WeakMap();

/**
 * The log's entries (item nodes) in order, across its blocks.
 * @example
 *   entriesOf(chat.log).length; // one per item drawn
 * @param {HTMLElement} log
 * @returns {HTMLElement[]}
 */
export function entriesOf(log) {
  return [...log.children].flatMap((block) => /** @type {HTMLElement[]} */ ([...block.children]));
}

/**
 * The log's block number `at`, made (empty, at the log's end) when the log has fewer.
 * @param {HTMLElement} log
 * @param {number} at
 */
function blockAt(log, at) {
  while (log.children.length <= at) log.append(h("div", { className: "dial-log-block" }));
  return /** @type {HTMLElement} */ (log.children[at]);
}

/**
 * Bring the log in line with `items`, keeping every node whose signature did not change. The
 * DOM is touched only where something changed: the nodes already in place (the order drawn
 * last time, unchanged so far) are not looked at again, so an append costs what it adds.
 * Entry number i lives in block i / BLOCK (see BLOCK).
 * @param {ViewState} view
 * @param {HTMLElement} log
 * @param {Item[]} items
 */
export function drawLog(view, log, items) {
  const { nodes } = view;
  const before = drawnOrder.get(log) || [];
  /** @type {HTMLElement[]} */
  const order = [];
  /** @type {Set<string>} */
  const keep = new Set();
  let inPlace = true; // every node so far where it was drawn last time (or redrawn there)
  for (const item of items) {
    keep.add(item.key);
    const sig = signature(view, item);
    let entry = nodes.get(item.key);
    if (!entry) {
      entry = { sig, node: nodeFor(view, item), item };
      nodes.set(item.key, entry);
    } else if (!sameSignature(entry.sig, sig)) {
      redraw(view, entry, item, sig);
    } else {
      entry.item = item;
    }
    const at = order.length;
    if (!inPlace || before[at] !== entry.node) {
      inPlace = false;
      const block = blockAt(log, Math.floor(at / BLOCK));
      /** @type {ChildNode | null} */
      const expected = at % BLOCK === 0 ? block.firstChild : order[at - 1].nextSibling;
      if (expected !== entry.node) block.insertBefore(entry.node, expected);
    }
    order.push(entry.node);
  }
  drawnOrder.set(log, order);
  const removed = keep.size !== nodes.size;
  if (removed) {
    for (const [key, entry] of nodes) {
      if (!keep.has(key)) {
        entry.node.remove();
        nodes.delete(key);
      }
    }
  }
  if (inPlace && !removed) return;
  // blocks past the last entry's (every entry now in its place, so they hold nothing kept)
  const blocks = Math.ceil(order.length / BLOCK);
  while (log.children.length > blocks) /** @type {HTMLElement} */ (log.lastElementChild).remove();
}

/**
 * An item's node drawn again in its place; focus kept in it (or moved to a refused field).
 * @param {ViewState} view
 * @param {import("./state.js").Entry} entry
 * @param {Item} item
 * @param {unknown[]} sig
 */
function redraw(view, entry, item, sig) {
  const node = nodeFor(view, item);
  const hadFocus = entry.node.contains(document.activeElement);
  entry.node.replaceWith(node);
  entry.node = node;
  entry.sig = sig;
  entry.item = item;
  /** @type {HTMLElement | null} */
  let target = null;
  if (item.kind === "suggestion" && item.pending && item.pending.issue) {
    target = node.querySelector(".dial-field-invalid :is(input, textarea, select), [data-dial-field=payload-json]");
  } else if (hadFocus) {
    target = node.querySelector("button:not([disabled]), input, textarea");
  }
  target?.focus();
}
