// @ts-check
// How the transcript becomes what the view draws, pure (no DOM): display items (a card with its
// outcome, steps and acknowledgements, and an Undo's outcome 'undone' or its failure; a
// question with its answer), an execute block's status,
// the declared context, the agent's phatic signal, and the shape an action's result is shown in.
// The rules of the conversation live in the kernel; this only reads what it recorded.
// The items follow the one description of them, dial_notebook/widget/_items.py (the static copy
// and the export draw those): js/test/items.test.mjs checks that itemsOf makes the same items
// from the contract transcript (fixtures/items.json, written by tests/contract_transcript.py).

import { humanise, resultText, summarise } from "./text.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").TranscriptEvent} TranscriptEvent */
/** @typedef {import("./contract.js").Pending} Pending */
/** @typedef {import("./contract.js").DecidePending} DecidePending */
/** @typedef {import("./contract.js").AnswerPending} AnswerPending */
/** @typedef {import("./contract.js").InformEvent} InformEvent */
/** @typedef {import("./contract.js").OutcomeEvent} OutcomeEvent */
/** @typedef {import("./contract.js").SuggestionEvent} SuggestionEvent */
/** @typedef {import("./contract.js").UndoFailedEvent} UndoFailedEvent */

/**
 * @typedef {{kind: 'person', key: string, event: import("./contract.js").PersonEvent}} PersonItem
 * @typedef {{kind: 'inform', key: string, event: InformEvent}} InformItem
 * @typedef {{
 *   kind: 'ask', key: string, index: number, event: import("./contract.js").AskEvent,
 *   answer?: string, pending?: AnswerPending | null,
 * }} AskItem
 * A card: `outcome` is what became of it ('done' stays there once undone: `undone` is the later
 * outcome that took it back; `undoFailed` the latest Undo that did not happen).
 * @typedef {{
 *   kind: 'suggestion', key: string, index: number, event: SuggestionEvent,
 *   outcome: OutcomeEvent | null, steps: Map<string, OutcomeEvent>, acks: InformEvent[],
 *   undone?: OutcomeEvent | null, undoFailed?: UndoFailedEvent | null,
 *   pending?: DecidePending | null, status?: string,
 * }} SuggestionItem
 * @typedef {{
 *   kind: 'status', key: string,
 *   event: OutcomeEvent | import("./contract.js").TurnLimitEvent | import("./contract.js").ErrorEvent
 *     | import("./contract.js").StoppedEvent | import("./contract.js").ResumedEvent | UndoFailedEvent,
 * }} StatusItem
 * @typedef {{kind: 'delegate', key: string, event: import("./contract.js").DelegateEvent}} DelegateItem
 * @typedef {{
 *   kind: 'no-reply', key: string, index: number, event: import("./contract.js").NoReplyEvent,
 *   retry?: boolean,
 * }} NoReplyItem
 * @typedef {PersonItem | InformItem | AskItem | SuggestionItem | StatusItem | DelegateItem | NoReplyItem} Item
 */

/**
 * The conversation as display items: cards get their outcome, answers join their question.
 * `running`: the ids of the runs going now (cards, execute steps: run-progress.js), never
 * in the transcript; a card without an outcome whose run goes is 'running'.
 * @param {readonly TranscriptEvent[]} transcript
 * @param {Pending | {} | null | undefined} pending
 * @param {ReadonlySet<string>} [running]
 * @returns {Item[]}
 */
