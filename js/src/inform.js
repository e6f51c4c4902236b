// @ts-check
// What the agent shows, drawn: an inform by its render hint (prose, code, table, card list,
// media, chart, raw), and an action's result on its card (image, table, list, a few fields).
//
// Images follow one rule: an inline data: image (a chart) shows at once; an image on another
// host is a placeholder naming the host, fetched only when the person clicks "Load image" (a
// URL the agent chose could carry data out in its query string).

import { button, h, jsonBlock, uid } from "./dom.js";
import { resultShape, summaryOf } from "./items.js";
import { formatNumber, isRemote, safeUrl, summarise } from "./text.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").InformEvent} InformEvent */
/** @typedef {import("./contract.js").Chart} Chart */
/** @typedef {HTMLElement | null} Shown */

export const TABLE_ROWS = 300;
export const CARD_ITEMS = 100;

/** @param {Json} value */
function cellText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "object") return summarise(value, 120);
  return String(value);
}

/**
 * The rows and columns of a table payload: pandas' split orient ({columns, data, index?}), a
 * list of records, or a list of rows; null for anything else.
 * @param {Json} payload
 * @returns {{columns: string[], rows: Json[]} | null}
 */
function tableRows(payload) {
  /** @type {string[]} */
  let columns = [];
  /** @type {Json[]} */
  let rows = [];
  if (payload && !Array.isArray(payload) && Array.isArray(payload.data)) {
    columns = Array.isArray(payload.columns) ? payload.columns.map(String) : [];
    rows = payload.data;
    if (Array.isArray(payload.index) && payload.index.length === rows.length) {
      columns = ["", ...columns];
      rows = rows.map((row, i) => [payload.index[i], ...(Array.isArray(row) ? row : [row])]);
    }
  } else if (Array.isArray(payload)) {
    rows = payload;
    if (rows.some((row) => row && typeof row === "object" && !Array.isArray(row))) {
      /** @type {Set<string>} */
      const seen = new Set();
      for (const row of rows.slice(0, TABLE_ROWS)) {
        if (row && typeof row === "object" && !Array.isArray(row)) {
          for (const key of Object.keys(row)) seen.add(key);
        }
      }
      columns = [...seen];
      rows = rows.map((row) => (row && typeof row === "object" && !Array.isArray(row)
        ? columns.map((c) => row[c]) : [row]));
    }
  } else {
    return null;
  }
  return { columns, rows };
}

/**
 * A table (its first TABLE_ROWS rows, then "+N more rows"), or null if `payload` is not one;
 * its scrolling region is named `name` (its caption), so a screen reader can tell tables apart.
 *   tableOf({columns: ["a"], data: [[1]]}, "sales · 1 row")
 * @param {Json} payload
 * @param {string} [name]
 * @returns {HTMLElement[] | null}
 */
