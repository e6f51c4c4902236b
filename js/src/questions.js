// @ts-check
// ask_user's questions panel: the chat widget as the provider of dial_notebook.interaction
// (widget/_questions.py). Every question of one request in one panel, answered with one message:
//
//   trait questions = {token, questions: [{id, question, detail, header, options,
//                      multi_select, intent}]}            ({} when none waits)
//   trait provider_note: why questions do not show here ('' when this widget is the provider)
//   message out {type: 'questions', token, answers: [{id, selected: [labels], custom?}]}
//
// A skipped question answers with no label and no custom text. A single plan-review question
// is answered by its Approve / Decline buttons at once. A confirm question (intent
// {kind: 'confirm', approve}) offers its options only, no Other text; choosing any option but
// `approve` declines the whole batch: Submit is ready at once, and the other questions are sent
// as skipped (what was typed in them never leaves the panel). The rules themselves, pure, are in
// question-rules.js. Detail text is markdown-lite. Option rows share their look (.dial-choice)
// with the <dial-ask> choice card.

import { button, choiceText, h, uid } from "./dom.js";
import { focusAfterDecision } from "./focus.js";
import { markdownNodes } from "./markdown.js";
import { answersOf, declinedBy, isConfirm, isPlanReview, newDraft, questionState } from "./question-rules.js";
import { STATUS_LABEL, summarise } from "./text.js";

/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./contract.js").Question} Question */
/** @typedef {import("./contract.js").QuestionsRequest} QuestionsRequest */

/** @typedef {import("./question-rules.js").QuestionDraft} QuestionDraft */

export { answersOf, declinedBy, isConfirm, questionState, readyToSend } from "./question-rules.js";

// ---- the panel ----------------------------------------------------------------------------------

/**
 * The slot after the log, and what it remembers across updates.
 * @typedef {{
 *   model: Model, slot: HTMLElement,
 *   drafts: Map<string, Map<string, QuestionDraft>>,
 *   sent: Set<string>,
 *   shown: {token: string, node: HTMLElement} | null,
 * }} Slot
 */

/**
 * One request's panel while it is shown.
 * @typedef {{
 *   token: string, questions: Question[], state: Map<string, QuestionDraft>, sent: Set<string>,
 *   box: HTMLElement, submit: HTMLButtonElement, progress: HTMLElement, plan: boolean,
 *   model: Model,
 * }} Panel
 */

/**
 * The panel and the provider note, placed right after the conversation log.
 * @param {Model} model
 * @param {HTMLElement} log
 */
export function mountQuestions(model, log) {
  /** @type {Slot} */
  const slot = { model, slot: h("div", { className: "dial-questions-slot" }), drafts: new Map(), sent: new Set(), shown: null };
  log.after(slot.slot);
  const onChange = () => updateSlot(slot);
  model.on("change:questions", onChange);
  model.on("change:provider_note", onChange);
  onChange();
  return {
    dispose() {
      model.off("change:questions", onChange);
      model.off("change:provider_note", onChange);
      slot.slot.remove();
    },
  };
}

/** @param {Slot} s */
function updateSlot(s) {
  const note = String(s.model.get("provider_note") || "");
  const request = /** @type {Partial<QuestionsRequest>} */ (s.model.get("questions") || {});
  const token = typeof request.token === "string" ? request.token : null;
  let noteNode = s.slot.querySelector(":scope > .dial-provider-note");
  if (note) {
    if (!noteNode) {
      noteNode = h("div", { className: "dial-provider-note", role: "note", "data-dial-provider-note": "" });
      s.slot.prepend(noteNode);
    }
    noteNode.textContent = note;
  } else if (noteNode) noteNode.remove();
  if (s.shown && s.shown.token === token) return; // same request: keep what the person did
  if (s.shown) s.shown.node.remove();
  s.shown = null;
  for (const key of [...s.drafts.keys()]) if (key !== token) s.drafts.delete(key);
  if (token && Array.isArray(request.questions) && request.questions.length) {
    s.shown = { token, node: panel(s, token, request.questions) };
    s.slot.append(s.shown.node);
  }
}

/**
 * @param {Slot} s
 * @param {string} token
 * @param {Question[]} questions
 */
