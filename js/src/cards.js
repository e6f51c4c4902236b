// @ts-check
// A suggestion card: the action, its preview (after an edit, what ran), the agent's words, the
// steps of an execute block, and then what it will do (its dry run, review.js) over Accept /
// Edit / Dismiss while it waits for the person — with "Dismiss with a reason…", "Comment…"
// (comments.js) and, on an allowable card, "Always allow like this…" (the rule editor,
// rules.js) — or its outcome once it has one (the rule that accepted it, rules-panel.js; the
// reason and comments the person gave; the code that ran, and Undo) — and, while it runs,
// that it runs — "Running…" from the person's Accept (or the kernel's run-started) until its
// outcome, its controls disabled, Stop when its run is stoppable — and how far it has come, as
// the run says ("3 of 10 — copying files", run-progress.js; an execute step's on its step). A
// click sends {type: 'decide', token, decision, payload?, reason?, comments?}; what happens next
// is the kernel's to decide (the card only shows what it is told). A card a rule accepted
// offers no decision: it says "Accepted by rule r1".

import { commentButton, commentsArea, commentsPart, commentsToSend, outcomeComments, outcomeReason, reasonButton, reasonOpen,
  reasonRow } from "./comments.js";
import { button, h, revealedNodes } from "./dom.js";
import { editor } from "./editor.js";
import { focusAfterDecision } from "./focus.js";
import { resultNodes } from "./inform.js";
import { codeBlock, dryRunSection, edited, undoPart } from "./review.js";
import { byRuleLine, ruleIdOf } from "./rules-panel.js";
import { clicked, runProgressPart, startedRun } from "./run-progress.js";
import { allowable, openRuleEditor, ruleEditor, ruleSavedNote } from "./rules.js";
import { STATUS_LABEL, resultText, summarise, words } from "./text.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").OutcomeEvent} OutcomeEvent */
/** @typedef {import("./contract.js").DecideMessage} DecideMessage */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */
/** @typedef {import("./state.js").ViewState} ViewState */
/** @typedef {import("./state.js").Draft} Draft */

export { STATUS_LABEL }; // the words' file's (text.js), here for those who draw a status

/**
 * The card's draft, made from the pending payload (else the proposed one) the first time.
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @returns {Draft}
 */
export function draftFor(view, item) {
  const id = String(item.event.id);
  let draft = view.drafts.get(id);
  if (!draft) {
    const start = item.pending && item.pending.payload !== undefined ? item.pending.payload : item.event.payload;
    draft = { open: false, view: null, value: structuredClone(start ?? {}), json: null, jsonError: null, local: new Map() };
    view.drafts.set(id, draft);
  }
  return draft;
}

/** What a decided card's controls are: disabled once its decision is sent. */
const CONTROLS = "[data-dial-action], [data-dial-reason], [data-dial-comment-text], [data-dial-comment-field]";

/**
 * The person's decision, sent once per pending token, with the card's comments (if any); the
 * card's controls are disabled; accepted (or saved edited), it runs from now on (Running…).
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @param {DecideMessage['decision']} decision
 * @param {{payload?: Json, reason?: string}} [extra]
 */
export function decide(view, item, decision, extra = {}) {
  const token = item.pending && item.pending.token;
  if (!token || view.sending.has(token)) return;
  view.sending.add(token);
  /** @type {DecideMessage} */
  const message = { type: "decide", token, decision, ...extra };
  const comments = commentsToSend(view, String(item.event.id));
  if (comments.length) message.comments = comments;
  view.model.send(message);
  const card = view.nodes.get(item.key);
  if (card) {
    disableControls(card.node);
    focusAfterDecision(card.node); // not to <body>, as the disabled control would leave it
  }
  if (decision === "accept" || decision === "edit") clicked(view.model, String(item.event.id), token);
}

/** @param {Element} node */
function disableControls(node) {
  node.querySelectorAll(CONTROLS).forEach((b) => {
    /** @type {HTMLButtonElement} */ (b).disabled = true;
  });
}

