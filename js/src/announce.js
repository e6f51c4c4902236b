// @ts-check
// What a screen reader hears of the conversation: one polite live region, fed a short line per
// change — a new entry once, a card's new status once ("Keep the rows of sales…: Done") — so a
// card redrawn in place (its status changed, an editor opened) is never read out again whole.
// The log itself is not live (aria-live="off"): its nodes are replaced as they change.
//
//   drawLog ──▶ entries (key → node) ──▶ announcer.update ──▶ "said" changed? ──▶ one line
//
// The first update (a conversation shown again, restored) is not read out: it was not a change.
// Only an entry whose node is new since the last update is read (drawLog replaces the node of
// an entry that changed): an update costs what changed, not the length of the conversation.

import { h } from "./dom.js";
import { summarise } from "./text.js";

const KEEP = 4; // lines kept in the region (older ones go; removals are not announced)

/** Who an entry is from, said before its text (so a line never just repeats the page). */
const FROM = /** @type {{[kind: string]: string}} */ ({ person: "You", inform: "Agent", delegate: "Hand-off" });

/**
 * What an entry says: a card (or a question) by its name and its status chip; anything else by
 * who it is from and its text.
 *   saidOf(card)  // "Suggestion: Keep the rows of sales where region == 'west': Done"
 * @param {Element} node
 * @param {string} [kind]  the display item's kind (items.js)
 * @returns {string}
 */
export function saidOf(node, kind = "") {
  const chip = node.querySelector(".dial-chip");
  const name = node.getAttribute("aria-label");
  if (chip && name) return `${name}: ${chip.textContent || ""}`;
  const text = summarise((node.textContent || "").replace(/\s+/g, " ").trim(), 300);
  return text && `${FROM[kind] || "Update"}: ${text}`;
}

/**
 * The live region and its memory of what each entry last said.
 *   const a = announcer(); root.append(a.node); a.update(view.nodes);
 * @returns {{node: HTMLElement, update: (entries: Map<string, {node: Element, item?: {kind: string}}>) => string[]}}
 */
export function announcer() {
  const node = h("div", { className: "dial-sr-only", "aria-live": "polite", "data-dial-announcer": "" });
  /** @type {Map<string, string>} */
  const said = new Map();
  /** @type {Map<string, Element>} the node each entry had when it was last read */
  const read = new Map();
  let first = true;
  return {
    node,
    update(entries) {
      /** @type {string[]} */
      const lines = [];
      for (const [key, entry] of entries) {
        if (read.get(key) === entry.node) continue; // not redrawn: it says what it said
        read.set(key, entry.node);
        const now = saidOf(entry.node, entry.item?.kind);
        if (!now || said.get(key) === now) continue;
        said.set(key, now);
        if (!first) lines.push(now);
      }
      if (read.size !== entries.size) forget(entries); // every key of `entries` is in `read` now
      first = false;
      for (const line of lines) node.append(h("p", {}, line));
      while (node.childNodes.length > KEEP) node.firstChild?.remove();
      return lines;
    },
  };

  /** Entries gone from the log are forgotten (back again, they are new). @param {Map<string, unknown>} entries */
  function forget(entries) {
    for (const key of [...read.keys()]) if (!entries.has(key)) read.delete(key);
    for (const key of [...said.keys()]) if (!entries.has(key)) said.delete(key);
  }
}