function panel(s, token, questions) {
  if (!s.drafts.has(token)) s.drafts.set(token, new Map(questions.map((q) => [q.id, newDraft()])));
  const state = /** @type {Map<string, QuestionDraft>} */ (s.drafts.get(token));
  const plan = questions.length === 1 && isPlanReview(questions[0]);
  const box = h("section", {
    className: `dial-ask dial-questions${plan ? " dial-questions-plan" : ""}`,
    "data-dial-questions": token, "aria-label": plan ? "A plan for your review" : "Questions for you",
  });
  box.append(h("div", { className: "dial-card-head" },
    h("span", { className: "dial-action-name" }, plan ? "plan review" : questions.length === 1 ? "question" : `${questions.length} questions`),
    h("span", { className: "dial-chip dial-chip-pending" }, STATUS_LABEL.pending)));
  const progress = h("span", { className: "dial-hint dial-questions-progress", "aria-live": "polite" });
  const submit = button("Submit", "submit-questions", () => send(p), { kind: "dial-primary", aria: "Submit your answers" });
  /** @type {Panel} */
  const p = { token, questions, state, sent: s.sent, box, submit, progress, plan, model: s.model };
  for (const question of questions) {
    box.append(questionNode(p, question, /** @type {QuestionDraft} */ (state.get(question.id))));
  }
  if (!plan) box.append(h("div", { className: "dial-buttons dial-questions-foot" }, submit, progress));
  refreshPanel(p);
  return box;
}

/**
 * Each question's state, Skip / Undo skip, what is enabled, and Submit; true when every
 * question is answered or skipped, or a confirm declines the batch.
 * @param {Panel} p
 */
function refreshPanel(p) {
  let done = 0;
  const closed = p.sent.has(p.token);
  const declined = declinedBy(p.questions, p.state).length > 0;
  p.box.toggleAttribute("data-dial-declined", declined);
  for (const question of p.questions) {
    const draft = /** @type {QuestionDraft} */ (p.state.get(question.id));
    const status = questionState(question, draft);
    if (status !== "open") done += 1;
    const node = p.box.querySelector(`[data-dial-question="${CSS.escape(question.id)}"]`);
    if (!node) continue;
    node.setAttribute("data-dial-state", status);
    node.classList.toggle("dial-question-skipped", status === "skipped");
    const skip = node.querySelector("[data-dial-action=skip-question]");
    if (skip) {
      skip.textContent = draft.skipped ? "Undo skip" : "Skip";
      skip.setAttribute("aria-pressed", String(draft.skipped));
    }
    node.querySelectorAll(".dial-choice-input, [data-dial-field=other]").forEach((input) => {
      /** @type {HTMLInputElement} */ (input).disabled = draft.skipped || closed;
    });
    node.querySelectorAll("[data-dial-action=approve-plan], [data-dial-action=decline-plan]").forEach((b) => {
      b.setAttribute("aria-pressed", String(!draft.otherOn && draft.selected.includes(/** @type {string} */ (b.getAttribute("data-dial-choice")))));
      /** @type {HTMLButtonElement} */ (b).disabled = draft.skipped || closed;
    });
  }
  const complete = declined || done === p.questions.length;
  p.submit.disabled = !complete || closed;
  p.progress.textContent = declined ? "Ready to submit: declined, the other answers are not sent"
    : complete ? "Ready to submit" : `${done} of ${p.questions.length} answered or skipped`;
  return complete;
}

/**
 * Send the answers once, when every question is answered or skipped; then the panel is closed.
 * @param {Panel} p
 */
function send(p) {
  if (p.sent.has(p.token) || !refreshPanel(p)) return;
  p.sent.add(p.token);
  p.model.send({ type: "questions", token: p.token, answers: answersOf(p.questions, p.state) });
  p.box.classList.add("dial-questions-sent");
  p.box.querySelectorAll("button, input, textarea").forEach((n) => {
    /** @type {HTMLButtonElement} */ (n).disabled = true;
  });
  focusAfterDecision(p.box);
}

/**
 * One question: header, Skip, text, detail, then its options (or plan buttons) and Other.
 * @param {Panel} p
 * @param {Question} question
 * @param {QuestionDraft} draft
 */
function questionNode(p, question, draft) {
  const reviewing = isPlanReview(question);
  const name = uid("q"); // the radio group's name
  const node = h("fieldset", { className: `dial-question${reviewing ? " dial-question-plan" : ""}`, "data-dial-question": question.id });
  const legendId = uid("ql");
  node.setAttribute("aria-labelledby", legendId);
  node.append(h("div", { className: "dial-question-top" },
    question.header ? h("span", { className: "dial-question-header" }, String(question.header)) : null,
    p.plan ? null : h("button", {
      type: "button", className: "dial-button dial-link dial-question-skip", "data-dial-action": "skip-question",
      "aria-label": `Skip: ${summarise(question.question, 60)}`,
      onClick: () => {
        draft.skipped = !draft.skipped;
        refreshPanel(p);
      },
    }, "Skip")));
  node.append(h("div", { className: "dial-question-text", id: legendId }, String(question.question)));
  if (question.detail) {
    node.append(h("div", { className: reviewing ? "dial-plan" : "dial-question-detail", "data-dial-detail": "" },
      markdownNodes(question.detail)));
  }
  const other = isConfirm(question) ? null : otherInput(p, question, draft, node, reviewing);
  const options = question.options || [];
  if (!other) {
    node.append(choiceGroup(p, question, draft, null, { name, legendId })); // no Other: a yes/no
  } else if (reviewing) {
    node.append(planButtons(p, question, draft));
    if (!p.plan) node.append(h("div", { className: "dial-other-row" }, other));
  } else if (options.length) {
    node.append(choiceGroup(p, question, draft, other, { name, legendId }));
  } else {
    node.append(h("div", { className: "dial-other-row" }, other));
  }
  return node;
}

