// @ts-check
// The kernel's answers to the rule editor (rules-state.js sends the questions): the check of a
// draft schema, kept only by the open editor whose token it is and whose schema is that very
// one; and the answer to Save, which closes the editor (the kernel resolves the card) or says
// why the rule was not saved.
//
//   {type: 'rule-draft', token, schema, error, matches, total, card} ──▶ ruleDraftAnswered:
//                 the live check, for that very schema only (an answer for another schema or
//                 token is dropped)
//   {type: 'allow', token, rule, error} ──▶ allowAnswered: the error in the editor (Save works
//                 again), or the editor closed: pending clears, the outcome comes with `rule`;
//                 a rule this card does not match is said on the card

import { canonical } from "./review-shapes.js";
import { focusAfterDecision } from "./focus.js";

/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./contract.js").RuleDraftResultMessage} RuleDraftResultMessage */
/** @typedef {import("./contract.js").AllowResultMessage} AllowResultMessage */
/** @typedef {import("./state.js").ViewState} ViewState */

/**
 * The kernel's check of a schema: kept by the open editor whose token it is and whose schema
 * now is that very one (compared as canonical JSON); any other answer is dropped.
 * @param {ViewState} view
 * @param {RuleDraftResultMessage} message
 * @returns {boolean} whether an editor took it
 */
export function ruleDraftAnswered(view, message) {
  if (!message || typeof message !== "object") return false;
  const token = String(message.token);
  const sig = canonical(message.schema);
  for (const rule of view.rules.values()) {
    if (!rule.open || rule.token !== token || rule.sig === null || rule.sig !== sig) continue;
    rule.answer = {
      type: "rule-draft", token, schema: message.schema,
      error: typeof message.error === "string" && message.error.trim() ? message.error : null,
      matches: Array.isArray(message.matches)
        ? message.matches.filter((m) => m && typeof m === "object").slice(0, 20) : [],
      total: Number.isFinite(Number(message.total)) ? Number(message.total) : 0,
      card: message.card !== false,
    };
    if (rule.timer) clearTimeout(rule.timer);
    rule.timer = null;
    rule.sync?.();
    return true;
  }
  return false;
}

/**
 * The kernel's answer to Save: its error, said in the editor (Save works again); or the rule's
 * id: the editor closes (the kernel resolves the card), and if the card does not match the
 * rule, the card says it was saved and still waits.
 * @param {ViewState} view
 * @param {AllowResultMessage} message
 * @returns {boolean} whether an editor took it
 */
export function allowAnswered(view, message) {
  if (!message || typeof message !== "object") return false;
  const token = String(message.token);
  for (const [id, rule] of view.rules) {
    if (!rule.saving || rule.token !== token) continue;
    rule.saving = false;
    const saved = typeof message.rule === "string" && message.rule ? message.rule : null;
    const error = typeof message.error === "string" && message.error.trim() ? message.error : null;
    if (error || !saved) {
      rule.saveError = error || "The rule was not saved (the kernel did not say why).";
      rule.sync?.();
      return true;
    }
    rule.open = false;
    rule.saveError = null;
    const matched = typeof message.card === "boolean" ? message.card : !(rule.answer && rule.answer.card === false);
    rule.saved = matched ? null : saved;
    if (rule.timer) clearTimeout(rule.timer);
    rule.timer = null;
    for (const entry of view.nodes.values()) {
      const item = entry.item;
      if (item.kind === "suggestion" && String(item.event.id) === id && item.pending) {
        view.refresh(item, { focusAction: "allow-rule" });
        if (matched) focusAfterDecision(view.nodes.get(item.key)?.node); // the rule accepts the card
      }
    }
    return true;
  }
  return false;
}

/**
 * Listen for the kernel's rule-draft and allow answers.
 * @param {Model} connected
 * @param {ViewState} view
 * @returns {() => void} stop listening
 */
export function listenForRules(connected, view) {
  const onMessage = (/** @type {{type?: string} | undefined} */ message) => {
    if (!message) return;
    if (message.type === "rule-draft") ruleDraftAnswered(view, /** @type {RuleDraftResultMessage} */ (message));
    else if (message.type === "allow") allowAnswered(view, /** @type {AllowResultMessage} */ (message));
  };
  connected.on("msg:custom", onMessage);
  return () => connected.off("msg:custom", onMessage);
}
