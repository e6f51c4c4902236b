// @ts-check
// While a conversation is on its way from the kernel, the view's root says so: the transcript
// is not in the state the comm opens with (unsaved.js), so a view drawn first holds nothing,
// asks for it ('sync', live.js) and gets it a moment later. Meanwhile chat.css keeps the static
// copy right after the widget hidden: at thousands of events, a copy shown then would be laid
// out by the page (seconds of one task, measured) only to be hidden when the live log fills.
//
//   markArriving(model, root) ──▶ root[data-dial-arriving] while the model's transcript is
//                                 empty, until the first one comes and is drawn; gone after
//                                 ARRIVING_MS anyway, or at once when the model has no live
//                                 comm (a notebook opened without its kernel: the copy shows)
//
// A conversation that is truly empty has a copy with no events, which chat.css hides anyway.

import { managerModel } from "./unsaved.js";

/** @typedef {import("./contract.js").Model} Model */

/** The root's attribute while the conversation is arriving. */
export const ARRIVING = "data-dial-arriving";
/** Milliseconds after which a conversation that has not come is no longer waited for. */
export const ARRIVING_MS = 6000;

/**
 * Whether the widget manager's model behind `model` has a live comm (true when that cannot be
 * told: an old manager).
 * @param {Model} model
 * @returns {Promise<boolean>}
 */
export async function commLive(model) {
  const backbone = await managerModel(model);
  if (!backbone) return true;
  return backbone.comm !== undefined && backbone.comm !== null && backbone.comm_live !== false;
}

/**
 * Mark `root` while `model`'s conversation is arriving; the returned function stops (the view
 * is disposed).
 * @param {Model} model
 * @param {{setAttribute: (name: string, value: string) => void, removeAttribute: (name: string) => void}} root
 * @param {{wait?: number, live?: (model: Model) => Promise<boolean>}} [options]
 * @returns {() => void}
 */
export function markArriving(model, root, { wait = ARRIVING_MS, live = commLive } = {}) {
  const events = /** @type {unknown[] | undefined} */ (model.get("transcript"));
  if (Array.isArray(events) && events.length) return () => {};
  let done = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer = undefined;
  const arrived = () => {
    if (done) return;
    done = true;
    root.removeAttribute(ARRIVING);
    model.off("change:transcript", onTranscript);
    if (timer !== undefined) clearTimeout(timer);
  };
  const onTranscript = () => {
    const now = /** @type {unknown[] | undefined} */ (model.get("transcript"));
    // a task later: the view draws the log first (a microtask), whose entries then hide the
    // copy; unmarked before, the copy would show, and be laid out, for that one drawing
    if (Array.isArray(now) && now.length) setTimeout(arrived, 0);
  };
  root.setAttribute(ARRIVING, "");
  model.on("change:transcript", onTranscript);
  timer = setTimeout(arrived, wait);
  live(model).then((yes) => { if (!yes) arrived(); }, arrived);
  return arrived;
}
