// @ts-check
// What arrives while a conversation runs, besides the traits: events appended to the transcript
// (each travels once, in an 'append' message, and is added here to the model's own copy of the
// trait), and a reply being streamed ('progress': readable prose and what the agent is writing;
// the kernel strips the markup, nothing here parses DIAL).
//
//   initialize({model}) ──▶ once per model: appends applied, {type: 'sync', length} sent so
//                           that events sent before this module loaded are not lost (and the
//                           runs the kernel then says go are heard: run-progress.js)
//   appended(transcript, message) ──▶ the new transcript | null (already there) | 'gap'
//   streamed(stream, message)     ──▶ the streamed reply so far, or null (not for this view)
//   ENDS_STREAM                       event types that replace the streamed bubble
//
// The model's copy is set locally and never saved back: the kernel already has it (nothing in
// this front end calls save_changes), saved widget state and a second view read it from here.

import { memoryOf } from "./run-progress.js";

/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./contract.js").TranscriptEvent} TranscriptEvent */
/** @typedef {import("./contract.js").AppendMessage} AppendMessage */
/** @typedef {import("./contract.js").ProgressMessage} ProgressMessage */

/** A streamed reply as one view shows it. @typedef {{turn: number, prose: string, writing: string | null}} Stream */

/** The events after which a streamed reply is shown as itself (its cards, informs) or is gone. */
export const ENDS_STREAM = new Set(["reply", "no-reply", "stopped", "error"]);

/**
 * The transcript once `message` is applied: a new array, `null` when it holds those events
 * already (another listener applied them, or the whole trait came after), or 'gap' when events
 * before `message.start` never arrived (the kernel is asked for the whole trait).
 * @param {readonly TranscriptEvent[]} transcript
 * @param {AppendMessage} message
 * @returns {TranscriptEvent[] | null | 'gap'}
 */
export function appended(transcript, message) {
  const start = Number(message.start);
  const events = Array.isArray(message.events) ? message.events : [];
  if (!Number.isInteger(start) || start < 0) return "gap";
  if (transcript.length < start) return "gap";
  if (transcript.length >= start + events.length) return null;
  return [...transcript.slice(0, start), ...events];
}

/**
 * The streamed reply after `message`: its prose so far and what is being written. `at` is where
 * `text` goes: the prose shown up to `at`, then `text` (the kernel sends only what changed:
 * usually the end grows, sometimes its last characters change, an entity completed). A message
 * that continues prose this view never got (it was drawn mid-stream), or that has no text (the
 * kernel's budget for this reply is spent), keeps what is shown and updates only `writing`.
 * @param {Stream | null} stream
 * @param {ProgressMessage} message
 * @returns {Stream}
 */
export function streamed(stream, message) {
  const turn = Number(message.turn) || 0;
  const writing = typeof message.writing === "string" && message.writing ? message.writing : null;
  const mine = stream && stream.turn === turn ? stream : { turn, prose: "", writing: null };
  if (typeof message.prose === "string") return { turn, prose: message.prose, writing };
  const at = Number(message.at);
  if (typeof message.text === "string" && Number.isInteger(at) && at >= 0 && at <= mine.prose.length) {
    return { turn, prose: mine.prose.slice(0, at) + message.text, writing };
  }
  return { turn, prose: mine.prose, writing };
}

/**
 * anywidget's initialize: appends go into the model's transcript whether or not a view is
 * drawn; the kernel is told how much this copy holds, and re-sends the trait if not all.
 * @param {{model: Model}} props
 * @returns {() => void}
 */
export function initialize({ model }) {
  const length = () => (model.get("transcript") || []).length;
  let asked = false; // the whole trait was asked for and has not come yet: ask once
  const onMessage = (/** @type {{type?: string} | undefined} */ message) => {
    if (!message || message.type !== "append") return;
    const next = appended(model.get("transcript") || [], /** @type {AppendMessage} */ (message));
    if (next === "gap") {
      if (!asked) model.send({ type: "sync", length: length() });
      asked = true;
    } else if (next) {
      model.set("transcript", next);
    }
  };
  const onTrait = () => { asked = false; };
  model.on("msg:custom", onMessage);
  model.on("change:transcript", onTrait);
  memoryOf(model); // the runs the kernel says go (its answer to sync), heard before a view is drawn
  model.send({ type: "sync", length: length() });
  return () => {
    model.off("msg:custom", onMessage);
    model.off("change:transcript", onTrait);
  };
}