export function itemsOf(transcript, pending, running = new Set()) {
  /** @type {Item[]} */
  const items = [];
  /** @type {Map<string, SuggestionItem>} suggestion id -> latest card item */
  const cards = new Map();
  /** @type {Map<number | null | undefined, AskItem>} transcript index -> ask item */
  const asks = new Map();
  let resumedAt = -1; // the latest "carried on from …" line
  transcript.forEach((event, index) => {
    if (!event || typeof event !== "object") return;
    switch (event.type) {
      case "person": {
        const ask = asks.get(event.answer_to);
        if (ask && ask.answer === undefined) ask.answer = event.text;
        else items.push({ kind: "person", key: `p${index}`, event });
        break;
      }
      case "inform": {
        // an acknowledge of a proposal is shown with its card, not as a reply to what the
        // person wrote since (it is about the card)
        const card = event.act === "acknowledge" && event.of !== undefined && event.of !== null
          ? cards.get(String(event.of)) : null;
        if (card) card.acks.push(event);
        else items.push({ kind: "inform", key: `i${index}`, event });
        break;
      }
      case "ask": {
        /** @type {AskItem} */
        const item = { kind: "ask", key: `a${index}`, index, event };
        asks.set(index, item);
        items.push(item);
        break;
      }
      case "suggestion": {
        // the waiting card offered again — after a restart (above "what was waiting for you is
        // back"), or checked again before it ran (`stale`) — is the same card, shown as now
        const earlier = cards.get(String(event.id));
        if (earlier && (earlier.index < resumedAt || event.stale) && !earlier.outcome && !earlier.steps.size
          && earlier.event.kind === event.kind) {
          earlier.event = event;
          break;
        }
        /** @type {SuggestionItem} */
        const item = { kind: "suggestion", key: `s${index}`, index, event, outcome: null, steps: new Map(), acks: [] };
        cards.set(String(event.id), item);
        items.push(item);
        break;
      }
      case "outcome": {
        const block = event.block !== undefined && event.block !== null ? cards.get(String(event.block)) : null;
        const card = cards.get(String(event.id));
        if (block && block.event.kind === "execute") block.steps.set(String(event.id), event);
        else if (card && !card.outcome && !card.steps.size) card.outcome = event;
        else if (card && event.status === "undone" && card.outcome && card.outcome.status === "done" && !card.undone) {
          card.undone = event; // the done result stays on the card, taken back
        }
        else if (event.status !== "skipped") items.push({ kind: "status", key: `o${index}`, event });
        // a skipped proposal without a card of its own: its 'skipped' note already says why
        break;
      }
      case "undo-failed": {
        const card = cards.get(String(event.id));
        if (card) card.undoFailed = event; // said on the card, which stays done
        else items.push({ kind: "status", key: `u${index}`, event });
        break;
      }
      case "delegate":
        items.push({ kind: "delegate", key: `d${index}`, event });
        break;
      case "no-reply":
        items.push({ kind: "no-reply", key: `n${index}`, index, event });
        break;
      case "resumed":
        resumedAt = index;
        items.push({ kind: "status", key: `x${index}`, event });
        break;
      case "turn-limit":
      case "error":
      case "stopped":
        items.push({ kind: "status", key: `x${index}`, event });
        break;
      default:
        break; // sent / reply: the raw wire, not shown
    }
  });
  const current = pending && typeof pending === "object" && "kind" in pending ? pending : null;
  const last = items.length ? items[items.length - 1] : null;
  for (const item of items) {
    if (item.kind === "no-reply") item.retry = item === last;
    if (item.kind === "suggestion") {
      const mine = current && current.kind === "decide" &&
        String(current.id) === String(item.event.id) && cards.get(String(current.id)) === item;
      item.pending = mine ? current : null;
      item.status = cardStatus(item, Boolean(mine), running);
    }
    if (item.kind === "ask") {
      item.pending = current && current.kind === "answer" && current.index === item.index
        ? current : null;
    }
  }
  return items;
}

/**
 * A card's status: its outcome's (or 'undone'), else running (its run goes), else waiting for
 * the person (`mine`: the pending decision is this card's), else the block's or 'proposed'.
 * @param {SuggestionItem} item
 * @param {boolean} mine
 * @param {ReadonlySet<string>} running
 */
function cardStatus(item, mine, running) {
  if (item.undone) return "undone";
  if (item.outcome) return String(item.outcome.status);
  if (item.event.kind === "execute") return mine && !item.steps.size ? "pending" : blockStatus(item, running);
  if (running.has(String(item.event.id))) return "running";
  return mine ? "pending" : "proposed";
}

/**
 * An execute block's status from its steps' outcomes: running (a step has ended, or one of
 * `running` has started), then done or failed.
 * @param {SuggestionItem} item
 * @param {ReadonlySet<string>} [running]
 */