/**
 * The Other (or only) answer field; typing in it chooses Other on a single-select question,
 * Enter submits.
 * @param {Panel} p
 * @param {Question} question
 * @param {QuestionDraft} draft
 * @param {HTMLElement} node
 * @param {boolean} reviewing
 */
function otherInput(p, question, draft, node, reviewing) {
  const options = question.options || [];
  const input = h("input", {
    type: "text", className: "dial-input dial-other-input", "data-dial-field": "other",
    placeholder: options.length ? (reviewing ? "Or tell the agent what to change…" : "Type another answer…") : "Your answer",
    "aria-label": options.length ? `Other answer to: ${summarise(question.question, 60)}` : `Answer to: ${summarise(question.question, 60)}`,
  });
  input.value = draft.other;
  input.addEventListener("input", () => {
    draft.other = input.value;
    if (!question.multi_select && options.length && draft.other.trim()) {
      draft.otherOn = true;
      const radio = /** @type {HTMLInputElement | null} */ (node.querySelector("[data-dial-choice-other] .dial-choice-input"));
      if (radio) radio.checked = true;
    }
    refreshPanel(p);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      send(p);
    }
  });
  return input;
}

/**
 * A plan review's buttons: Approve (primary) and the others; alone in the panel, a click sends.
 * @param {Panel} p
 * @param {Question & {intent: {kind: string, approve: string}}} question
 * @param {QuestionDraft} draft
 */
function planButtons(p, question, draft) {
  const approve = question.intent.approve;
  const choose = (/** @type {string} */ label) => {
    draft.selected = [label];
    draft.otherOn = false;
    draft.skipped = false;
    if (refreshPanel(p) && p.plan) send(p);
  };
  return h("div", { className: "dial-buttons dial-plan-buttons" },
    (question.options || []).map((option) => {
      const yes = option.label === approve;
      return h("button", {
        type: "button", className: `dial-button${yes ? " dial-primary" : ""}`,
        "data-dial-action": yes ? "approve-plan" : "decline-plan", "data-dial-choice": option.label,
        title: option.description || undefined,
        onClick: () => choose(option.label),
      }, option.label);
    }));
}

/**
 * The options as radio buttons (single-select, with an Other radio unless `other` is null) or
 * checkboxes (multi).
 * @param {Panel} p
 * @param {Question} question
 * @param {QuestionDraft} draft
 * @param {HTMLInputElement | null} other
 * @param {{name: string, legendId: string}} ids
 */
function choiceGroup(p, question, draft, other, { name, legendId }) {
  const multi = Boolean(question.multi_select);
  const options = question.options || [];
  const group = h("div", { className: "dial-choices", role: multi ? "group" : "radiogroup", "aria-labelledby": legendId });
  for (const option of options) {
    const input = h("input", {
      type: multi ? "checkbox" : "radio", name, className: "dial-choice-input",
      checked: draft.selected.includes(option.label) && !(draft.otherOn && !multi),
    });
    input.addEventListener("change", () => {
      if (multi) {
        draft.selected = options.map((o) => o.label).filter((l) => (l === option.label ? input.checked : draft.selected.includes(l)));
      } else if (input.checked) {
        draft.selected = [option.label];
        draft.otherOn = false;
      }
      refreshPanel(p);
    });
    group.append(h("label", { className: "dial-choice", "data-dial-choice": option.label }, input,
      choiceText(option.label, option.description)));
  }
  if (!other) return group;
  if (multi) {
    group.append(h("label", { className: "dial-choice dial-choice-other dial-choice-other-multi" },
      h("span", { className: "dial-choice-label" }, "Other"), other));
    return group;
  }
  const radio = h("input", { type: "radio", name, className: "dial-choice-input", checked: draft.otherOn, "aria-label": "Other" });
  radio.addEventListener("change", () => {
    if (!radio.checked) return;
    draft.otherOn = true;
    draft.selected = [];
    other.focus();
    refreshPanel(p);
  });
  group.append(h("label", { className: "dial-choice dial-choice-other", "data-dial-choice-other": "" },
    radio, h("span", { className: "dial-choice-label" }, "Other"), other));
  return group;
}