/**
 * @param {ViewState} view
 * @param {SuggestionItem} item
 */
export function suggestionCard(view, item) {
  const event = item.event;
  const status = String(item.status);
  const destructive = Boolean(event.destructive);
  // after an edit, the headline is what ran (the outcome's preview), not what was proposed
  const ranEdited = item.outcome && item.outcome.edited && item.outcome.preview;
  const preview = String(ranEdited ? item.outcome?.preview : (event.preview || event.action || ""));
  const card = h("article", {
    className: `dial-card dial-status-${status}${destructive ? " dial-destructive" : ""}`,
    "data-dial-suggestion": String(event.id),
    "data-dial-status": status,
    // a card shown again because what it works on changed: said once, with its name
    "aria-label": `Suggestion: ${preview}${stale(item) ? words("stale-label") : ""}`,
  });
  card.append(h("div", { className: "dial-card-head" },
    h("span", { className: "dial-action-name" }, String(event.action || "")),
    destructive && event.kind === "execute"
      ? h("span", { className: "dial-badge dial-badge-danger", title: "These commands can change anything this kernel can reach" }, "⚠ Runs code")
      : destructive ? h("span", { className: "dial-badge dial-badge-danger", title: "This action is destructive" }, "⚠ Destructive") : null,
    h("span", { className: `dial-chip dial-chip-${status}` }, STATUS_LABEL[status] || status)));
  card.append(h("div", { className: "dial-preview" }, preview,
    ranEdited ? h("span", { className: "dial-edited-mark", title: `Proposed: ${String(event.preview || "")}` }, " (edited)") : null));
  if (event.text && String(event.text).trim() && String(event.text).trim() !== preview.trim()) {
    card.append(h("div", { className: "dial-agent-text" }, String(event.text)));
  }
  const execute = event.kind === "execute";
  if (execute && !(item.pending && draftFor(view, item).open)) card.append(...stepList(view, item));
  if (execute && event.confirmed && item.pending) {
    card.append(h("div", { className: "dial-note" }, "You answered yes above. That was not approval to run code: check the commands, then Accept to run them."));
  }
  const byRule = byRuleLine(view, item);
  if (byRule) card.append(byRule);
  if (waiting(item)) {
    card.append(...decisionPart(view, item, preview, destructive));
    if (view.sending.has(item.pending.token)) disableControls(card); // sent: redrawn, still disabled
    if (item.status === "running") card.append(runningPart(view, item, preview));
  } else if (item.outcome) {
    card.append(outcomeLine(item.outcome, { editedShown: Boolean(ranEdited), undone: item.undone }));
    const said = outcomeComments(item.outcome);
    if (said) card.append(said);
    const code = codeOf(item.outcome.result);
    if (code && (item.status === "done" || item.status === "undone")) card.append(codeBlock(view, `${event.id}:code`, code));
    card.append(...undoPart(view, item, preview));
  } else {
    const dry = dryRunSection(view, item); // not decided yet (nor waiting here): what it would do
    if (dry) card.append(dry);
    card.append(runningPart(view, item, preview)); // running: Running…, how far it has come
  }
  for (const ack of item.acks) {
    card.append(h("div", { className: "dial-card-ack", "data-dial-ack-of": String(event.id) },
      h("span", { className: "dial-card-ack-who" }, "Agent: "), String(ack.text || "")));
  }
  return card;
}

/**
 * A card's run: "Running…" (then how far it has come) while it runs, with Stop when the kernel
 * said its run is stoppable and the say it belongs to still goes; hidden while nothing runs.
 * Stop stops the say, and with it this run (the kernel's rules: the run ends 'stopped').
 * @param {ViewState} view
 * @param {SuggestionItem} item
 * @param {string} preview
 */
