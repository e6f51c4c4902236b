// @ts-check
// A <dial-ask> card: the agent's question, and while the kernel waits for its answer (pending
// kind 'answer'), the way to answer it by its response type — choice buttons, Yes / No (a
// confirm is always drawn as these two, whatever options the agent gave), a file, a number or
// text. An answer is sent once: {type: 'answer', token, value} or {…, file} with one buffer.
// Answering is never approval: the kernel still puts every card it gates before the person.

import { button, choiceText, h } from "./dom.js";
import { focusAfterDecision } from "./focus.js";
import { humanise, summarise, words } from "./text.js";

/** @typedef {import("./contract.js").AskOption} AskOption */
/** @typedef {import("./contract.js").AnswerMessage} AnswerMessage */
/** @typedef {import("./contract.js").AnswerPending} AnswerPending */
/** @typedef {import("./items.js").AskItem} AskItem */
/** @typedef {import("./state.js").ViewState} ViewState */

const MAX_UPLOAD = 50 * 1024 * 1024;

/**
 * How one pending card answers: send (once), or say why not.
 * @typedef {{
 *   send: (message: Omit<AnswerMessage, 'type' | 'token'>, buffers?: ArrayBuffer[]) => void,
 *   fail: (message: string) => void,
 * }} Answering
 */

/**
 * @param {ViewState} view
 * @param {AskItem} item
 */
export function askCard(view, item) {
  const event = item.event;
  const pending = item.pending;
  const type = String((pending && pending.response_type) || event.response_type || "text");
  const status = item.answer !== undefined ? "answered" : pending ? "pending" : "open";
  const card = h("section", {
    className: `dial-ask dial-ask-${type} dial-status-${status}`,
    "data-dial-ask": String(item.index), "data-dial-status": status,
    "aria-label": `Question: ${summarise(event.text, 80)}`,
  });
  card.append(h("div", { className: "dial-ask-text" }, String(event.text || "")));
  if (item.answer !== undefined) {
    card.append(answered(item, type));
    return card;
  }
  if (!pending) {
    card.append(h("div", { className: "dial-note" }, "Not answered — write below to answer."));
    return card;
  }
  const token = pending.token;
  const note = h("div", { className: "dial-local-error", role: "alert" });
  /** @type {Answering} */
  const answering = {
    send: (message, buffers) => {
      if (view.sending.has(token)) return;
      view.sending.add(token);
      view.model.send({ type: "answer", token, ...message }, undefined, buffers);
      card.querySelectorAll("button, input, textarea").forEach((n) => {
        /** @type {HTMLButtonElement} */ (n).disabled = true;
      });
      focusAfterDecision(card);
    },
    fail: (message) => { note.textContent = message; },
  };
  const options = pending.options || [];
  if (type === "choice") {
    const group = h("div", { className: "dial-options dial-choices", role: "group", "aria-label": "Options" });
    for (const option of options) group.append(choiceButton(option, () => answering.send({ value: option.value })));
    card.append(group);
  } else if (type === "confirm") {
    card.append(h("div", { className: "dial-options", role: "group", "aria-label": "Yes or no" },
      h("button", { type: "button", className: "dial-option dial-option-default", "data-dial-option": "yes", onClick: () => answering.send({ value: "yes" }) }, "Yes"),
      h("button", { type: "button", className: "dial-option", "data-dial-option": "no", onClick: () => answering.send({ value: "no" }) }, "No")));
  } else if (type === "file") {
    card.append(fileRow(answering));
  } else {
    card.append(textRow(view, item, type === "number", answering));
  }
  card.append(note);
  return card;
}

/**
 * "You: …" under an answered question: the chosen option's label, Yes / No, or the text.
 * @param {AskItem} item
 * @param {string} type
 */
function answered(item, type) {
  const chosen = type === "confirm" ? null : (item.event.options || []).find((o) => o && String(o.value) === String(item.answer));
  const shown = chosen && chosen.label ? String(chosen.label)
    : type === "confirm" && /^(yes|no)$/i.test(String(item.answer)) ? humanise(String(item.answer).toLowerCase()) : String(item.answer);
  return h("div", { className: "dial-answered" }, h("span", { className: "dial-you" }, words("answered-by")), shown);
}

/**
 * A <dial-ask> option as a button with the panel's row look: a click answers at once.
 * @param {AskOption} option
 * @param {() => void} onClick
 */
function choiceButton(option, onClick) {
  const label = option.label || option.value;
  return h("button", {
    type: "button", className: `dial-option dial-choice${option.default ? " dial-option-default" : ""}`,
    "data-dial-option": option.value, "aria-pressed": option.default ? "true" : "false",
    disabled: option.disabled, "aria-disabled": option.disabled ? "true" : undefined, onClick,
  }, h("span", { className: "dial-choice-mark", "aria-hidden": "true" }),
  choiceText(label, option.label && String(option.value).toLowerCase() !== String(option.label).toLowerCase()
    ? option.value : null));
}

/**
 * A file chooser and Send file (50 MB at most); the file travels as the message's buffer.
 * @param {Answering} answering
 */
function fileRow({ send, fail }) {
  const input = h("input", { type: "file", className: "dial-input", "data-dial-field": "answer", "aria-label": "File to send" });
  const submit = () => {
    const file = input.files && input.files[0];
    if (!file) return fail("Choose a file first.");
    if (file.size > MAX_UPLOAD) return fail("That file is too large (50 MB at most).");
    file.arrayBuffer().then((data) => send({ file: { name: file.name, size: file.size, type: file.type } }, [data]));
  };
  return h("div", { className: "dial-answer-row" }, input,
    button("Send file", "answer", submit, { kind: "dial-primary", aria: "Send the file" }));
}

/**
 * A text (or number) answer; what is typed survives a redraw; Enter answers.
 * @param {ViewState} view
 * @param {AskItem} item
 * @param {boolean} number
 * @param {Answering} answering
 */
function textRow(view, item, number, { send, fail }) {
  const input = h("input", {
    type: "text", className: `dial-input${number ? " dial-input-number" : ""}`, "data-dial-field": "answer",
    inputmode: number ? "decimal" : undefined, "aria-label": number ? "Your answer (a number)" : "Your answer",
    placeholder: number ? "A number" : "Your answer",
  });
  input.value = view.askDrafts.get(item.index) ?? "";
  input.addEventListener("input", () => view.askDrafts.set(item.index, input.value));
  const submit = () => {
    const text = input.value.trim();
    if (!text) return fail("Type an answer first — the question stays open until you do.");
    if (number && !Number.isFinite(Number(text))) return fail("Enter a number, like 42 or 3.5.");
    send({ value: text });
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      submit();
    }
  });
  return h("div", { className: "dial-answer-row" }, input,
    button("Answer", "answer", submit, { kind: "dial-primary", aria: "Send your answer" }));
}
