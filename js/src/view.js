// @ts-check
// The view: the widget's frame (header, context panel, log, the reply being streamed, words
// queued, the thinking line, the composer with Send and Stop, the footer: all the code, the
// rules and their panel, usage), redrawn from the model's traits at most once per microtask;
// and the link to the kernel, which says so (and disables every control) once the kernel-side
// half is gone.
//
//   change:transcript | pending | thinking | running | schemas | title | queued | usage | code
//          | undoable | rules ──▶ update()
//   progress message ──▶ drawStream(): only the streamed bubble changes, nothing else redraws
//   run-started message, Accept clicked ──▶ update(): the card says Running… (run-progress.js)
//   dry-run message  ──▶ a card's "What it will do" alone is redrawn (review.js)
//   rule-draft / allow message ──▶ a card's rule editor (rules.js)
//   a card's "Accepted by rule r1" ──▶ view.showRule: the rules panel opened at r1 (rules-panel.js)
//   an appended reply / no-reply / stopped / error ──▶ the bubble goes (the log shows the reply)
//   comm_live_update ──▶ {type: 'ping', id} ──▶ a pong within PING_MS, or disconnect()  (link.js)
//   a send that throws ──▶ disconnect()
//
// What a screen reader hears: the log is not live (its entries are redrawn in place); the
// announcer (announce.js) says each change once, and the thinking line and the queued words
// change their text only when it changes.
//
// Nothing here decides a rule of the conversation: the kernel says what is pending, what ran
// and what the agent is doing; the view draws it and sends the person's clicks.

import { markArriving } from "./arriving.js";
import { agentSignal, contextOf, itemsOf } from "./items.js";
import { button, h, redrawOnChange } from "./dom.js";
import { CARD_ITEMS } from "./inform.js";
import { ENDS_STREAM, streamed } from "./live.js";
import { announcer } from "./announce.js";
import { followAgain, followBottom, follows, pinToBottom } from "./bottom.js";
import { disableAll, disconnect, linked, probe } from "./link.js";
import { drawLog, refreshItem } from "./log.js";
import { mountQuestions } from "./questions.js";
import { drawAllCode, listenForDryRuns } from "./review.js";
import { listenForRules } from "./rules.js";
import { listenForRuns, runningIds } from "./run-progress.js";
import { rulesArea, untrustedOf } from "./rules-panel.js";
import { viewState } from "./state.js";
import { summarise } from "./text.js";

/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").AppendMessage} AppendMessage */
/** @typedef {import("./contract.js").ProgressMessage} ProgressMessage */
/** @typedef {import("./live.js").Stream} Stream */
/** @typedef {import("./state.js").ViewState} ViewState */

/** The root's attribute while its log shows something (markFilled). */
export const FILLED = "data-dial-filled";

const TRAITS = ["change:transcript", "change:pending", "change:thinking", "change:running", "change:schemas", "change:title",
  "change:queued", "change:usage", "change:code", "change:undoable", "change:rules", "change:untrusted"];

/**
 * The frame of one view and what it remembers.
 * @typedef {{
 *   view: ViewState, link: {disconnected: boolean}, root: HTMLElement, header: HTMLElement,
 *   log: HTMLElement, announcer: ReturnType<typeof announcer>, thinking: HTMLElement, thinkingText: HTMLElement,
 *   contextPanel: HTMLElement, context: {sig: string, open: boolean},
 *   say: HTMLTextAreaElement, send: HTMLButtonElement | null, queuedBox: HTMLElement, stop: HTMLButtonElement,
 *   streamBox: HTMLElement, stream: Stream | null, footer: HTMLElement, usage: HTMLElement,
 *   allCode: HTMLElement, rules: ReturnType<typeof rulesArea>, seen: number,
 * }} Chat
 */

/**
 * anywidget's render: draw the conversation in `el`; the returned function cleans up.
 * @param {{model: Model, el: HTMLElement}} props
 */
