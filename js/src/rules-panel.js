// @ts-check
// The rules "Always allow like this…" made, where the person sees them: the footer's
// "Rules (N)" toggle over a panel listing each rule (its id, action, scope, how many proposals
// it accepted, when it was made, its schema) with Revoke; and on a card a rule accepted,
// "Accepted by rule r1", whose id opens the panel at that rule. Drawn from the `rules` trait:
// the kernel applies and revokes rules, this only shows them and sends the person's clicks.
//
//   trait rules ──▶ the panel (redrawn when what it shows changes) and the toggle's count;
//                   the toggle shows while there is a rule or an allowable card
//   revoke      ──▶ {type: 'revoke', id}, the button disabled until the trait drops the rule
//   show-rule   ──▶ view.showRule(id): the panel opened, that rule highlighted and scrolled to
//                   (a rule no longer there: the panel says so)
//   a rule with state 'unconfirmed' (a notebook rule another chat read from its file) ──▶ "not
//                   active here" and Confirm: {type: 'confirm-rule', id}
//   trait untrusted {file, rules} ──▶ the notice above the message box: read-only, from a file
//                   you did not make, its rules listed as not active, and "Trust this file":
//                   {type: 'trust'} (the kernel signs the file and carries on; the notice goes
//                   when the trait is emptied)

import { button, h, uid } from "./dom.js";
import { focusAfterDecision } from "./focus.js";
import { summarise } from "./text.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./contract.js").Rule} Rule */
/** @typedef {import("./contract.js").UntrustedSession} UntrustedSession */
/** @typedef {import("./contract.js").TranscriptEvent} TranscriptEvent */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */
/** @typedef {import("./state.js").ViewState} ViewState */

/** How a rule's scope reads. @type {{[scope: string]: string}} */
export const SCOPE_LABEL = { conversation: "this conversation", notebook: "this notebook" };

/** The panel's text when there is no rule. */
export const NO_RULES = "No rules. On a card, \"Always allow like this…\" makes one.";

/**
 * The rules of the `rules` trait (each with a string id), or null where the model has no such
 * trait (a replay): then nobody can say whether a rule is still there.
 * @param {Model} model
 * @returns {Rule[] | null}
 */
export function rulesOf(model) {
  const rules = model.get("rules");
  if (!Array.isArray(rules)) return null;
  return rules.filter((rule) => rule && typeof rule === "object" && typeof rule.id === "string" && rule.id);
}

/**
 * The read-only session of the `untrusted` trait, or null when the conversation may act.
 * @param {Model} model
 * @returns {UntrustedSession | null}
 */
export function untrustedOf(model) {
  const untrusted = /** @type {Partial<UntrustedSession> | null | undefined} */ (model.get("untrusted"));
  if (!untrusted || typeof untrusted !== "object" || typeof untrusted.file !== "string" || !untrusted.file) return null;
  const rules = Array.isArray(untrusted.rules) ? untrusted.rules.filter((rule) => rule && typeof rule === "object") : [];
  return { file: untrusted.file, rules, ...(typeof untrusted.error === "string" ? { error: untrusted.error } : {}) };
}

/**
 * The notice of a conversation shown read-only (empty and hidden otherwise): where it came
 * from, its rules (not active), and "Trust this file". Redrawn by `draw`.
 * @param {ViewState} view
 * @param {HTMLElement} notice
 * @param {{trusting: boolean}} state
 */
function drawNotice(view, notice, state) {
  const untrusted = untrustedOf(view.model);
  notice.hidden = !untrusted;
  if (!untrusted) {
    state.trusting = false;
    notice.replaceChildren();
    return;
  }
  if (untrusted.error) state.trusting = false; // it failed: the button is offered again
  const trust = /** @type {HTMLButtonElement} */ (button(state.trusting ? "Trusting…" : "Trust this file", "trust", () => {
    if (state.trusting) return;
    state.trusting = true;
    view.model.send({ type: "trust" });
    trust.disabled = true;
    trust.textContent = "Trusting…";
  }, { kind: "dial-primary", aria: `Trust this file: ${untrusted.file}`, disabled: state.trusting }));
  /** @type {(HTMLElement | string)[]} */
  const parts = [
    h("div", { className: "dial-untrusted-text" },
      "Read-only: this conversation comes from ", h("code", {}, summarise(untrusted.file, 300)),
      ", a file you did not make (not signed by you, changed since you saved it, or saved by someone else). "
      + "Nothing in it runs and nothing is sent to the agent until you trust it."),
  ];
  if (untrusted.rules.length) {
    parts.push(h("ul", { className: "dial-rule-list dial-untrusted-rules" }, untrusted.rules.map((rule) => h("li", {
      className: "dial-rule dial-rule-inactive", "data-dial-untrusted-rule": String(rule.id ?? ""),
    },
    h("div", { className: "dial-rule-head" },
      h("span", { className: "dial-rule-name" }, String(rule.id ?? "")), " · ",
      h("span", { className: "dial-action-name" }, String(rule.action ?? "")), " · ",
      h("span", { className: "dial-rule-scope-chip" }, SCOPE_LABEL[String(rule.scope)] || String(rule.scope ?? "")), " · ",
      h("span", { className: "dial-rule-state" }, "not active, from a file you did not make")),
    h("pre", { className: "dial-code dial-rule-schema-text", ...schemaRegion(rule.id) }, h("code", {}, summarise(schemaText(rule.schema), 20000)))))));
  }
  if (untrusted.error) parts.push(h("div", { className: "dial-error", role: "alert", "data-dial-trust-error": "" }, summarise(untrusted.error, 400)));
  parts.push(trust);
  const focused = notice.contains(document.activeElement);
  notice.replaceChildren(...parts);
  if (focused) trust.focus();
}