export function tableOf(payload, name = "") {
  const parsed = tableRows(payload);
  if (!parsed) return null;
  const { columns, rows } = parsed;
  const shown = rows.slice(0, TABLE_ROWS);
  const table = h("table", { className: "dial-table" });
  if (columns.length) {
    table.append(h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col" }, c)))));
  }
  const body = h("tbody");
  for (const row of shown) {
    body.append(h("tr", {}, (Array.isArray(row) ? row : [row]).map((v) =>
      h("td", { className: typeof v === "number" ? "dial-num" : "" }, cellText(v)))));
  }
  table.append(body);
  const wrap = h("div", { className: "dial-table-wrap", tabindex: "0", role: "region", "aria-label": tableName(name, columns) }, table);
  const more = rows.length - shown.length;
  return more > 0 ? [wrap, h("div", { className: "dial-more" }, `+${more} more rows`)] : [wrap];
}

/**
 * A table's accessible name: its caption (one line, at most 80 characters), else its columns.
 * @param {string} name
 * @param {Json[]} columns
 */
function tableName(name, columns) {
  const said = summarise(String(name || "").replace(/\s+/g, " ").trim(), 80);
  if (said) return `Table: ${said}`;
  return columns.length ? `Table of ${summarise(columns.map(String).join(", "), 80)}` : "Table";
}

/**
 * An image. A data: image (a chart) shows at once; one on another host is fetched only when
 * the person clicks "Load image": a URL the agent chose could carry data out (a query string
 * with a secret), so nothing is requested until then.
 * @param {Json} item
 * @returns {HTMLElement}
 */
function imageOf(item) {
  const src = typeof item === "string" ? item : item && (item.src || item.url);
  const alt = item && typeof item === "object" ? item.alt || item.title || "" : "";
  const safe = safeUrl(src, { image: true });
  if (!safe) return h("div", { className: "dial-blocked" }, `Image not shown (unsafe or missing URL): ${summarise(src, 80)}`);
  const figure = () => h("figure", { className: "dial-figure" },
    h("img", { src: safe, alt: String(alt), referrerpolicy: "no-referrer" }),
    alt ? h("figcaption", {}, String(alt)) : null);
  if (!isRemote(safe)) return figure();
  const host = new URL(safe).host;
  const box = h("div", { className: "dial-remote", "data-dial-remote": host },
    h("span", { className: "dial-remote-text" },
      `Image from ${host}${alt ? ` (${summarise(String(alt), 60)})` : ""} — not loaded: loading it contacts that server.`));
  box.append(button("Load image", "load-image", () => box.replaceWith(figure()),
    { aria: `Load the image from ${host}` }));
  return box;
}

/**
 * An action's result on its card: its image, table or list, readable (see resultShape).
 * @param {Json} result
 * @returns {Shown[]}
 */
export function resultNodes(result) {
  if (result && typeof result === "object" && !Array.isArray(result) && result.vega_lite
      && typeof result.vega_lite === "object") {
    return chartOf(result.chart, result.vega_lite);
  }
  const shape = resultShape(result);
  const caption = (/** @type {string} */ text) => (text ? h("div", { className: "dial-result-caption" }, text) : null);
  switch (shape.kind) {
    case "media":
      return [caption(shape.caption), ...shape.items.slice(0, 20).map(imageOf)];
    case "table": {
      const { table } = shape;
      const total = Number(table.total_rows);
      const note = Number.isFinite(total) && total > table.rows.length
        ? `The first ${table.rows.length} of ${total} rows` : "";
      const said = [shape.caption, note].filter(Boolean).join(" · ");
      return [caption(said), ...(tableOf({ columns: table.columns, data: table.rows }, said) || [])];
    }
    case "list": {
      const items = shape.items;
      const objects = items.some((item) => item && typeof item === "object" && !Array.isArray(item));
      const body = objects ? tableOf(items, shape.caption) || [] : [h("ul", { className: "dial-result-list" },
        items.slice(0, CARD_ITEMS).map((item) => h("li", {}, cellText(item))))];
      const more = !objects && items.length > CARD_ITEMS
        ? h("div", { className: "dial-more" }, `+${items.length - CARD_ITEMS} more`) : null;
      const head = items.length ? `${shape.caption} (${items.length})` : `${shape.caption}: none`;
      return [caption([head, shape.extra].filter(Boolean).join(" · ")), ...(items.length ? body : []), more];
    }
    case "fields": {
      // a field of several lines (a command's output, git status) keeps its lines
      const lines = Object.entries(/** @type {{[key: string]: Json}} */ (result))
        .filter(([, v]) => typeof v === "string" && v.includes("\n"));
      if (!lines.length) return [h("span", { className: "dial-result" }, ` — ${shape.text}`)];
      const rest = Object.entries(/** @type {{[key: string]: Json}} */ (result)).filter(([, v]) => !(typeof v === "string" && v.includes("\n")));
      return [caption(summaryOf(/** @type {{[key: string]: Json}} */ (result)) ?? rest.map(([k, v]) => `${k}: ${v}`).join(", ")),
        ...lines.map(([k, v]) => h("pre", { className: "dial-output dial-mono", "data-dial-result-field": k }, summarise(v, 4000)))];
    }
    case "text":
      return [h("span", { className: "dial-result" }, ` — ${shape.text}`)];
    default:
      return [];
  }
}

/**
 * A card list (title, up to 8 fields, a link opened only on a click), or null.
 * @param {Json} payload
 * @returns {HTMLElement[] | null}
 */
function cardListOf(payload) {
  const list = Array.isArray(payload) ? payload : payload && Array.isArray(payload.items) ? payload.items : null;
  if (!list) return null;
  const box = h("ul", { className: "dial-card-list" });
  for (const item of list.slice(0, CARD_ITEMS)) {
    if (!item || typeof item !== "object") {
      box.append(h("li", { className: "dial-mini-card" }, cellText(item)));
      continue;
    }
    const title = item.title ?? item.name ?? item.label ?? item.id;
    const rest = Object.entries(item).filter(([k]) => !["title", "name", "label", "url", "image"].includes(k));
    const link = safeUrl(item.url);
    box.append(h("li", { className: "dial-mini-card" },
      title !== undefined ? h("div", { className: "dial-mini-title" }, cellText(title)) : null,
      h("dl", {}, rest.slice(0, 8).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, cellText(v))])),
      link ? h("a", { href: link, target: "_blank", rel: "noopener noreferrer nofollow" }, "Open link") : null));
  }
  const more = list.length - Math.min(list.length, CARD_ITEMS);
  return more > 0 ? [box, h("div", { className: "dial-more" }, `+${more} more`)] : [box];
}

/**
 * An inform's body by its render hint; a payload the hint cannot show is shown as JSON.
 * @param {InformEvent} event
 * @returns {Shown[]}
 */