function runningPart(view, item, preview) {
  const id = String(item.event.id);
  const running = item.status === "running" && item.event.kind !== "execute"; // a block's: on its steps
  const part = runProgressPart(view, id, String(item.event.action || ""), running);
  if (!running) return part;
  const stop = /** @type {HTMLButtonElement} */ (button("Stop", "stop-run", () => {
    view.model.send({ type: "stop" });
    stop.disabled = true;
  }, { aria: `Stop: ${preview}` }));
  stop.setAttribute("data-dial-run-stop", "");
  // shown once the kernel says the run is stoppable (now, or later: run-progress.js)
  stop.hidden = !(startedRun(view.model, id)?.stoppable && view.model.get("running"));
  part.append(stop);
  return part;
}

/**
 * Whether the card asks for a decision (a card a rule accepted never does).
 * @param {SuggestionItem} item
 * @returns {item is SuggestionItem & {pending: import("./contract.js").DecidePending}}
 */
function waiting(item) {
  return Boolean(item.pending) && !ruleIdOf(item);
}

/**
 * The code of what ran, from a done result's `code`.
 * @param {Json} result
 */
function codeOf(result) {
  return result && typeof result === "object" && !Array.isArray(result) && typeof result.code === "string"
    && result.code.trim() ? result.code : "";
}

/**
 * While the card waits: what it will do (its dry run, for the edit too), then the editor
 * (opened by Edit, or once by a new refusal; the dry run and the comments sit above its Save),
 * or the rule editor, or the reason box; else the comments, and Accept / Edit / Dismiss with
 * "Dismiss with a reason…", "Comment…" and "Always allow like this…".
 * @param {ViewState} view
 * @param {SuggestionItem & {pending: import("./contract.js").DecidePending}} item
 * @param {string} preview
 * @param {boolean} destructive
 * @returns {HTMLElement[]}
 */
function decisionPart(view, item, preview, destructive) {
  const draft = draftFor(view, item);
  const issue = item.pending.issue;
  if (issue && draft.issueSeen !== item.pending.token) {
    draft.issueSeen = item.pending.token; // a new refusal opens the editor once
    draft.open = true;
    draft.touched = new Set(); // every field it names is refused afresh
    edited(view, item, draft); // what it will do: asked again of the payload the card now holds
  }
  const dry = dryRunSection(view, item);
  const notice = staleNotice(item);
  if (notice) return [notice, ...decisionControls(view, item, preview, destructive, draft, dry)];
  return decisionControls(view, item, preview, destructive, draft, dry);
}

/**
 * Whether the card waiting now was checked again because what it works on changed since.
 * @param {SuggestionItem} item
 */
function stale(item) {
  const note = item.event.stale;
  return waiting(item) && Boolean(note && typeof note === "object" && typeof note.why === "string");
}

/**
 * The notice on a card checked again: why (what changed), and that its dry run is new.
 * @param {SuggestionItem} item
 */
function staleNotice(item) {
  if (!stale(item)) return null;
  return h("div", { className: "dial-stale", "data-dial-stale": "" },
    words("stale", { why: summarise(String(item.event.stale?.why), 300) }));
}

/**
 * The editor, the rule editor, the reason box, or the buttons (see decisionPart).
 * @param {ViewState} view
 * @param {SuggestionItem & {pending: import("./contract.js").DecidePending}} item
 * @param {string} preview
 * @param {boolean} destructive
 * @param {Draft} draft
 * @param {HTMLElement | null} dry
 * @returns {HTMLElement[]}
 */
