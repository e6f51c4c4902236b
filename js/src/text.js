// @ts-check
// Text and URL helpers, pure (no DOM): which URLs the page may load, the characters a person
// cannot see, field paths (and JSON Pointers), labels, summaries and numbers as the cards write
// them; and the words every renderer shows (status labels, outcome lines, notes), from the one
// file the static copy and the export read too (dial_notebook/widget/wordings.json, bundled in).

import WORDINGS from "../../dial_notebook/widget/wordings.json" with { type: "json" };

export const SUMMARY_CHARS = 240;

/**
 * A status as a card's or a step's chip says it: 'done' -> 'Done'.
 * @type {{[status: string]: string}}
 */
export const STATUS_LABEL = WORDINGS.status;

/** @typedef {keyof typeof WORDINGS.words} WordKey */

/**
 * The sentence `key` as the widget says it (its own wording where the static copy's differs),
 * each `{name}` replaced by `values[name]` as it is: words("turn-limit", {turns: 8}) ->
 * 'Stopped after 8 turns (turn limit).'
 * @param {WordKey} key
 * @param {{[name: string]: unknown}} [values]
 */
export function words(key, values = {}) {
  /** @type {string | {widget: string, copy: string}} */
  const wording = WORDINGS.words[key];
  const template = typeof wording === "string" ? wording : wording.widget;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
}

/**
 * A URL the page may load, or null: http(s) always, data: only for raster images.
 * @param {unknown} text
 * @param {{image?: boolean}} [options]
 * @returns {string | null}
 */
export function safeUrl(text, { image = false } = {}) {
  if (typeof text !== "string") return null;
  let url;
  try {
    url = new URL(text.trim(), "https://invalid.example/");
  } catch {
    return null;
  }
  if (url.origin === "https://invalid.example") return null; // relative: no base to trust
  if (url.protocol === "http:" || url.protocol === "https:") return url.href;
  if (image && url.protocol === "data:" &&
      /^data:image\/(png|jpeg|gif|webp)[;,]/i.test(url.href)) return url.href;
  return null;
}

/**
 * Whether loading `url` would reach the network (anything but an inline data: URL).
 * @param {unknown} url
 */
export function isRemote(url) {
  return typeof url === "string" && !/^data:/i.test(url);
}

// The characters a person cannot see (dial_notebook/dial/_unicode.py: the same categories, and
// a test checks both sides agree): controls but tab / newline / return, format characters
// (direction controls, zero-width), line / paragraph separators, lone surrogates, variation
// selectors and the Hangul fillers.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");
const VISIBLE_CONTROLS = new Set(["\t", "\n", "\r"]);

/**
 * 'U+202E' for '\u202e'.
 * @param {string} char
 */
export function codePointName(char) {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** @typedef {{text: string, hidden?: undefined} | {hidden: string, text?: undefined}} Piece */

/**
 * Text split into plain pieces and hidden characters: [{text} | {hidden: 'U+202E'}].
 * @param {unknown} text
 * @returns {Piece[]}
 */
export function hiddenPieces(text) {
  const whole = String(text ?? "");
  /** @type {Piece[]} */
  const pieces = [];
  let last = 0;
  for (const match of whole.matchAll(HIDDEN_ALL)) {
    if (VISIBLE_CONTROLS.has(match[0])) continue;
    const index = match.index ?? 0;
    if (index > last) pieces.push({ text: whole.slice(last, index) });
    pieces.push({ hidden: codePointName(match[0]) });
    last = index + match[0].length;
  }
  if (last < whole.length) pieces.push({ text: whole.slice(last) });
  return pieces;
}

/**
 * Text with every hidden character written as its name, ⟨U+202E⟩.
 * @param {unknown} text
 */
export function revealHidden(text) {
  return hiddenPieces(text).map((p) => (p.hidden ? `⟨${p.hidden}⟩` : p.text)).join("");
}

/**
 * 'columns[1].name' from '$.columns[1].name', '/columns/1/name' or ['columns', 1, 'name'].
 * @param {unknown} field
 */
export function normalisePath(field) {
  if (Array.isArray(field)) return joinPath(field);
  let text = String(field ?? "").trim();
  if (text.startsWith("/")) {
    return joinPath(text.slice(1).split("/").filter((p) => p !== "")
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, "/").replace(/~0/g, "~"))));
  }
  if (text.startsWith("$")) text = text.slice(1);
  if (text.startsWith(".")) text = text.slice(1);
  return text;
}

/**
 * ['columns', 1, 'name'] -> 'columns[1].name'
 * @param {readonly unknown[]} parts
 */
export function joinPath(parts) {
  let out = "";
  for (const part of parts) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${part}`;
  }
  return out;
}

/**
 * A JSON Pointer (RFC 6901): ['a/b', 0, 'c~d'] -> '/a~1b/0/c~0d'; [] -> '' (the whole value).
 * @param {readonly (string | number)[]} parts
 */
export function jsonPointer(parts) {
  return parts.map((part) => `/${String(part).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/**
 * A field name as a label: 'due_date' -> 'Due date' (null and undefined pass through).
 * @template {unknown} T
 * @param {T} name
 * @returns {T extends null | undefined ? T : string}
 */
export function humanise(name) {
  if (name === undefined || name === null) return /** @type {any} */ (name);
  const text = String(name).replace(/[_-]+/g, " ").trim();
  return /** @type {any} */ (text ? text[0].toUpperCase() + text.slice(1) : text);
}

/**
 * Short, readable text for any JSON value.
 * @param {unknown} value
 * @param {number} [limit]
 */
export function summarise(value, limit = SUMMARY_CHARS) {
  let text;
  if (value === null || value === undefined) text = "";
  else if (typeof value === "string") text = value;
  else {
    try {
      text = JSON.stringify(value);
    } catch {
      text = String(value);
    }
  }
  // JSON.stringify gives undefined for a function or a symbol; the kernel sends neither
  text = /** @type {string} */ (text);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/**
 * An action's result in a few words: a flat object as "key: value, …", else compact JSON.
 * @param {unknown} value
 */
export function resultText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length && entries.length <= 6 && entries.every(([, v]) => v === null || typeof v !== "object")) {
      return summarise(entries.map(([k, v]) => `${k}: ${v}`).join(", "));
    }
  }
  return summarise(value);
}

/**
 * A number as a table shows it: whole numbers as they are, others to six significant digits.
 * @param {unknown} value
 */
export function formatNumber(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}
