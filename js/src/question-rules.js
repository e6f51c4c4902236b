// @ts-check
// The questions panel's answer rules, pure (no DOM): when a question is answered, skipped or
// open; when the panel may be sent; what it sends (the spec's answer rules, spec/user-
// interaction.md). A confirm question (intent {kind: 'confirm', approve}) takes no Other text,
// and choosing any option but `approve` declines the batch alone: the other questions are then
// sent as skipped. Tested in node (js/test/questions.test.mjs, through questions.js).

/** @typedef {import("./contract.js").Question} Question */
/** @typedef {import("./contract.js").AnswerItem} AnswerItem */

/**
 * One question's answer so far: labels chosen, Other text (and, single-select, whether Other
 * is the choice), skipped.
 * @typedef {{selected: string[], other: string, otherOn: boolean, skipped: boolean}} QuestionDraft
 */

// ---- the answer rules (pure) ------------------------------------------------------------------

/**
 * A question's state in the panel: answered (labels or text), skipped, or still open.
 * @param {Question} question
 * @param {QuestionDraft} draft
 * @returns {'answered' | 'skipped' | 'open'}
 */
export function questionState(question, draft) {
  if (draft.skipped) return "skipped";
  if (isConfirm(question)) return draft.selected.length === 1 ? "answered" : "open"; // no Other
  const other = String(draft.other || "").trim();
  const options = question.options || [];
  if (!options.length) return other ? "answered" : "open";
  if (question.multi_select) return draft.selected.length || other ? "answered" : "open";
  if (draft.otherOn) return other ? "answered" : "open";
  return draft.selected.length === 1 ? "answered" : "open";
}

/**
 * Whether a question confirms the whole batch (a confirm intent naming one of its options).
 * @param {Question} question
 * @returns {boolean}
 */
export function isConfirm(question) {
  return Boolean(question.intent && question.intent.kind === "confirm" &&
    (question.options || []).some((o) => o.label === question.intent?.approve));
}

/**
 * The confirm questions whose answer declines the batch (an option other than `approve`).
 * @param {readonly Question[]} questions
 * @param {Map<string, QuestionDraft>} drafts
 * @returns {string[]}
 */
export function declinedBy(questions, drafts) {
  return questions.filter((question) => {
    const draft = drafts.get(question.id);
    return isConfirm(question) && draft && !draft.skipped && draft.selected.length > 0 &&
      draft.selected[0] !== question.intent?.approve;
  }).map((question) => question.id);
}

/**
 * Whether the panel may be sent: every question answered or skipped, or a confirm declined.
 * @param {readonly Question[]} questions
 * @param {Map<string, QuestionDraft>} drafts
 * @returns {boolean}
 */
export function readyToSend(questions, drafts) {
  if (declinedBy(questions, drafts).length) return true;
  return questions.every((question) => questionState(question, drafts.get(question.id) || newDraft()) !== "open");
}

/**
 * The answer items the panel sends, in the questions' order (the spec's answer rules); a
 * declined confirm sends itself alone, every other question as skipped.
 * @param {readonly Question[]} questions
 * @param {Map<string, QuestionDraft>} drafts
 * @returns {AnswerItem[]}
 */
export function answersOf(questions, drafts) {
  const declined = declinedBy(questions, drafts);
  return questions.map((question) => {
    const draft = drafts.get(question.id) || newDraft();
    if (declined.length && !declined.includes(question.id)) return { id: question.id, selected: [] };
    const other = String(draft.other || "").trim();
    const labels = (question.options || []).map((o) => o.label);
    if (draft.skipped) return { id: question.id, selected: [] };
    if (isConfirm(question)) return { id: question.id, selected: labels.filter((l) => draft.selected.includes(l)).slice(0, 1) };
    if (!labels.length || (!question.multi_select && draft.otherOn)) {
      return other ? { id: question.id, selected: [], custom: other } : { id: question.id, selected: [] };
    }
    const selected = labels.filter((label) => draft.selected.includes(label));
    /** @type {AnswerItem} */
    const item = { id: question.id, selected: question.multi_select ? selected : selected.slice(0, 1) };
    if (question.multi_select && other) item.custom = other;
    return item;
  });
}

/** @returns {QuestionDraft} A question's answer before the person did anything. */
export function newDraft() {
  return { selected: [], other: "", otherOn: false, skipped: false };
}

/**
 * @param {Question} question
 * @returns {question is Question & {intent: {kind: string, approve: string}}}
 */
export function isPlanReview(question) {
  return Boolean(question.intent && question.intent.kind === "plan-review" &&
    (question.options || []).some((o) => o.label === question.intent?.approve));
}
