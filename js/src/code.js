// @ts-check
// Code as a card and the footer show it, and the collapsed parts it shares with "What it will
// do" (review.js): a toggle over a hidden region (its open state kept in view.disclosed, so a
// redraw keeps it), Copy (to the clipboard, or the text selected where that is not allowed),
// a block of code with both, and the footer's "All code" from the `code` trait.
//
//   disclosure(view, key, label, body, name) ──▶ {toggle, region, show}
//   codeBlock(view, key, code)  ──▶ "Code · n lines" (collapsed) and Copy
//   drawAllCode(view, box)      ──▶ "All code" and "Copy all code"; nothing while `code` is empty
//
// Collapsed parts are a button with aria-expanded over a hidden region, not <details> (as the
// context panel): no <details> is ever drawn, so a test can say agent text made none. Hidden
// characters in code are shown by name; Copy copies the code exactly.

import { button, h, revealedNodes, uid } from "./dom.js";

/** @typedef {import("./state.js").ViewState} ViewState */

/** How long a Copy button says "Copied". */
export const COPIED_MS = 1500;

/**
 * A toggle over a hidden region; whether it is open is kept in view.disclosed under `key`.
 * @param {ViewState} view
 * @param {string} key
 * @param {import("./dom.js").Children} label
 * @param {import("./dom.js").Children} body
 * @param {string} name  its data-dial-toggle
 */
export function disclosure(view, key, label, body, name) {
  const region = h("div", { className: "dial-disclosed", id: uid("more") }, body);
  const toggle = h("button", {
    type: "button", className: "dial-disclose", "data-dial-toggle": name,
    "aria-controls": region.id,
  }, label);
  const show = (/** @type {boolean} */ open) => {
    region.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) view.disclosed.add(key);
    else view.disclosed.delete(key);
  };
  show(view.disclosed.has(key));
  toggle.addEventListener("click", () => show(region.hidden));
  return { toggle, region, show };
}

/** @type {WeakMap<HTMLElement, ReturnType<typeof setTimeout>>} a Copy button's "Copied" */
const copiedTimers = new WeakMap();

/**
 * Put `text` on the clipboard; where that is not allowed, select `node`'s text for the person
 * to copy (and try the old copy command). The button says which happened, briefly.
 * @param {string} text
 * @param {HTMLElement} node  the text as shown
 * @param {HTMLElement} control  the button
 * @param {() => void} reveal  opens the region `node` is in
 * @param {string} label  the button's own label, put back after a moment
 * @returns {Promise<boolean>} whether the text was copied
 */
export async function copyText(text, node, control, reveal, label) {
  let copied = false;
  try {
    if (typeof navigator !== "undefined" && navigator.clipboard && navigator.clipboard.writeText) {
      await navigator.clipboard.writeText(text);
      copied = true;
    }
  } catch {
    copied = false; // not allowed here (no permission, not a secure page): select it instead
  }
  if (!copied) {
    reveal();
    const selection = typeof getSelection === "function" ? getSelection() : null;
    if (selection) {
      selection.removeAllRanges();
      selection.selectAllChildren(node);
    }
    try {
      copied = Boolean(document.execCommand && document.execCommand("copy"));
    } catch {
      copied = false;
    }
  }
  const mac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(String(navigator.userAgent || ""));
  control.textContent = copied ? "Copied" : `Selected: press ${mac ? "⌘C" : "Ctrl+C"}`;
  control.setAttribute("data-dial-copied", copied ? "copied" : "selected");
  clearTimeout(copiedTimers.get(control));
  copiedTimers.set(control, setTimeout(() => {
    control.textContent = label;
    control.removeAttribute("data-dial-copied");
  }, COPIED_MS));
  return copied;
}

/**
 * Code, collapsed under "Code" with its line count, and Copy (which copies it collapsed too).
 * Hidden characters are shown by name; Copy copies the code exactly.
 * @param {ViewState} view
 * @param {string} key  where its open state is kept
 * @param {string} code
 * @param {{label?: string, action?: string, copyLabel?: string}} [options]
 */
export function codeBlock(view, key, code, { label = "Code", action = "copy-code", copyLabel = "Copy" } = {}) {
  const text = h("code", {}, revealedNodes(code));
  const lines = code.split("\n").length;
  const { toggle, region, show } = disclosure(view, key,
    [label, h("span", { className: "dial-code-lines" }, ` · ${lines} line${lines === 1 ? "" : "s"}`)],
    h("pre", { className: "dial-code dial-code-shown", dir: "ltr" }, text), "code");
  const copy = /** @type {HTMLButtonElement} */ (button(copyLabel, action,
    () => void copyText(code, text, copy, () => show(true), copyLabel),
    { kind: "dial-copy", aria: `${copyLabel}: ${label.toLowerCase()} to the clipboard` }));
  return h("div", { className: "dial-code-block", "data-dial-code": "" },
    h("div", { className: "dial-code-bar" }, toggle, copy), region);
}

/** @type {WeakMap<HTMLElement, string>} the code each footer shows */
const drawnCode = new WeakMap();

/**
 * The footer's "All code" (collapsed) and "Copy all code", from the `code` trait; nothing
 * while it is empty. Redrawn only when the code changes.
 * @param {ViewState} view
 * @param {HTMLElement} box
 */
export function drawAllCode(view, box) {
  const raw = view.model.get("code");
  const code = typeof raw === "string" ? raw : "";
  if (drawnCode.get(box) === code) return;
  drawnCode.set(box, code);
  box.hidden = !code.trim();
  box.replaceChildren(...(code.trim() ? [codeBlock(view, "all-code", code,
    { label: "All code", action: "copy-all-code", copyLabel: "Copy all code" })] : []));
}
