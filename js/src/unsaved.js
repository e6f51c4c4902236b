// @ts-check
// What a saved notebook keeps of a ChatWidget: not its conversation. The transcript lives in the
// model (the views draw it from there), yet the widget state JupyterLab saves in the notebook
// gets none of it: the static copy right after the widget (an HTML output the kernel keeps
// current: dial_notebook/widget/_static.py) holds the conversation, every image included, once;
// it is what a notebook opened without the kernel, on GitHub or through nbconvert shows.
//
//   keepUnsaved(model) ──▶ the widget manager's model behind anywidget's `model` (found by a
//                          probe value set on it), whose get_state — what the manager saves —
//                          leaves the transcript out; reading the model is unchanged
//
// The kernel does its half: the transcript is not in the state it opens the comm with, nor in
// a reloaded page's; live.js asks for it ('sync') and adds the appends (_chat_traffic.py).

/** @typedef {import("./contract.js").Model} Model */

/** The model attributes a saved widget state leaves out. */
export const UNSAVED = ["transcript"];
/** The attribute that finds the manager's model (set a moment, then removed). */
const PROBE = "_dial_unsaved";

/**
 * A widget manager's model, as much of it as is used here.
 * @typedef {{
 *   get: (key: string) => unknown, unset: (key: string, options?: object) => unknown,
 *   get_state: (dropDefaults?: boolean) => {[key: string]: unknown},
 *   comm?: unknown, comm_live?: boolean,
 * }} ManagerModel
 */

/**
 * `backbone`'s get_state without `keys` (what a widget manager saves in the notebook).
 * @param {ManagerModel} backbone
 * @param {readonly string[]} keys
 *
 * @example
 * leaveOut(model, ["transcript"]); model.get_state(true); // {pending: {}, …}: no transcript
 */
export function leaveOut(backbone, keys) {
  const whole = backbone.get_state.bind(backbone);
  backbone.get_state = (dropDefaults) => {
    const state = { ...whole(dropDefaults) };
    for (const key of keys) delete state[key];
    return state;
  };
}

/**
 * The widget manager's model behind anywidget's `model` (a proxy of it), found by a probe value
 * set on it a moment; null when none is found (an old manager, no `_models`).
 * @param {Model} model
 * @returns {Promise<ManagerModel | null>}
 */
export async function managerModel(model) {
  const manager = /** @type {{widget_manager?: {_models?: {[id: string]: Promise<unknown>}}}} */ (
    /** @type {unknown} */ (model)).widget_manager;
  const models = manager && manager._models;
  if (!models) return null;
  const token = `${Date.now()}:${Math.random()}`;
  /** @type {any} */ (model).set(PROBE, token);
  const settled = await Promise.allSettled(Object.values(models));
  const found = settled.map((one) => (one.status === "fulfilled" ? one.value : null)).find(
    (one) => one && typeof one === "object" && typeof (/** @type {any} */ (one)).get === "function"
      && (/** @type {any} */ (one)).get(PROBE) === token);
  if (!found) {
    /** @type {any} */ (model).set(PROBE, undefined); // nothing of the probe is saved
    return null;
  }
  const backbone = /** @type {ManagerModel} */ (found);
  backbone.unset(PROBE, { silent: true });
  return backbone;
}

/**
 * The transcript of `model` left out of the widget state its manager saves, once the manager's
 * model behind it is found (none found, an old manager: saved as before).
 * @param {Model} model  anywidget's model (a proxy of the manager's)
 * @returns {Promise<boolean>} whether it was found
 */
export async function keepUnsaved(model) {
  const backbone = await managerModel(model);
  if (!backbone) return false;
  leaveOut(backbone, [...UNSAVED, PROBE]);
  return true;
}