export function render({ model: connected, el }) {
  // Once the kernel restarts (or the page outlives its kernel) the comm is dead: say so,
  // and disable every control, instead of a widget that looks alive and drops clicks.
  const { model, link } = linked(connected);
  const chat = frame(viewState(model, refreshItem), link);
  link.lost = () => disconnect(chat);
  el.append(chat.root);
  const questionsPanel = mountQuestions(model, chat.log); // ask_user's panel, after the log
  const stopProbing = probe(connected, model, link, () => disconnect(chat));
  const stopStreaming = listenForStream(connected, chat);
  const stopDryRuns = listenForDryRuns(connected, chat.view);
  const stopRules = listenForRules(connected, chat.view);
  const stopRuns = listenForRuns(model, () => update(chat)); // a run started: its card says so
  const stopRedrawing = redrawOnChange(model, TRAITS, () => update(chat));
  const stopArriving = markArriving(connected, chat.root); // the copy after it waits (chat.css)
  const stopFollowing = followBottom(chat.log); // at its end, unless the person scrolled away
  update(chat);
  return () => {
    stopArriving();
    stopFollowing();
    stopRedrawing();
    stopProbing();
    stopStreaming();
    stopDryRuns();
    stopRules();
    stopRuns();
    questionsPanel.dispose();
  };
}

/**
 * The widget's frame, empty, with its composer wired.
 * @param {ViewState} view
 * @param {{disconnected: boolean}} link
 * @returns {Chat}
 */
function frame(view, link) {
  // data-lm-suppress-shortcuts: JupyterLab's own keys (Shift+Enter runs the cell, a / b / d /
  // m in command mode) never fire for keys typed into the widget; nor does anything else
  // outside it hear them (the keydown stops at the widget's root, below).
  const root = h("div", { className: "dial-chat", "data-dial-root": "", "data-lm-suppress-shortcuts": "true" });
  root.addEventListener("keydown", (event) => event.stopPropagation());
  const thinkingText = h("span", {}, "Thinking…");
  const stop = /** @type {HTMLButtonElement} */ (button("Stop", "stop", () => {
    view.model.send({ type: "stop" });
    stop.disabled = true; // until the say has ended (update() shows it again for the next)
  }, { aria: "Stop the agent's answer" }));
  /** @type {Chat} */
  const chat = {
    view, link, root, thinkingText, stop, stream: null, seen: 0,
    header: h("div", { className: "dial-header" }),
    // not live itself: its entries are redrawn in place as they change; `announcer` says each
    // change once (a new entry, a card's new status)
    // focusable: a keyboard scrolls it (axe: scrollable-region-focusable)
    log: h("div", { className: "dial-log", role: "log", "aria-live": "off", "aria-label": "Conversation", tabindex: 0 }),
    announcer: announcer(),
    thinking: h("div", { className: "dial-thinking", role: "status" },
      h("span", { className: "dial-dots", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
      thinkingText),
    // not <details>: agent text never becomes one, and tests check that no <details> exists
    contextPanel: h("div", { className: "dial-context", "data-dial-context": "" }),
    context: { sig: "", open: false },
    say: h("textarea", {
      className: "dial-input dial-say", rows: "1", "data-dial-field": "say",
      "aria-label": "Message to the agent",
    }),
    send: null, // Send, made with the composer
    queuedBox: h("div", { className: "dial-queued", "data-dial-queued": "", "aria-live": "polite" }),
    // the reply being written: its prose so far and what it is writing, never raw markup
    streamBox: h("div", { className: "dial-streaming", "data-dial-streaming": "", "aria-busy": "true" }),
    footer: h("div", { className: "dial-footer" }),
    usage: h("div", { className: "dial-usage", "data-dial-usage": "" }),
    // every accepted step's code, one script (the `code` trait)
    allCode: h("div", { className: "dial-all-code", "data-dial-all-code": "" }),
    // the rules "Always allow like this…" made: "Rules (N)" over their panel
    rules: rulesArea(view),
  };
  view.showRule = (id) => chat.rules.show(id);
  chat.footer.append(chat.allCode, chat.rules.toggle, chat.usage, chat.rules.panel);
  chat.streamBox.hidden = true;
  root.append(chat.header, chat.announcer.node, chat.contextPanel, chat.log, chat.streamBox, chat.queuedBox, chat.thinking,
    chat.rules.notice, composer(chat), chat.footer);
  return chat;
}

/**
 * The message box and Send: Enter sends (Shift+Enter is a new line), the box grows to 160px.
 * @param {Chat} chat
 */
function composer(chat) {
  const { view, say, stop } = chat;
  const autosize = () => {
    say.style.height = "auto";
    say.style.height = `${Math.min(say.scrollHeight, 160)}px`;
  };
  const sendSay = () => {
    const text = say.value;
    if (!text.trim()) {
      say.focus();
      return;
    }
    view.model.send({ type: "say", text });
    say.value = "";
    autosize();
    followAgain(chat.log); // their words, and the reply, in view
  };
  const sayButton = /** @type {HTMLButtonElement} */ (button("Send", "say", () => sendSay(), { kind: "dial-primary", aria: "Send message" }));
  chat.send = sayButton;
  say.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      sendSay();
    }
  });
  say.addEventListener("input", autosize);
  stop.classList.add("dial-stop");
  stop.hidden = true;
  return h("div", { className: "dial-composer" }, say, sayButton, stop);
}