/** @param {unknown} schema */
function schemaText(schema) {
  try {
    return JSON.stringify(schema, null, 2) ?? "";
  } catch {
    return String(schema);
  }
}

/**
 * The rule that accepted a card (its outcome's, else its suggestion's), or null.
 * @param {SuggestionItem} item
 * @returns {string | null}
 */
export function ruleIdOf(item) {
  const outcome = item.outcome && typeof item.outcome.rule === "string" && item.outcome.rule ? item.outcome.rule : null;
  const event = typeof item.event.rule === "string" && item.event.rule ? item.event.rule : null;
  return outcome ?? event;
}

/**
 * What a card's "Accepted by rule" line depends on (part of its signature): the rule, and
 * whether it is still there (null: not known).
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {[string, boolean | null] | null}
 */
export function ruleStateOf(view, item) {
  const id = ruleIdOf(item);
  if (!id) return null;
  const rules = rulesOf(view.model);
  return [id, rules ? rules.some((rule) => rule.id === id) : null];
}

/**
 * "Accepted by rule r1" (r1 opens the rules panel at it), "Accepted by rule r1 (revoked)", or
 * null for a card no rule accepted.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {HTMLElement | null}
 */
export function byRuleLine(view, item) {
  const state = ruleStateOf(view, item);
  if (!state) return null;
  const [id, there] = state;
  const line = h("div", {
    className: "dial-by-rule", "data-dial-by-rule": id, "data-dial-revoked": there === false ? "" : null,
  }, "Accepted by rule ");
  if (there && view.showRule) {
    line.append(h("button", {
      type: "button", className: "dial-rule-link", "data-dial-action": "show-rule", "data-dial-rule": id,
      "aria-label": `Rule ${id}: show it in the rules panel`,
      onClick: () => view.showRule?.(id),
    }, id));
  } else {
    line.append(h("span", { className: "dial-rule-ref" }, id));
  }
  if (there === false) line.append(" (revoked)");
  return line;
}

/**
 * When a rule was made, in the page's local time, short ('14/03/2025, 09:12'); the text as it
 * came when it is no date.
 * @param {unknown} created
 */
export function madeAt(created) {
  const text = String(created ?? "");
  const date = new Date(text);
  if (!text || Number.isNaN(date.getTime())) return text;
  try {
    return date.toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
  } catch {
    return date.toISOString();
  }
}

/**
 * Whether a transcript has a card a rule may be made for.
 * @param {readonly TranscriptEvent[]} transcript
 */
export function anyAllowable(transcript) {
  return transcript.some((event) => event && event.type === "suggestion" && event.allowable === true);
}

/**
 * The footer's rules toggle and its panel (the caller places both); draw() brings them in line
 * with the trait, show(id) opens the panel at a rule.
 * @param {ViewState} view
 * @returns {{toggle: HTMLButtonElement, panel: HTMLElement, notice: HTMLElement,
 *   draw: (transcript: readonly TranscriptEvent[]) => void, show: (id: string) => void}}
 */
