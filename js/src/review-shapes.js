// @ts-check
// What review.js draws, as data (pure: no DOM): when two payloads are the same edit (canonical
// JSON), whether a value is a dry run and which one a card shows (the proposal's, or the one
// asked for the person's edit of the token waiting), the counts a data-frames effect changes,
// the payload of the person's edit (undefined while it does not parse), and the `undoable`
// trait's word for a card.

import { formatNumber } from "./text.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").DryRun} DryRun */
/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./items.js").SuggestionItem} SuggestionItem */
/** @typedef {import("./state.js").Draft} Draft */
/** @typedef {import("./state.js").DryRunAsk} DryRunAsk */

/**
 * JSON with every object's keys sorted: two payloads are the same edit when these are equal
 * (the kernel's echo need not keep the order the form wrote).
 * @param {Json} value
 */
export function canonical(value) {
  return JSON.stringify(value, (_, v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v)) ?? "";
}

/**
 * Whether `value` has the shape of a dry run ({ok: true, …} or {ok: false, error}).
 * @param {unknown} value
 * @returns {value is DryRun}
 */
export function isDryRun(value) {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value)
    && (/** @type {{ok?: unknown}} */ (value).ok === true || /** @type {{ok?: unknown}} */ (value).ok === false);
}

/**
 * The dry run a card shows: the proposal's, or the one asked for the person's edit of the
 * pending token (`edit`: none, checking, answered, unanswered).
 * @param {SuggestionItem} item
 * @param {DryRunAsk | undefined} asked
 * @returns {{result: DryRun | null, edit: 'none' | DryRunAsk['state']}}
 */
export function shownDryRun(item, asked) {
  const proposed = isDryRun(item.event.dry_run) ? item.event.dry_run : null;
  const token = item.pending ? item.pending.token : null;
  if (!asked || !token || asked.token !== token) return { result: proposed, edit: "none" };
  return { result: asked.result ?? proposed, edit: asked.state };
}

/**
 * "200 → 64 rows", "6 columns" (unchanged), "4 rows (new)".
 * @param {Json} pair  [before, after]
 * @param {string} noun  'row' | 'column'
 * @returns {string | null}
 */
export function countChange(pair, noun) {
  if (!Array.isArray(pair) || pair.length !== 2) return null;
  const [before, after] = pair;
  const count = (/** @type {Json} */ n) => (typeof n === "number" ? formatCount(n) : null);
  const plural = (/** @type {Json} */ n) => `${noun}${n === 1 ? "" : "s"}`;
  if (count(after) === null) return null;
  if (count(before) === null) return `${count(after)} ${plural(after)} (new)`;
  if (before === after) return `${count(after)} ${plural(after)}`;
  return `${count(before)} → ${count(after)} ${plural(after)}`;
}

/**
 * A count as the person reads it: 1,234 (a whole number), else as formatNumber says.
 * @param {number} n
 */
export function formatCount(n) {
  return Number.isInteger(n) ? n.toLocaleString("en-US") : formatNumber(n);
}

/**
 * Whether an effect is a data-frames one (drawn as rows, columns and chips).
 * @param {Json} effect
 */
export function isFramesEffect(effect) {
  return Boolean(effect) && typeof effect === "object" && !Array.isArray(effect)
    && (Array.isArray(effect.rows) || Array.isArray(effect.columns))
    && ("frame" in effect || "into" in effect);
}

/**
 * The payload of the person's edit, or undefined while it does not parse (JSON that is not
 * JSON, a form field the form refused).
 * @param {Draft} draft
 * @returns {Json | undefined}
 */
export function editedPayload(draft) {
  if (draft.view === "json" && draft.json !== null) {
    try {
      return JSON.parse(draft.json);
    } catch {
      return undefined;
    }
  }
  return draft.local.size ? undefined : draft.value;
}

/**
 * The `undoable` trait's word for suggestion `id`: true, a reason, or null (nothing said).
 * @param {Model} model
 * @param {string} id
 * @returns {true | string | null}
 */
export function undoableOf(model, id) {
  const all = model.get("undoable");
  if (!all || typeof all !== "object" || Array.isArray(all) || !Object.hasOwn(all, id)) return null;
  const word = all[id];
  if (word === true) return true;
  return typeof word === "string" && word.trim() ? word : null;
}