export function blockStatus(item, running = new Set()) {
  const steps = (item.event.payload && item.event.payload.steps) || [];
  if (!item.steps.size) { // its run said started (the block's id), or one of its steps
    if (running.has(String(item.event.id))
      || steps.some((/** @type {import("./contract.js").Step} */ step) => running.has(String(step.id)))) return "running";
    return item.event.confirmed ? "confirmed" : "proposed";
  }
  if (item.steps.size < steps.length) return "running";
  return [...item.steps.values()].every((o) => o.status === "done") ? "done" : "failed";
}

/**
 * The session context the agent declared: [key, value] pairs, a later declare winning.
 * @param {readonly TranscriptEvent[]} transcript
 * @returns {[string, Json][]}
 */
export function contextOf(transcript) {
  /** @type {Map<string, Json>} */
  const context = new Map();
  for (const event of transcript) {
    if (event && event.type === "declare" && typeof event.key === "string") {
      context.delete(event.key);
      context.set(event.key, event.value);
    }
  }
  return [...context.entries()];
}

/**
 * 'typing' or 'thinking' when the latest reply's phatic signals leave one on, else null.
 * @param {readonly TranscriptEvent[]} transcript
 * @returns {'typing' | 'thinking' | null}
 */
export function agentSignal(transcript) {
  for (let index = transcript.length - 1; index >= 0; index -= 1) {
    const event = transcript[index];
    if (!event || typeof event !== "object") continue;
    if (event.type === "reply" || event.type === "sent") return null;
    if (event.type !== "phatic") continue;
    if (event.signal === "typing" || event.signal === "thinking") return event.signal;
    if (event.signal === "done-typing") return null;
  }
  return null;
}

/**
 * @typedef {{columns: Json[], rows: Json[], total_rows?: Json}} ResultTable
 * @typedef {{kind: 'none'}
 *   | {kind: 'text' | 'fields', text: string}
 *   | {kind: 'list', items: Json[], caption: string, extra?: string}
 *   | {kind: 'media', items: Json[], caption: string}
 *   | {kind: 'table', table: ResultTable, caption: string}} ResultShape
 */

/**
 * How an action's result is best shown: {kind: 'media'|'table'|'list'|'fields'|'text', …}.
 * A result is the domain's own (the person sees its image in full; only the agent's copy of a
 * long data: URL is shortened).
 * @param {Json} result
 * @returns {ResultShape}
 */
export function resultShape(result) {
  if (result === null || result === undefined || result === "") return { kind: "none" };
  if (typeof result !== "object") return { kind: "text", text: String(result) };
  if (Array.isArray(result)) return { kind: "list", items: result, caption: "" };
  const scalars = Object.entries(result).filter(([, v]) => v === null || typeof v !== "object");
  const summary = summaryOf(result); // the result says itself: its other fields are bookkeeping
  const caption = summary ?? scalars.map(([k, v]) => `${k}: ${v}`).join(", ");
  if (Array.isArray(result.media) && result.media.length) {
    return { kind: "media", items: result.media, caption };
  }
  const table = result.table;
  if (table && typeof table === "object" && Array.isArray(table.columns) && Array.isArray(table.rows)) {
    return { kind: "table", table, caption };
  }
  const lists = Object.entries(result).filter(([, v]) => Array.isArray(v));
  if (lists.length === 1 && Object.keys(result).length - scalars.length === 1) {
    const [name, items] = lists[0];
    const plain = items.every((/** @type {Json} */ item) => item === null || typeof item !== "object");
    const inline = plain ? items.map(String).join(", ") : "";
    if (plain && inline.length <= 200) {  // a few names: one line, not a bullet list
      return { kind: "fields", text: summary ?? [caption, `${name}: ${inline}`].filter(Boolean).join(", ") };
    }
    return { kind: "list", items, caption: humanise(name), extra: caption };
  }
  if (scalars.length === Object.keys(result).length) return { kind: "fields", text: summary ?? resultText(result) };
  return { kind: "text", text: summary ?? summarise(result) };
}

/**
 * A result's own words for itself (its `summary`, when it is text that says something).
 *   summaryOf({rows: 40, summary: "sales: 200 → 40 rows"})  // "sales: 200 → 40 rows"
 * @param {{[key: string]: Json}} result
 * @returns {string | null}
 */
export function summaryOf(result) {
  return typeof result.summary === "string" && result.summary.trim() ? result.summary : null;
}