function informBody(event) {
  const hint = String(event.render || "prose");
  const text = typeof event.text === "string" ? event.text : "";
  const hasPayload = event.payload !== undefined && event.payload !== null;
  const payload = event.payload;
  const prose = text ? h("div", { className: "dial-prose" }, text) : null;
  switch (hint) {
    case "prose":
      return [prose ?? (hasPayload ? jsonBlock(payload) : h("div"))];
    case "code":
    case "diagram": {
      const code = hasPayload ? (typeof payload === "string" ? payload : JSON.stringify(payload, null, 2)) : text;
      return [hasPayload && text ? prose : null,
        h("pre", { className: "dial-code" }, h("code", {}, code))];
    }
    case "table": {
      const table = hasPayload ? tableOf(payload, text) : null;
      return [prose, ...(table ?? (hasPayload ? [jsonBlock(payload)] : []))];
    }
    case "card-list": {
      const cards = hasPayload ? cardListOf(payload) : null;
      return [prose, ...(cards ?? (hasPayload ? [jsonBlock(payload)] : []))];
    }
    case "media": {
      const source = hasPayload ? payload : text;
      const items = Array.isArray(source) ? source : [source];
      return [hasPayload ? prose : null, ...items.slice(0, 20).map(imageOf)];
    }
    case "chart":
      return [prose, ...(event.chart ? chartOf(event.chart, payload) : chartNodes(payload, text, hasPayload))];
    case "raw":
      return [prose, hasPayload ? jsonBlock(payload) : null];
    default:
      return [prose, hasPayload ? jsonBlock(payload) : null];
  }
}

/**
 * A Vega-Lite chart as the kernel drew it (widget/_vegalite.py: the PNG at its size), or why it
 * was not drawn with the spec under a toggle; no chart at all (a transcript the kernel did not
 * draw): a note and the spec. The spec itself never runs here.
 * @param {Chart | undefined} chart
 * @param {Json} spec
 * @returns {Shown[]}
 */
function chartOf(chart, spec) {
  const drawn = chart && "src" in chart ? safeUrl(chart.src, { image: true }) : null;
  if (chart && "src" in chart && drawn && !isRemote(drawn)) {
    const px = (/** @type {unknown} */ n) => (typeof n === "number" && n > 0 ? Math.min(Math.round(n), 4000) : null);
    return [h("figure", { className: "dial-figure dial-chart", "data-dial-chart": "drawn" },
      h("img", { src: drawn, alt: String(chart.alt || "A chart"), width: px(chart.width), height: px(chart.height) }))];
  }
  const why = chart && "error" in chart ? String(chart.error) : "Vega-Lite chart (not drawn here)";
  return [h("div", { className: "dial-note dial-chart-error", "data-dial-chart": "not-drawn" }, why),
    specToggle(spec)];
}

/**
 * A chart's spec, collapsed under a toggle until the person opens it.
 * @param {Json} spec
 */
function specToggle(spec) {
  const region = h("div", { className: "dial-disclosed", id: uid("spec"), hidden: true }, jsonBlock(spec));
  const toggle = h("button", {
    type: "button", className: "dial-disclose", "data-dial-toggle": "chart-spec",
    "aria-controls": region.id, "aria-expanded": "false",
  }, "Vega-Lite specification");
  toggle.addEventListener("click", () => {
    region.hidden = !region.hidden;
    toggle.setAttribute("aria-expanded", String(!region.hidden));
  });
  return h("div", { className: "dial-chart-spec" }, toggle, region);
}

/**
 * A chart: a data: image, {png, alt}, or a Vega-Lite spec (shown as its specification).
 * @param {Json} payload
 * @param {string} text
 * @param {boolean} hasPayload
 * @returns {Shown[]}
 */
function chartNodes(payload, text, hasPayload) {
  if (typeof payload === "string" && payload.startsWith("data:image/")) return [imageOf(payload)];
  if (payload && typeof payload === "object" && typeof payload.png === "string") {
    return [imageOf({ src: `data:image/png;base64,${payload.png}`, alt: payload.alt || text || "chart" })];
  }
  if (payload && typeof payload === "object" && (payload.mark || String(payload.$schema || "").includes("vega"))) {
    return [h("div", { className: "dial-note" }, "Vega-Lite chart (shown as its specification)"), jsonBlock(payload)];
  }
  return [hasPayload ? jsonBlock(payload) : null];
}

/**
 * An inform in the log: a skipped element's note, a message for someone else, or the body.
 * @param {InformEvent} event
 */
export function informNode(event) {
  if (event.act === "skipped") {
    return h("div", { className: "dial-note dial-skipped", "data-dial-skipped": String(event.id ?? event.element ?? "") },
      String(event.text || "Skipped."));
  }
  if (event.act === "addressed-elsewhere") {
    return h("div", { className: "dial-elsewhere", "data-dial-elsewhere": String(event.addressed_to ?? "") },
      h("div", { className: "dial-note" }, `For ${String(event.addressed_to || "someone else")} — not acted on here:`),
      h("div", { className: "dial-elsewhere-text" }, String(event.text || "")));
  }
  const ack = event.act === "acknowledge";
  return h("div", {
    className: `dial-inform${ack ? " dial-ack" : ""}`, "data-dial-inform": "",
    "data-dial-render": String(event.render || "prose"),
  }, informBody(event));
}
