// @ts-check
// A replay's steps, pure (no DOM): what step k of a saved transcript shows. Step k is the
// conversation after its first k events (0: nothing yet); the current event is the k-th.
//
//   clampStep(step, count)          a whole step from 0 to count
//   latestSent(transcript, step)    the message the agent had received by then: {index, turn, message}
//   replayPending(transcript, step) a question the person was being asked at that step (they
//                                   answered it later), so its card shows its options
//   ownerKey(items, transcript, i)  the display item event i drew or changed (to highlight it)
//   describe(event) · aboutEvent(event) · fieldsOf(event) · tickKind(event)   words for a person
//   savedAt(text)                   when it was saved, readable
//
// Nothing here decides a rule of the conversation: it reads what the kernel recorded.

import { summarise } from "./text.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").TranscriptEvent} TranscriptEvent */
/** @typedef {import("./contract.js").AnswerPending} AnswerPending */
/** @typedef {import("./items.js").Item} Item */

/**
 * What each kind of event is, for a class watching the replay.
 * @type {{[type: string]: string}}
 */
export const EVENT_ABOUT = {
  person: "The person's words: typed in the chat, or an answer to a question.",
  sent: "The runtime sent the agent a message. Its exact text is under “What the agent received”.",
  reply: "The agent's reply, raw, exactly as it came back. The runtime reads it next.",
  inform: "A message from the reply, shown to the person. It expects no answer.",
  ask: "A question for the person. The answer goes back to the agent with the next message.",
  suggestion: "A proposal the domain found valid, shown as a card. Nothing runs until it is accepted (read-only and hand-off actions excepted).",
  outcome: "What became of a proposal. The agent is told in the next message. 'undone': the person took a done one back.",
  "undo-failed": "An Undo that did not happen (what it would put back had changed, or the domain's undo failed): the proposal stays done.",
  declare: "A fact the agent declared: it fills the session's context.",
  delegate: "A hand-off to another actor.",
  phatic: "A channel signal (typing, thinking): an indicator, nothing else.",
  "no-reply": "The agent did not reply in time. What it has not heard is sent again with the next message.",
  "turn-limit": "The runtime stopped after the most turns one message may take.",
  error: "Sending to the agent failed.",
  stopped: "The person stopped the agent's answer.",
  resumed: "The conversation carried on from a saved session (a new kernel, the same cell run again).",
};

/**
 * A whole step from 0 to `count` (anything else, clamped; not a number: 0).
 * @param {unknown} step
 * @param {number} count
 */
export function clampStep(step, count) {
  const value = Math.trunc(Number(step));
  if (!Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(count, value));
}

/**
 * The latest 'sent' event among the first `step` events: the message the agent had received.
 * @param {readonly TranscriptEvent[]} transcript
 * @param {number} step
 * @returns {{index: number, turn: Json, message: string} | null}
 */
export function latestSent(transcript, step) {
  for (let index = Math.min(step, transcript.length) - 1; index >= 0; index -= 1) {
    const event = transcript[index];
    if (event && event.type === "sent") {
      return { index, turn: event.turn, message: typeof event.message === "string" ? event.message : String(event.message ?? "") };
    }
  }
  return null;
}

/**
 * The question the person was being asked at `step`: the latest ask among the first `step`
 * events that has no answer among them but is answered later in the transcript. As the widget
 * would have had it pending (a confirm is Yes / No only), without a token: nothing answers it.
 * @param {readonly TranscriptEvent[]} transcript
 * @param {number} step
 * @returns {AnswerPending | {}}
 */
export function replayPending(transcript, step) {
  for (let index = Math.min(step, transcript.length) - 1; index >= 0; index -= 1) {
    const event = transcript[index];
    if (!event || event.type !== "ask") continue;
    const answered = (/** @type {number} */ from, /** @type {number} */ to) => transcript.slice(from, to)
      .some((e) => e && e.type === "person" && e.answer_to === index);
    if (answered(index + 1, step) || !answered(step, transcript.length)) return {};
    const type = String(event.response_type || "text");
    return {
      kind: "answer", token: "", index, response_type: type,
      options: type === "confirm" || !Array.isArray(event.options) ? [] : event.options,
    };
  }
  return {};
}

/**
 * The key of the display item event `index` drew (a bubble, a card, a note) or changed (a card
 * its outcome or acknowledgement joined, a question its answer), or null (the wire, a signal).
 * @param {readonly Item[]} items
 * @param {readonly TranscriptEvent[]} transcript
 * @param {number} index
 * @returns {string | null}
 */