function decisionControls(view, item, preview, destructive, draft, dry) {
  if (draft.open) {
    return [editor(view, item, draft, (payload) => decide(view, item, "edit", { payload }),
      { aside: dry, onEdit: () => edited(view, item, draft), comments: commentsPart(view, item) })];
  }
  const rule = view.rules.get(String(item.event.id));
  if (rule && rule.open && allowable(item.event)) return /** @type {HTMLElement[]} */ ([dry, ruleEditor(view, item)].filter(Boolean));
  const said = /** @type {HTMLElement[]} */ ([dry, ruleSavedNote(view, item), commentsArea(view, item)].filter(Boolean));
  if (reasonOpen(view, item)) {
    return [...said, reasonRow(view, item, (reason) => decide(view, item, "dismiss", reason ? { reason } : {}))];
  }
  /** @type {HTMLElement | null} */
  let allow = null;
  if (allowable(item.event)) {
    allow = button("Always allow like this…", "allow-rule", () => openRuleEditor(view, item), { kind: "dial-link" });
    allow.setAttribute("aria-expanded", "false");
  }
  const buttons = h("div", { className: "dial-buttons" },
    button("Accept", "accept", () => decide(view, item, "accept"),
      { kind: destructive ? "dial-danger" : "dial-primary", aria: `Accept: ${preview}` }),
    button("Edit", "edit", () => {
      draft.open = true;
      view.refresh(item, { focusEditor: true });
    }, { aria: `Edit: ${preview}` }),
    button("Dismiss", "dismiss", () => decide(view, item, "dismiss"), { aria: `Dismiss: ${preview}` }),
    h("span", { className: "dial-buttons-more" }, reasonButton(view, item), commentButton(view, item), allow));
  return [...said, buttons];
}

/**
 * An execute block's steps: every one, each command whole (monospace, hidden characters shown
 * by name, its line count), env and the agent's label, each step's outcome, and, while the
 * block runs, a step's run (Running…, how far it has come).
 * @param {ViewState} view
 * @param {SuggestionItem} item
 */
function stepList(view, item) {
  const payload = item.event.payload;
  /** @type {import("./contract.js").Step[]} */
  const steps = (payload && Array.isArray(payload.steps)) ? payload.steps : [];
  const suspicious = item.event.suspicious && typeof item.event.suspicious === "object" ? item.event.suspicious : {};
  const list = h("ol", { className: "dial-steps", "aria-label": `${steps.length} step${steps.length === 1 ? "" : "s"}` });
  for (const step of steps) {
    const outcome = item.steps.get(String(step.id));
    const going = !outcome && !item.outcome && item.status === "running" && Boolean(startedRun(view.model, String(step.id)));
    const status = outcome ? String(outcome.status) : going ? "running" : "";
    const hidden = Array.isArray(suspicious[String(step.id)]) ? suspicious[String(step.id)] : [];
    const ran = outcome && typeof outcome.command === "string" ? outcome.command : String(step.command ?? "");
    const lines = ran.split("\n").length;
    const row = h("li", {
      className: `dial-step${status ? ` dial-step-${status}` : ""}${hidden.length ? " dial-step-suspicious" : ""}`,
      "data-dial-step": String(step.id), "data-dial-status": status || "waiting",
    });
    row.append(h("div", { className: "dial-step-head" },
      h("span", { className: "dial-env" }, String(step.env || "")),
      step.label ? h("span", { className: "dial-step-label", title: "The agent's label for this step" }, revealedNodes(String(step.label))) : null,
      lines > 1 ? h("span", { className: "dial-step-lines", "data-dial-lines": String(lines) }, `${lines} lines`) : null,
      status ? h("span", { className: `dial-chip dial-chip-${status}` }, STATUS_LABEL[status] || status) : null));
    if (hidden.length) {
      row.append(h("div", { className: "dial-suspicious", role: "note", "data-dial-suspicious": hidden.join(" ") },
        words("hidden-characters", { names: hidden.join(", ") })));
    }
    row.append(h("pre", { className: "dial-command dial-mono", dir: "ltr" }, revealedNodes(ran)));
    if (outcome && outcome.edited) row.append(h("span", { className: "dial-edited" }, words("edited")));
    if (outcome) row.append(stepOutcome(outcome));
    else if (item.status === "running") row.append(runProgressPart(view, String(step.id), `execute:${String(step.env || "")}`, going));
    list.append(row);
  }
  return [h("div", { className: "dial-step-count", "data-dial-step-count": String(steps.length) },
    words("steps", { count: steps.length, noun: steps.length === 1 ? "step" : "steps" })), list];
}

