// @ts-check
// The view's link to the kernel, and what it shows once that is gone: a kernel restart (or a
// page that outlived its kernel) leaves a widget whose comm is dead; instead of looking alive
// and dropping clicks, it says so, once, and disables every control.
//
//   linked(connected) ──▶ the model the view uses: its send dropped once disconnected, and a
//                         send that throws ──▶ link.lost() (the view's disconnect)
//   comm_live_update ──▶ probe: {type: 'ping', id} ──▶ a pong within PING_MS, or lost
//   disconnect(chat)  ──▶ the note (DISCONNECTED), every control disabled, the composer says why

import { h, uid } from "./dom.js";

/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./contract.js").PongMessage} PongMessage */

/** A view's link: whether the kernel-side half is gone, and what to do when it goes. @typedef {{disconnected: boolean, lost: () => void}} Link */

/**
 * The parts of a view that disconnect() changes.
 * @typedef {{
 *   link: {disconnected: boolean}, root: HTMLElement, thinking: HTMLElement, streamBox: HTMLElement,
 *   say: HTMLTextAreaElement,
 * }} Linked
 */

/** Milliseconds the kernel has to answer a ping before the view says it is not connected. */
export const PING_MS = 5000;

/** The text of the note a widget shows once its kernel-side half is gone. */
export const DISCONNECTED = "The kernel restarted, so this conversation is no longer connected: "
  + "run this cell again to carry on.";

/**
 * The model a view uses over the `connected` one: nothing is sent once the link is lost, and a
 * send that throws loses it (link.lost is set by the view, once it is drawn).
 * @param {Model} connected
 * @returns {{model: Model, link: Link}}
 */
export function linked(connected) {
  /** @type {Link} */
  const link = { disconnected: false, lost: () => {} };
  /** @type {Model} */
  const model = {
    ...connected,
    send: (...args) => {
      if (link.disconnected) return;
      try {
        connected.send(...args);
      } catch (error) {
        console.warn("dial-notebook: the kernel is not reachable", error);
        link.lost();
      }
    },
  };
  LINKED.set(model, connected);
  return { model, link };
}

/** Each view's model → the model it wraps. @type {WeakMap<Model, Model>} */
const LINKED = new WeakMap();

/**
 * The model a view's `model` wraps (`linked`), or `model` itself.
 * @param {Model} model
 * @returns {Model}
 */
export function connectedOf(model) {
  return LINKED.get(model) || model;
}

/**
 * Every control under `root` disabled.
 * @param {HTMLElement} root
 */
export function disableAll(root) {
  root.querySelectorAll("button, input, textarea, select").forEach((node) => {
    /** @type {HTMLButtonElement} */ (node).disabled = true;
  });
}

/**
 * The kernel-side half is gone: say so, once, and disable every control.
 * @param {Linked} chat
 */
export function disconnect(chat) {
  if (chat.link.disconnected) return;
  chat.link.disconnected = true;
  chat.root.classList.add("dial-disconnected");
  chat.root.setAttribute("data-dial-disconnected", "");
  chat.root.prepend(h("div", { className: "dial-disconnected-note", role: "alert" }, DISCONNECTED));
  disableAll(chat.root);
  chat.thinking.hidden = true;
  chat.streamBox.hidden = true;
  chat.say.placeholder = "Not connected: run this cell again.";
}

/**
 * ipywidgets marks every model not live when the kernel restarts or dies. The event does not
 * say which way it went, so the kernel is asked: no answer within PING_MS, not live.
 * @param {Model} connected  the model itself, whose events are listened to
 * @param {Model} model  the model whose send is dropped once disconnected
 * @param {{disconnected: boolean}} link
 * @param {() => void} lost
 * @returns {() => void} stop listening
 */
export function probe(connected, model, link, lost) {
  /** @type {{id: string, timer: ReturnType<typeof setTimeout>} | null} */
  let pinged = null;
  const ping = () => {
    if (link.disconnected || pinged) return;
    const id = uid("ping");
    pinged = { id, timer: setTimeout(lost, PING_MS) };
    model.send({ type: "ping", id });
  };
  const pong = (/** @type {PongMessage | undefined} */ message) => {
    if (message && message.type === "pong" && pinged && message.id === pinged.id) {
      clearTimeout(pinged.timer);
      pinged = null;
    }
  };
  connected.on("comm_live_update", ping);
  connected.on("msg:custom", pong);
  return () => {
    connected.off("comm_live_update", ping);
    connected.off("msg:custom", pong);
    if (pinged) clearTimeout(pinged.timer);
  };
}
