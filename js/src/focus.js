// @ts-check
// Where focus goes once the person has decided: after Accept, Save, Dismiss, Dismiss with a
// reason, an answer, "Save rule and accept" or Revoke, the control they used is disabled or
// redrawn, and focus would fall to the page's <body> (the next Tab starting at the top of
// JupyterLab). It goes instead to the next card still waiting for them (its first control),
// else to the message box; never out of the widget.
//
//   decided (cards.js, ask.js, questions.js, rules.js, rules-panel.js) ──▶ focusAfterDecision(node)
//     ──▶ the first waiting card other than `node`'s: Accept, else its first enabled control
//     ──▶ else the message box

/** The cards that wait for the person, in the order they are drawn. */
const WAITING = "[data-dial-suggestion][data-dial-status=pending], [data-dial-ask][data-dial-status=pending], "
  + "[data-dial-questions]:not(.dial-questions-sent)";
const CONTROLS = "button, input, textarea, select";

/**
 * Move focus on from `decided` (the card decided, or the control used), inside its widget.
 * @example
 *   decide(view, item, "accept"); focusAfterDecision(cardNode); // focus: the next card, or the message box
 * @param {Element | null | undefined} decided
 * @returns {HTMLElement | null} what now has focus (null: `decided` is in no widget)
 */
export function focusAfterDecision(decided) {
  const root = decided ? decided.closest("[data-dial-root]") : null;
  if (!root || !decided) return null;
  const card = decided.closest("[data-dial-suggestion], [data-dial-ask], [data-dial-questions]");
  /** @type {HTMLElement | null} */
  let target = null;
  for (const next of /** @type {HTMLElement[]} */ ([...root.querySelectorAll(WAITING)])) {
    if (next === card || next.contains(decided) || isHidden(next, root)) continue;
    target = firstControl(next);
    if (target) break;
  }
  target = target || /** @type {HTMLElement | null} */ (root.querySelector("[data-dial-field=say]"));
  target?.focus();
  return target;
}

/**
 * A waiting card's first control: its Accept, else the first enabled one.
 * @param {HTMLElement} card
 * @returns {HTMLElement | null}
 */
function firstControl(card) {
  const usable = (/** @type {Element | null} */ node) => node && !(/** @type {HTMLButtonElement} */ (node).disabled)
    && !isHidden(/** @type {HTMLElement} */ (node), card) ? /** @type {HTMLElement} */ (node) : null;
  const accept = usable(card.querySelector("[data-dial-action=accept]"));
  if (accept) return accept;
  for (const node of card.querySelectorAll(CONTROLS)) if (usable(node)) return usable(node);
  return null;
}

/**
 * Whether `node` or an ancestor up to `root` is hidden.
 * @param {HTMLElement} node
 * @param {Element} root
 */
function isHidden(node, root) {
  for (let at = /** @type {HTMLElement | null} */ (node); at && at !== root; at = at.parentElement) if (at.hidden) return true;
  return false;
}
