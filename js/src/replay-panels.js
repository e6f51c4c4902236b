// @ts-check
// The Replay's side panels (replay.js draws the frame and steps): the current event (its kind,
// what it means, its fields), the exact message the agent had received by then, the agent's raw
// reply on a 'reply', and what the agent had declared. Each panel is redrawn whole into the box
// it is given. Agent text is untrusted: it reaches the page only as text (textContent, text
// nodes), never as HTML; an exact text names its invisible characters under it.
//
//   drawEvent(box, event, step)       the current event         data-dial-replay-event
//   drawWire(box, transcript, step)   what the agent received   data-dial-replay-received
//   drawReply(box, event)             the raw reply, or hidden  data-dial-replay-reply
//   drawContext(box, prefix)          declared context, or hidden

import { contextOf } from "./items.js";
import { h, jsonBlock } from "./dom.js";
import { aboutEvent, fieldsOf, latestSent, tickKind } from "./replay-steps.js";
import { hiddenPieces, summarise } from "./text.js";

/** @typedef {import("./contract.js").TranscriptEvent} TranscriptEvent */

/** Characters of the wire text or a raw reply shown; the rest is named, not drawn. */
export const MAX_SHOWN = 200_000;
/** Characters of one field's text in the event panel. */
const FIELD_CHARS = 600;

/**
 * A heading for a side panel, with a muted note after it.
 * @param {string} text
 * @param {string} [note]
 */
function heading(text, note) {
  return h("h3", { className: "dial-replay-heading" }, text, note ? h("span", { className: "dial-replay-note" }, note) : null);
}

/**
 * Exact text in a <pre>, up to MAX_SHOWN characters (the rest named), and its invisible
 * characters named under it.
 * @param {string} text
 * @param {string} marker  the pre's data attribute
 */
function exactText(text, marker) {
  const shownText = text.length > MAX_SHOWN ? text.slice(0, MAX_SHOWN) : text;
  /** @type {HTMLElement[]} */
  const nodes = [h("pre", { className: "dial-replay-pre", [marker]: "", dir: "ltr" }, shownText)];
  if (text.length > MAX_SHOWN) {
    nodes.push(h("div", { className: "dial-replay-note" },
      `… ${(text.length - MAX_SHOWN).toLocaleString("en-US")} more characters, not drawn here (the Python side's replay has them all).`));
  }
  const hidden = [...new Set(hiddenPieces(shownText).map((piece) => piece.hidden).filter(Boolean))];
  if (hidden.length) {
    nodes.push(h("div", { className: "dial-replay-hidden", role: "note" },
      `⚠ Holds invisible characters: ${hidden.slice(0, 12).join(", ")}${hidden.length > 12 ? " …" : ""}`));
  }
  return nodes;
}

/**
 * The current event: its kind, what it means, its fields.
 * @param {HTMLElement} box
 * @param {TranscriptEvent | null} event
 * @param {number} step
 */
export function drawEvent(box, event, step) {
  if (!event || typeof event !== "object") {
    box.replaceChildren(heading("This event"),
      h("p", { className: "dial-replay-about" }, step
        ? "This entry is not an event (not an object)."
        : "The replay starts before anything happened. Each Next shows one more event: what the person saw on the left, the runtime's side of it here."));
    return;
  }
  const kind = tickKind(event);
  const list = h("dl", { className: "dial-replay-fields" });
  for (const [key, value] of fieldsOf(event)) {
    const wire = (event.type === "sent" && key === "message") || (event.type === "reply" && key === "text");
    /** @type {Node | string} */
    let shownValue;
    if (wire) shownValue = h("span", { className: "dial-replay-note" }, `${String(value).length.toLocaleString("en-US")} characters, shown whole below`);
    else if (typeof value === "string") shownValue = summarise(value, FIELD_CHARS);
    else if (value !== null && typeof value === "object") shownValue = jsonBlock(value);
    else shownValue = JSON.stringify(value) ?? String(value);
    list.append(h("dt", { className: "dial-mono" }, key), h("dd", { "data-dial-replay-field": key }, shownValue));
  }
  box.replaceChildren(
    h("h3", { className: "dial-replay-heading" }, `Event ${step} `,
      h("span", { className: `dial-replay-type dial-replay-kind-${kind}`, "data-dial-replay-type": String(event.type) }, String(event.type))),
    h("p", { className: "dial-replay-about" }, aboutEvent(event)),
    list);
}

/**
 * What the agent had received by this step: the latest sent message, exact.
 * @param {HTMLElement} box
 * @param {readonly TranscriptEvent[]} transcript
 * @param {number} step
 */
export function drawWire(box, transcript, step) {
  const sent = latestSent(transcript, step);
  if (!sent) {
    box.replaceChildren(heading("What the agent received"),
      h("p", { className: "dial-replay-note" }, "Nothing sent to the agent yet."));
    return;
  }
  const now = sent.index === step - 1;
  box.replaceChildren(
    heading("What the agent received", ` turn ${summarise(sent.turn, 12)} · event ${sent.index + 1}${now ? " · just sent" : ""}`),
    ...exactText(sent.message, "data-dial-replay-wire"));
  box.classList.toggle("dial-replay-fresh", now);
}

/**
 * The agent's raw reply, when the current event is one.
 * @param {HTMLElement} box
 * @param {TranscriptEvent | null} event
 */
export function drawReply(box, event) {
  box.hidden = !(event && event.type === "reply");
  if (box.hidden || !event || event.type !== "reply") {
    box.replaceChildren();
    return;
  }
  const text = typeof event.text === "string" ? event.text : String(event.text ?? "");
  box.replaceChildren(heading("The agent's reply, raw", ` turn ${summarise(event.turn, 12)}`), ...exactText(text, "data-dial-replay-raw"));
  if (event.truncated) {
    box.append(h("div", { className: "dial-replay-note" },
      `The reply was ${Number(event.chars || 0).toLocaleString("en-US")} characters: the runtime kept only this much, and read none of it.`));
  }
}

/**
 * What the agent had declared by this step (hidden when nothing).
 * @param {HTMLElement} box
 * @param {readonly TranscriptEvent[]} prefix
 */
export function drawContext(box, prefix) {
  const entries = contextOf(prefix);
  box.hidden = entries.length === 0;
  const list = h("dl", { className: "dial-replay-fields" });
  for (const [key, value] of entries.slice(0, 100)) {
    list.append(h("dt", { className: "dial-mono" }, key), h("dd", {}, summarise(value)));
  }
  box.replaceChildren(heading("Context the agent declared"), list);
}