/**
 * A step's outcome: its stdout / value / stderr / body when it ran, else its error and hint.
 * @param {OutcomeEvent} outcome
 */
function stepOutcome(outcome) {
  const box = h("div", { className: `dial-step-outcome dial-outcome-${outcome.status}` });
  const result = outcome.result;
  if (outcome.status === "done" && result && typeof result === "object" && !Array.isArray(result)) {
    for (const key of ["stdout", "value", "stderr", "body"]) {
      if (typeof result[key] === "string" && result[key]) {
        box.append(h("pre", { className: `dial-output dial-mono dial-output-${key}` }, summarise(result[key], 4000)));
      }
    }
    if (!box.childNodes.length && resultText(result)) box.append(h("span", {}, resultText(result)));
  } else if (outcome.status === "done") {
    if (resultText(result)) box.append(h("span", {}, resultText(result)));
  } else {
    box.append(h("span", {}, summarise(outcome.error || outcome.hint || "", 400)));
    if (outcome.error && outcome.hint) box.append(h("div", { className: "dial-hint" }, summarise(outcome.hint, 400)));
  }
  return box;
}

/**
 * A card's outcome: Done with its result (struck through once undone, and the undo said
 * after it), Failed with error and hint, Dismissed, ….
 * @param {OutcomeEvent} outcome
 * @param {{editedShown?: boolean, undone?: OutcomeEvent | null}} [options]
 * @returns {HTMLElement}
 */
function outcomeLine(outcome, { editedShown = false, undone = null } = {}) {
  const status = String(outcome.status);
  const line = h("div", { className: `dial-outcome dial-outcome-${status}${undone ? " dial-outcome-taken-back" : ""}` });
  if (status === "done") {
    line.append(h("strong", {}, STATUS_LABEL.done));
    const result = outcome.result && typeof outcome.result === "object" && !Array.isArray(outcome.result)
      && typeof outcome.result.code === "string"
      ? Object.fromEntries(Object.entries(outcome.result).filter(([key]) => key !== "code")) // shown below, as code
      : outcome.result;
    const body = /** @type {HTMLElement[]} */ (resultNodes(result).filter(Boolean));
    const inline = body.length === 1 && body[0].classList.contains("dial-result");
    if (inline) line.append(body[0]);
    else if (body.length) line.append(h("div", { className: "dial-result-body", "data-dial-result": "" }, body));
  } else if (status === "failed") {
    line.append(h("strong", {}, STATUS_LABEL.failed), h("span", {}, words("failed", { error: summarise(outcome.error || "error") })));
    if (outcome.hint) line.append(h("div", { className: "dial-hint" }, words("hint", { hint: summarise(outcome.hint) })));
  } else if (status === "dismissed") {
    const reason = outcomeReason(outcome); // " — reason: …"
    line.append(h("strong", {}, STATUS_LABEL.dismissed), reason || h("span", {}, words("dismissed")));
  } else if (status === "superseded" || status === "handed-off") {
    line.append(h("strong", {}, STATUS_LABEL[status]), h("span", {}, words(status)));
  } else {
    line.append(h("strong", {}, STATUS_LABEL[status] || status));
    if (outcome.hint || outcome.error) line.append(h("span", {}, ` — ${summarise(outcome.hint || outcome.error)}`));
  }
  if (outcome.edited && !editedShown) line.append(h("span", { className: "dial-edited" }, " (edited)"));
  if (!undone) return line;
  const said = summarise(undone.hint || resultText(undone.result) || "", 300);
  return h("div", { className: "dial-outcomes" }, line,
    h("div", { className: "dial-outcome dial-outcome-undone", "data-dial-undone": "" },
      h("strong", {}, "Undone"), h("span", {}, said ? ` — ${said}` : " — taken back")));
}