/**
 * The reply being streamed: each progress message redraws the bubble (and nothing else); the
 * reply's own events, once appended, take its place.
 * @param {Model} connected
 * @param {Chat} chat
 * @returns {() => void} stop listening
 */
function listenForStream(connected, chat) {
  const onMessage = (/** @type {{type?: string} | undefined} */ message) => {
    if (!message) return;
    if (message.type === "progress") {
      chat.stream = streamed(chat.stream, /** @type {ProgressMessage} */ (message));
      drawStream(chat);
    } else if (message.type === "append" && chat.stream) {
      const events = /** @type {AppendMessage} */ (message).events;
      if (Array.isArray(events) && events.some((event) => event && ENDS_STREAM.has(event.type))) {
        chat.stream = null;
        drawStream(chat);
      }
    }
  };
  connected.on("msg:custom", onMessage);
  return () => connected.off("msg:custom", onMessage);
}

/**
 * The streamed bubble, from `chat.stream`: the prose as text, then what the agent is writing
 * ("Proposing: add-note…"); the thinking line stands in while neither has come.
 * @param {Chat} chat
 */
function drawStream(chat) {
  const { streamBox, stream, log } = chat;
  const nearBottom = follows(log);
  const shown = Boolean(stream && (stream.prose || stream.writing) && !chat.link.disconnected);
  streamBox.hidden = !shown;
  chat.thinking.hidden = shown || !chat.view.model.get("thinking");
  if (!shown || !stream) {
    streamBox.replaceChildren();
    return;
  }
  const writing = stream.writing
    ? h("div", { className: "dial-writing", "data-dial-writing": "" },
      h("span", { className: "dial-dots", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
      h("span", {}, `${capitalised(summarise(stream.writing, 80))}…`))
    : null;
  streamBox.replaceChildren(
    ...(stream.prose ? [h("div", { className: "dial-prose" }, stream.prose)] : []),
    ...(writing ? [writing] : []));
  if (nearBottom) pinToBottom(log);
}

/** @param {string} text */
function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * The footer: all the code (review.js), the rules (rules-panel.js), and how many replies and
 * tokens the agent reported (each hidden until there is some).
 * @param {Chat} chat
 */
function drawFooter(chat) {
  drawAllCode(chat.view, chat.allCode);
  chat.rules.draw(chat.view.model.get("transcript") || []);
  const usage = /** @type {Partial<import("./contract.js").Usage>} */ (chat.view.model.get("usage") || {});
  const total = Number(usage.total);
  chat.usage.hidden = !(total > 0);
  chat.footer.hidden = chat.usage.hidden && chat.allCode.hidden && chat.rules.toggle.hidden;
  if (chat.usage.hidden) return;
  const turns = Number(usage.turns) || 0;
  const parts = [`${turns.toLocaleString("en-US")} ${turns === 1 ? "reply" : "replies"}`,
    `${total.toLocaleString("en-US")} tokens`];
  if (Number.isFinite(usage.input) && Number.isFinite(usage.output)) {
    parts.push(`${Number(usage.input).toLocaleString("en-US")} in · ${Number(usage.output).toLocaleString("en-US")} out`);
  }
  chat.usage.textContent = parts.join(" · ");
}

/**
 * The root says whether its log shows anything (`data-dial-filled`): chat.css hides the static
 * copy after the widget then. An attribute of the root, not `:has(.dial-log > *)`, which made
 * the page look through the whole copy (thousands of nodes) again at each entry added.
 * @param {HTMLElement} root
 * @param {HTMLElement} log
 */
function markFilled(root, log) {
  const filled = log.children.length > 0;
  if (root.hasAttribute(FILLED) === filled) return;
  if (filled) root.setAttribute(FILLED, "");
  else root.removeAttribute(FILLED);
}

/**
 * Everything drawn from the traits, now.
 * @param {Chat} chat
 */
function update(chat) {
  const { view, log, root } = chat;
  const { model } = view;
  const title = String(model.get("title") || "DIAL conversation");
  if (chat.header.lastChild?.textContent !== title) { // redrawn only when it changes
    chat.header.replaceChildren(h("span", { className: "dial-logo", "aria-hidden": "true" }, "◆"),
      h("span", { className: "dial-title" }, title));
  }
  const pending = /** @type {Partial<import("./contract.js").Pending>} */ (model.get("pending") || {});
  const transcript = model.get("transcript") || [];
  const nearBottom = follows(log);
  if (transcript.length !== chat.seen) {
    chat.seen = transcript.length;
    view.undoing.clear(); // an Undo clicked has been answered (or something else happened)
  }
  drawLog(view, log, itemsOf(transcript, pending, runningIds(model, pending)));
  markFilled(root, log);
  chat.announcer.update(view.nodes);
  for (const token of [...view.sending]) if (token !== pending.token) view.sending.delete(token);
  const signal = model.get("running") ? agentSignal(transcript) : null;
  if (!model.get("running") && chat.stream) {
    chat.stream = null; // the say ended (stopped, failed): nothing is being written
    drawStream(chat);
  }
  const streaming = !chat.streamBox.hidden;
  chat.thinking.hidden = streaming || (!model.get("thinking") && !signal);
  chat.thinking.dataset.dialSignal = model.get("thinking") ? "thinking" : signal || "";
  // a live region: its text is set only when it changes (empty while hidden), so each spell of
  // thinking is said once
  const thinkingSays = chat.thinking.hidden ? ""
    : !model.get("thinking") && signal === "typing" ? "Typing…" : "Thinking…";
  if (chat.thinkingText.textContent !== thinkingSays) chat.thinkingText.textContent = thinkingSays;
  updateContext(chat, contextOf(transcript));
  const queued = Array.isArray(model.get("queued")) ? /** @type {string[]} */ (model.get("queued")) : [];
  if (chat.queuedBox.dataset.dialSaid !== JSON.stringify(queued)) chat.queuedBox.replaceChildren(...queued.map((text) => h("div", { className: "dial-person dial-person-queued" },
    h("div", { className: "dial-bubble" }, String(text)),
    h("div", { className: "dial-queued-note" }, "Sent when the agent has finished answering"))));
  chat.queuedBox.dataset.dialSaid = JSON.stringify(queued); // a live region: redrawn only when it changes
  chat.queuedBox.hidden = queued.length === 0;
  // read-only (a session file this person did not make): what is typed would only be refused
  const readOnly = untrustedOf(model) !== null;
  chat.say.disabled = readOnly;
  if (chat.send) chat.send.disabled = readOnly;
  chat.say.placeholder = readOnly ? "Read-only: Trust this file (above) to write to the agent"
    : pending.kind === "decide" ? "Write instead of deciding (the card will be superseded)…"
    : pending.kind === "answer" ? "Answer the question, or write a message…" : "Message the agent…";
  root.classList.toggle("dial-running", Boolean(model.get("running")));
  chat.stop.hidden = !model.get("running");
  if (!model.get("running")) chat.stop.disabled = false;
  drawFooter(chat);
  if (chat.link.disconnected) disableAll(root);
  if (nearBottom) pinToBottom(log);
}

/**
 * The small "context" panel: what the agent declared, by key (hidden when nothing is).
 * @param {Chat} chat
 * @param {[string, Json][]} entries
 */
function updateContext(chat, entries) {
  const { context, contextPanel } = chat;
  const sig = JSON.stringify(entries);
  if (sig === context.sig) return;
  context.sig = sig;
  contextPanel.hidden = entries.length === 0;
  const list = h("dl", { className: "dial-context-list" });
  list.hidden = !context.open;
  for (const [key, value] of entries.slice(0, CARD_ITEMS)) {
    list.append(h("dt", { className: "dial-mono" }, key),
      h("dd", { "data-dial-context-key": key }, summarise(value)));
  }
  const toggle = h("button", {
    type: "button", className: "dial-context-toggle", "data-dial-action": "context",
    "aria-expanded": String(context.open),
    onClick: () => {
      context.open = !context.open;
      list.hidden = !context.open;
      toggle.setAttribute("aria-expanded", String(context.open));
    },
  }, `Context (${entries.length})`);
  contextPanel.replaceChildren(toggle, list);
}