export function ownerKey(items, transcript, index) {
  const event = transcript[index];
  if (!event || typeof event !== "object") return null;
  const own = items.find((item) => item.key.slice(1) === String(index));
  if (own) return own.key;
  const card = (/** @type {unknown} */ id) => {
    for (let i = items.length - 1; i >= 0; i -= 1) {
      const item = items[i];
      if (item.kind === "suggestion" && String(item.event.id) === String(id)) return item.key;
    }
    return null;
  };
  if (event.type === "outcome") {
    return (event.block !== undefined && event.block !== null ? card(event.block) : null) ?? card(event.id);
  }
  if (event.type === "inform" && event.act === "acknowledge") return card(event.of);
  if (event.type === "undo-failed") return card(event.id);
  if (event.type === "person") {
    const ask = items.find((item) => item.kind === "ask" && item.index === event.answer_to);
    return ask ? ask.key : null;
  }
  return null;
}

/**
 * One line saying what an event is: "suggestion add-note (add)", "outcome add: done" ….
 * @param {TranscriptEvent | null | undefined} event
 */
export function describe(event) {
  if (!event || typeof event !== "object") return "";
  const e = /** @type {{[key: string]: Json}} */ (event);
  const words = (/** @type {Json} */ value, limit = 60) => `“${summarise(value, limit)}”`;
  switch (e.type) {
    case "person": return `person: ${words(e.text)}`;
    case "sent": return `sent to the agent (turn ${summarise(e.turn, 12)})`;
    case "reply": return `the agent's reply (turn ${summarise(e.turn, 12)})`;
    case "inform": return `${e.act === "acknowledge" ? "acknowledge" : "inform"}: ${words(e.text)}`;
    case "ask": return `ask (${summarise(e.response_type || "text", 20)}): ${words(e.text)}`;
    case "suggestion": return `suggestion ${summarise(e.action, 40)} (${summarise(e.id, 40)})`;
    case "outcome": return `outcome ${summarise(e.id, 40)}: ${summarise(e.status, 30)}`;
    case "declare": return `declare ${summarise(e.key, 40)}`;
    case "delegate": return `delegate to ${summarise(e.to, 40)}`;
    case "phatic": return `phatic: ${summarise(e.signal, 30)}`;
    case "undo-failed": return `undo of ${summarise(e.id, 40)} failed`;
    default: return summarise(e.type, 40);
  }
}

/**
 * What the event is, for the side panel (unknown kinds: said so).
 * @param {TranscriptEvent | null | undefined} event
 */
export function aboutEvent(event) {
  if (!event || typeof event !== "object") return "";
  const about = Object.prototype.hasOwnProperty.call(EVENT_ABOUT, event.type) ? EVENT_ABOUT[event.type] : null;
  return about || "An event this version of dial-notebook does not draw.";
}

/**
 * The event's fields but its type, in its own order.
 * @param {TranscriptEvent | null | undefined} event
 * @returns {[string, Json][]}
 */
export function fieldsOf(event) {
  if (!event || typeof event !== "object") return [];
  return Object.entries(event).filter(([key]) => key !== "type");
}

/**
 * The colour family of an event's tick on the timeline.
 * @param {TranscriptEvent | null | undefined} event
 * @returns {'person' | 'wire' | 'agent' | 'card' | 'done' | 'refused' | 'question' | 'trouble' | 'other'}
 */
export function tickKind(event) {
  if (!event || typeof event !== "object") return "other";
  switch (event.type) {
    case "person": return "person";
    case "sent": case "reply": return "wire";
    case "inform": case "declare": case "delegate": case "phatic": return "agent";
    case "suggestion": return "card";
    case "ask": return "question";
    case "outcome": return event.status === "done" || event.status === "handed-off" ? "done" : "refused";
    case "no-reply": case "turn-limit": case "error": case "stopped": case "undo-failed": return "trouble";
    case "resumed": return "wire";
    default: return "other";
  }
}

/**
 * When the snapshot says it was saved, readable: '2026-12-01 17:00 UTC' from an ISO time (any
 * other text as it is, cut short).
 * @param {unknown} value
 */
export function savedAt(value) {
  const text = typeof value === "string" ? value.trim() : "";
  const iso = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(text);
  if (!iso) return summarise(text, 40);
  const zone = !iso[3] ? "" : iso[3] === "Z" || iso[3] === "+00:00" || iso[3] === "-00:00" ? " UTC" : ` UTC${iso[3]}`;
  return `${iso[1]} ${iso[2]}${zone}`;
}