export function rulesArea(view) {
  const notice = h("section", {
    className: "dial-untrusted dial-warn", "data-dial-untrusted": "", role: "region", "aria-label": "Read-only conversation",
  });
  notice.hidden = true;
  let noticeDrawn = "";
  const noticeState = { trusting: false };
  const panel = h("section", { className: "dial-rules", "data-dial-rules": "", id: uid("rules"), "aria-label": "Rules" });
  const toggle = /** @type {HTMLButtonElement} */ (h("button", {
    type: "button", className: "dial-rules-toggle", "data-dial-action": "rules", "aria-expanded": "false",
    "aria-controls": panel.id,
    onClick: () => {
      view.panel.open = !view.panel.open;
      if (!view.panel.open) view.panel.highlight = null;
      drawPanel();
    },
  }, "Rules (0)"));
  panel.hidden = true;
  let drawn = "";
  /** @type {readonly TranscriptEvent[]} */
  let last = [];

  function drawPanel() {
    const rules = rulesOf(view.model) || [];
    for (const id of [...view.revoking]) if (!rules.some((rule) => rule.id === id)) view.revoking.delete(id);
    toggle.textContent = `Rules (${rules.length})`;
    toggle.hidden = rules.length === 0 && !anyAllowable(last) && !view.panel.open;
    toggle.setAttribute("aria-expanded", String(view.panel.open));
    panel.hidden = !view.panel.open;
    const sig = JSON.stringify([rules, view.panel, [...view.revoking]]);
    if (sig === drawn) return;
    drawn = sig;
    const focused = panel.contains(document.activeElement)
      ? document.activeElement && document.activeElement.getAttribute("data-dial-rule") : null;
    const { highlight } = view.panel;
    /** @type {HTMLElement[]} */
    const parts = [];
    if (highlight && !rules.some((rule) => rule.id === highlight)) {
      parts.push(h("div", { className: "dial-rule-gone", role: "status", "data-dial-rule-gone": highlight },
        `Rule ${highlight} is no longer there: it was revoked.`));
    }
    if (!rules.length) parts.push(h("div", { className: "dial-note dial-rules-empty", "data-dial-rules-empty": "" }, NO_RULES));
    else parts.push(h("ul", { className: "dial-rule-list" }, rules.map((rule) => ruleEntry(view, rule, rule.id === highlight, drawPanel))));
    panel.replaceChildren(...parts);
    if (focused) /** @type {HTMLElement | null} */ (panel.querySelector(`[data-dial-action=revoke][data-dial-rule="${CSS.escape(focused)}"]`))?.focus();
  }

  return {
    toggle, panel, notice,
    draw: (transcript) => {
      last = transcript;
      drawPanel();
      const sig = JSON.stringify(view.model.get("untrusted") ?? null);
      if (sig !== noticeDrawn) {
        noticeDrawn = sig;
        drawNotice(view, notice, noticeState);
      }
    },
    show: (id) => {
      view.panel.open = true;
      view.panel.highlight = id;
      drawPanel();
      const entry = /** @type {HTMLElement | null} */ (panel.querySelector(`[data-dial-rule-id="${CSS.escape(id)}"]`)
        ?? panel.querySelector("[data-dial-rule-gone]"));
      if (entry && typeof entry.scrollIntoView === "function") entry.scrollIntoView({ block: "nearest" });
      entry?.focus();
    },
  };
}

/**
 * One rule in the panel: id, action, scope, how many it accepted, when it was made, its
 * schema, Revoke.
 * @param {ViewState} view
 * @param {Rule} rule
 * @param {boolean} highlighted
 * @param {() => void} redraw
 */
function ruleEntry(view, rule, highlighted, redraw) {
  const id = rule.id;
  const fired = Number.isFinite(Number(rule.fired)) ? Number(rule.fired) : 0;
  const busy = view.revoking.has(id);
  const unconfirmed = rule.state === "unconfirmed";
  const revoke = /** @type {HTMLButtonElement} */ (unconfirmed
    ? button("Confirm", "confirm-rule", () => {
      view.model.send({ type: "confirm-rule", id });
      revoke.disabled = true;
    }, { kind: "dial-rule-confirm", aria: `Confirm rule ${id}: let it apply to this conversation too` })
    : button(busy ? "Revoking…" : "Revoke", "revoke", () => {
      if (view.revoking.has(id)) return;
      view.revoking.add(id);
      view.model.send({ type: "revoke", id });
      revoke.disabled = true;
      focusAfterDecision(revoke);
      redraw();
    }, { kind: "dial-rule-revoke", aria: `Revoke rule ${id}`, disabled: busy }));
  revoke.setAttribute("data-dial-rule", id);
  const schema = schemaText(rule.schema);
  const scope = SCOPE_LABEL[String(rule.scope)] || String(rule.scope ?? "");
  return h("li", {
    className: `dial-rule${highlighted ? " dial-rule-highlight" : ""}`, "data-dial-rule-id": id, tabindex: "-1",
    "data-dial-highlight": highlighted ? "" : null, "aria-current": highlighted ? "true" : null,
  },
  h("div", { className: "dial-rule-head" },
    h("span", { className: "dial-rule-name" }, id), " · ",
    h("span", { className: "dial-action-name" }, String(rule.action ?? "")), " · ",
    h("span", { className: "dial-rule-scope-chip", "data-dial-rule-scope": String(rule.scope ?? "") }, scope), " ",
    ...(unconfirmed ? [h("span", { className: "dial-rule-state", "data-dial-rule-unconfirmed": "" },
      "not active here: another chat read it from its file"), " "] : []),
    revoke),
  h("div", { className: "dial-rule-meta" },
    h("span", { "data-dial-rule-fired": String(fired) }, `accepted ${fired} proposal${fired === 1 ? "" : "s"}`),
    " · ",
    h("span", { title: String(rule.created ?? "") }, `made ${madeAt(rule.created)}`)),
  h("pre", { className: "dial-code dial-rule-schema-text", ...schemaRegion(id) }, h("code", {}, summarise(schema, 20000))));
}

/**
 * A rule's schema scrolls past its height: reachable with the keyboard, and named (axe-core).
 * @param {unknown} id
 */
function schemaRegion(id) {
  return { tabindex: "0", role: "region", "aria-label": `The schema of rule ${String(id ?? "")}` };
}
