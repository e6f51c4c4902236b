// @ts-check
// Markdown-lite for the questions panel's detail text: headings, paragraphs, bullet and
// numbered lists, ``` code fences; **bold**, `code`, *emphasis* inline. The parse is pure; the
// nodes are built with textContent only (never innerHTML), so HTML in the text stays text.

import { h } from "./dom.js";

/**
 * @typedef {{type: 'h', level: number, text: string}
 *   | {type: 'p', text: string}
 *   | {type: 'ul' | 'ol', items: string[]}
 *   | {type: 'code', text: string}} Block
 * @typedef {{type: 'text' | 'strong' | 'code' | 'em', text: string}} Span
 */

/**
 * Markdown-lite blocks: headings, paragraphs, bullet / numbered lists, ``` code fences.
 * @param {unknown} text
 * @returns {Block[]}
 */
export function markdownBlocks(text) {
  /** @type {Block[]} */
  const blocks = [];
  /** @type {{type: 'p', text: string} | null} */
  let paragraph = null;
  /** @type {{type: 'ul' | 'ol', items: string[]} | null} */
  let list = null;
  /** @type {{type: 'code', text: string} | null} */
  let code = null;
  const flush = () => {
    paragraph = null;
    list = null;
  };
  for (const line of String(text ?? "").replace(/\r\n?/g, "\n").split("\n")) {
    if (code) {
      if (/^\s*```/.test(line)) code = null;
      else code.text += (code.text ? "\n" : "") + line;
      continue;
    }
    if (/^\s*```/.test(line)) {
      flush();
      code = { type: "code", text: "" };
      blocks.push(code);
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d{1,4}[.)]\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ type: "h", level: heading[1].length, text: heading[2].trim() });
    } else if (bullet || numbered) {
      const type = bullet ? "ul" : "ol";
      paragraph = null;
      if (!list || list.type !== type) {
        list = { type, items: [] };
        blocks.push(list);
      }
      list.items.push(/** @type {RegExpExecArray} */ (bullet || numbered)[1]);
    } else if (list && /^\s{2,}\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
    } else {
      list = null;
      if (!paragraph) {
        paragraph = { type: "p", text: line.trim() };
        blocks.push(paragraph);
      } else {
        paragraph.text += `\n${line.trim()}`;
      }
    }
  }
  return blocks;
}

/**
 * Inline spans of markdown-lite: **bold**, `code`, *emphasis*; everything else is text.
 * @param {string} text
 * @returns {Span[]}
 */
export function inlineSpans(text) {
  /** @type {Span[]} */
  const spans = [];
  const pattern = /\*\*([^*\n]+)\*\*|`([^`\n]+)`|\*([^*\n]+)\*/g;
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match.index > last) spans.push({ type: "text", text: text.slice(last, match.index) });
    if (match[1] !== undefined) spans.push({ type: "strong", text: match[1] });
    else if (match[2] !== undefined) spans.push({ type: "code", text: match[2] });
    else spans.push({ type: "em", text: match[3] });
    last = pattern.lastIndex;
  }
  if (last < text.length) spans.push({ type: "text", text: text.slice(last) });
  return spans;
}

/** @param {string} text @returns {Node[]} */
function inlineNodes(text) {
  return inlineSpans(text).map((span) => (span.type === "text" ? document.createTextNode(span.text)
    : h(span.type, span.type === "code" ? { className: "dial-md-code" } : {}, span.text)));
}

/**
 * Markdown-lite as DOM nodes (textContent only).
 * @param {unknown} text
 */
export function markdownNodes(text) {
  return markdownBlocks(text).map((block) => {
    switch (block.type) {
      case "h": return h("div", { className: `dial-md-h dial-md-h${Math.min(block.level, 3)}` }, inlineNodes(block.text));
      case "ul": case "ol": return h(block.type, { className: "dial-md-list" }, block.items.map((item) => h("li", {}, inlineNodes(item))));
      case "code": return h("pre", { className: "dial-code" }, h("code", {}, block.text));
      default: return h("p", { className: "dial-md-p" }, inlineNodes(block.text));
    }
  });
}
