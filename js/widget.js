// The ChatWidget's front end: renders one DIAL conversation from the model's synced traits and
// turns the person's clicks into custom messages. Plain ES module, no framework, no build step.
//
//   traits in:  transcript (events + the person's words), pending ({kind, token, …}),
//               thinking, running, schemas (JSON Schema per action), title
//   messages out: {type: 'decide', token, decision: 'accept'|'dismiss'|'edit', payload?}
//                 {type: 'answer', token, value | file (+ one buffer)}
//                 {type: 'say', text}   {type: 'retry'}   {type: 'ping', id} (answered by
//                 {type: 'pong', id}: after ipywidgets says the comm changed, no pong within
//                 PING_MS means the kernel restarted — the widget then says so, disabled)
//   ask_user's panel (see the 'questions panel' section): traits questions ({token,
//               questions}) and provider_note; message out {type: 'questions', token, answers}
//
// Schema v0.1 at run time (a full_dial conversation): an execute block is a suggestion card
// with kind 'execute' (its steps' commands shown monospace with env and label; step outcomes
// carry `block` and attach to it); 'declare' events fill a small context panel; 'phatic'
// typing / thinking light the indicator while a say runs; 'delegate' shows the hand-off;
// informs with act 'skipped' / 'addressed-elsewhere' are notes.
//
// Agent text is untrusted: every string reaches the page through textContent or an attribute
// set by setAttribute on an element this module created; URLs pass safeUrl() first.

const TABLE_ROWS = 300;
const CARD_ITEMS = 100;
const SUMMARY_CHARS = 240;
const MAX_UPLOAD = 50 * 1024 * 1024;
const PING_MS = 5000;

const STATUS_LABEL = {
  pending: "Waiting for you",
  proposed: "Proposed",
  done: "Done",
  failed: "Failed",
  dismissed: "Dismissed",
  superseded: "Superseded",
  "handed-off": "Handed off",
  invalid: "Invalid",
  skipped: "Skipped",
  confirmed: "Confirmed",
  running: "Running",
};

// ---- small pure helpers (exported for node:test) -------------------------------------------

/** A URL the page may load, or null: http(s) always, data: only for raster images. */
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

// The characters a person cannot see (dial_notebook/dial/_unicode.py: the same categories, and
// a test checks both sides agree): controls but tab / newline / return, format characters
// (direction controls, zero-width), line / paragraph separators, lone surrogates, variation
// selectors and the Hangul fillers.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");
const VISIBLE_CONTROLS = new Set(["\t", "\n", "\r"]);

/** 'U+202E' for '\u202e'. */
export function codePointName(char) {
  return `U+${char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Text split into plain pieces and hidden characters: [{text} | {hidden: 'U+202E'}]. */
export function hiddenPieces(text) {
  const pieces = [];
  let last = 0;
  for (const match of String(text ?? "").matchAll(HIDDEN_ALL)) {
    if (VISIBLE_CONTROLS.has(match[0])) continue;
    if (match.index > last) pieces.push({ text: text.slice(last, match.index) });
    pieces.push({ hidden: codePointName(match[0]) });
    last = match.index + match[0].length;
  }
  if (last < String(text ?? "").length) pieces.push({ text: String(text).slice(last) });
  return pieces;
}

/** Text with every hidden character written as its name, ⟨U+202E⟩. */
export function revealHidden(text) {
  return hiddenPieces(text).map((p) => (p.hidden ? `⟨${p.hidden}⟩` : p.text)).join("");
}

/** 'columns[1].name' from '$.columns[1].name', '/columns/1/name' or ['columns', 1, 'name']. */
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

/** ['columns', 1, 'name'] -> 'columns[1].name' */
export function joinPath(parts) {
  let out = "";
  for (const part of parts) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${part}`;
  }
  return out;
}

/** A field name as a label: 'due_date' -> 'Due date'. */
export function humanise(name) {
  if (name === undefined || name === null) return name;
  const text = String(name).replace(/[_-]+/g, " ").trim();
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Short, readable text for any JSON value. */
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
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** An action's result in a few words: a flat object as "key: value, …", else compact JSON. */
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

/** A number as a table shows it: whole numbers as they are, others to six significant digits. */
export function formatNumber(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}

/** How an action's result is best shown: {kind: 'media'|'table'|'list'|'fields'|'text', …}.
 *  A result is the domain's own (the person sees its image in full; only the agent's copy of a
 *  long data: URL is shortened). */
export function resultShape(result) {
  if (result === null || result === undefined || result === "") return { kind: "none" };
  if (typeof result !== "object") return { kind: "text", text: String(result) };
  if (Array.isArray(result)) return { kind: "list", items: result, caption: "" };
  const scalars = Object.entries(result).filter(([, v]) => v === null || typeof v !== "object");
  const caption = scalars.map(([k, v]) => `${k}: ${v}`).join(", ");
  if (Array.isArray(result.media) && result.media.length) {
    return { kind: "media", items: result.media, caption };
  }
  const table = result.table;
  if (table && typeof table === "object" && Array.isArray(table.columns) && Array.isArray(table.rows)) {
    return { kind: "table", table, caption };
  }
  const lists = Object.entries(result).filter(([, v]) => Array.isArray(v));
  if (lists.length === 1 && Object.keys(result).length - scalars.length === 1) {
    const [name, items] = lists[0];
    const plain = items.every((item) => item === null || typeof item !== "object");
    const inline = plain ? items.map(String).join(", ") : "";
    if (plain && inline.length <= 200) {  // a few names: one line, not a bullet list
      return { kind: "fields", text: [caption, `${name}: ${inline}`].filter(Boolean).join(", ") };
    }
    return { kind: "list", items, caption: humanise(name), extra: caption };
  }
  if (scalars.length === Object.keys(result).length) return { kind: "fields", text: resultText(result) };
  return { kind: "text", text: summarise(result) };
}

/** The conversation as display items: cards get their outcome, answers join their question. */
export function itemsOf(transcript, pending) {
  const items = [];
  const cards = new Map(); // suggestion id -> latest card item
  const asks = new Map(); // transcript index -> ask item
  transcript.forEach((event, index) => {
    if (!event || typeof event !== "object") return;
    switch (event.type) {
      case "person": {
        const ask = asks.get(event.answer_to);
        if (ask && ask.answer === undefined) ask.answer = event.text;
        else items.push({ kind: "person", key: `p${index}`, event });
        break;
      }
      case "inform": {
        // an acknowledge of a proposal is shown with its card, not as a reply to what the
        // person wrote since (it is about the card)
        const card = event.act === "acknowledge" && event.of !== undefined && event.of !== null
          ? cards.get(String(event.of)) : null;
        if (card) card.acks.push(event);
        else items.push({ kind: "inform", key: `i${index}`, event });
        break;
      }
      case "ask": {
        const item = { kind: "ask", key: `a${index}`, index, event };
        asks.set(index, item);
        items.push(item);
        break;
      }
      case "suggestion": {
        const item = { kind: "suggestion", key: `s${index}`, index, event, outcome: null, steps: new Map(), acks: [] };
        cards.set(String(event.id), item);
        items.push(item);
        break;
      }
      case "outcome": {
        const block = event.block !== undefined && event.block !== null ? cards.get(String(event.block)) : null;
        const card = cards.get(String(event.id));
        if (block && block.event.kind === "execute") block.steps.set(String(event.id), event);
        else if (card && !card.outcome && !card.steps.size) card.outcome = event;
        else if (event.status !== "skipped") items.push({ kind: "status", key: `o${index}`, event });
        // a skipped proposal without a card of its own: its 'skipped' note already says why
        break;
      }
      case "delegate":
        items.push({ kind: "delegate", key: `d${index}`, event });
        break;
      case "no-reply":
        items.push({ kind: "no-reply", key: `n${index}`, index, event });
        break;
      case "turn-limit":
      case "error":
        items.push({ kind: "status", key: `x${index}`, event });
        break;
      default:
        break; // sent / reply: the raw wire, not shown
    }
  });
  const last = items.length ? items[items.length - 1] : null;
  for (const item of items) {
    if (item.kind === "no-reply") item.retry = item === last;
    if (item.kind === "suggestion") {
      const waiting = pending && pending.kind === "decide" &&
        String(pending.id) === String(item.event.id) && cards.get(String(pending.id)) === item;
      item.pending = waiting ? pending : null;
      item.status = item.outcome ? String(item.outcome.status) : waiting ? "pending"
        : item.event.kind === "execute" ? blockStatus(item) : "proposed";
    }
    if (item.kind === "ask") {
      item.pending = pending && pending.kind === "answer" && pending.index === item.index
        ? pending : null;
    }
  }
  return items;
}

/** An execute block's status from its steps' outcomes: running, then done or failed. */
function blockStatus(item) {
  const steps = (item.event.payload && item.event.payload.steps) || [];
  if (!item.steps.size) return item.event.confirmed ? "confirmed" : "proposed";
  if (item.steps.size < steps.length) return "running";
  return [...item.steps.values()].every((o) => o.status === "done") ? "done" : "failed";
}

/** The session context the agent declared: [key, value] pairs, a later declare winning. */
export function contextOf(transcript) {
  const context = new Map();
  for (const event of transcript) {
    if (event && event.type === "declare" && typeof event.key === "string") {
      context.delete(event.key);
      context.set(event.key, event.value);
    }
  }
  return [...context.entries()];
}

/** 'typing' or 'thinking' when the latest reply's phatic signals leave one on, else null. */
export function agentSignal(transcript) {
  for (let index = transcript.length - 1; index >= 0; index -= 1) {
    const event = transcript[index];
    if (!event || typeof event !== "object") continue;
    if (event.type === "reply" || event.type === "sent") return null;
    if (event.type !== "phatic") continue;
    if (event.signal === "typing" || event.signal === "thinking") return event.signal;
    if (event.signal === "done-typing") return null;
  }
  return null;
}

// ---- DOM helpers -----------------------------------------------------------------------------

function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "className") node.className = value;
    else if (name === "text") node.textContent = String(value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === "value") node.value = value;
    else if (name === "checked") node.checked = Boolean(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Text as DOM nodes with every hidden character shown as a marked ⟨U+202E⟩. */
function revealedNodes(text) {
  return hiddenPieces(text).map((piece) => (piece.hidden
    ? h("span", { className: "dial-hidden-char", title: `Invisible character ${piece.hidden}` }, `⟨${piece.hidden}⟩`)
    : document.createTextNode(piece.text)));
}

function button(label, action, onClick, { kind = "", aria, disabled } = {}) {
  return h("button", {
    type: "button",
    className: `dial-button ${kind}`.trim(),
    "data-dial-action": action,
    "aria-label": aria,
    disabled,
    onClick,
  }, label);
}

let uniqueIds = 0;
function uid(prefix) {
  uniqueIds += 1;
  return `dial-${prefix}-${uniqueIds}`;
}

// ---- JSON Schema form ----------------------------------------------------------------------

function resolveSchema(schema, root, depth = 0) {
  if (!schema || typeof schema !== "object" || depth > 20) return schema || {};
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/")) {
    let target = root;
    for (const part of schema.$ref.slice(2).split("/")) {
      target = target && typeof target === "object" ? target[part] : undefined;
    }
    return resolveSchema(target, root, depth + 1);
  }
  return schema;
}

function typeOf(schema) {
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== "null") ?? type[0];
  if (!type && Array.isArray(schema.enum)) return "enum";
  if (!type && schema.properties) return "object";
  if (!type && schema.items) return "array";
  return type;
}

function defaultFor(schema, root) {
  const s = resolveSchema(schema, root);
  if ("default" in s) return structuredClone(s.default);
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  switch (typeOf(s)) {
    case "object": {
      const out = {};
      for (const name of s.required || []) {
        if (s.properties && s.properties[name]) out[name] = defaultFor(s.properties[name], root);
      }
      return out;
    }
    case "array": return [];
    case "boolean": return false;
    case "number": case "integer": return 0;
    default: return "";
  }
}

/** A form for `schema` editing `draft.value`; calls onChange() after every edit. */
function buildForm(schema, draft, onChange) {
  const root = schema;
  const fields = new Map(); // path -> field wrapper

  const setAt = (parts, value) => {
    if (parts.length === 0) {
      draft.value = value;
      return;
    }
    let target = draft.value;
    for (const part of parts.slice(0, -1)) target = target[part];
    target[parts[parts.length - 1]] = value;
  };

  const field = (rawSchema, value, parts, label, required) => {
    const s = resolveSchema(rawSchema, root);
    const path = joinPath(parts);
    const id = uid("field");
    const wrap = h("div", { className: "dial-field", "data-dial-path": path });
    fields.set(path, wrap);
    const title = s.title || humanise(label);
    const labelNode = title !== undefined && title !== ""
      ? h("label", { className: "dial-field-label", for: id },
        String(title), required ? h("span", { className: "dial-required", "aria-hidden": "true" }, " *") : null)
      : null;
    const describe = s.description
      ? h("div", { className: "dial-field-help", id: `${id}-help` }, String(s.description)) : null;
    const type = Array.isArray(s.enum) ? "enum" : typeOf(s);

    if (type === "object" && s.properties && value && typeof value === "object" && !Array.isArray(value)) {
      const box = h("fieldset", { className: "dial-fieldset" },
        parts.length ? h("legend", {}, String(title ?? "")) : null);
      const requiredNames = new Set(s.required || []);
      for (const [name, child] of Object.entries(s.properties)) {
        if (!(name in value) && !requiredNames.has(name)) {
          // optional and absent: offer it, unset
          const add = button(`+ ${resolveSchema(child, root).title || humanise(name)}`, "add-field", () => {
            value[name] = defaultFor(child, root);
            onChange({ rebuild: true });
          }, { kind: "dial-link", aria: `Add ${name}` });
          box.append(h("div", { className: "dial-field dial-field-absent", "data-dial-path": joinPath([...parts, name]) }, add));
          continue;
        }
        box.append(field(child, value[name], [...parts, name], name, requiredNames.has(name)));
      }
      wrap.append(box);
      return wrap;
    }
    if (type === "array" && Array.isArray(value)) {
      const itemSchema = s.items && !Array.isArray(s.items) ? s.items : {};
      const box = h("fieldset", { className: "dial-fieldset dial-array" },
        h("legend", {}, String(title ?? "items")));
      value.forEach((item, index) => {
        const row = h("div", { className: "dial-array-row" },
          field(itemSchema, item, [...parts, index], `${index + 1}`, false),
          button("✕", "remove-item", () => {
            value.splice(index, 1);
            onChange({ rebuild: true });
          }, { kind: "dial-icon", aria: `Remove item ${index + 1} of ${title ?? "the list"}` }));
        box.append(row);
      });
      box.append(button("+ Add", "add-item", () => {
        value.push(defaultFor(itemSchema, root));
        onChange({ rebuild: true, focus: joinPath([...parts, value.length - 1]) });
      }, { kind: "dial-link", aria: `Add an item to ${title ?? "the list"}` }));
      wrap.append(box);
      return wrap;
    }
    let input;
    if (type === "enum") {
      input = h("select", { id, className: "dial-input" });
      s.enum.forEach((option, index) => {
        const node = h("option", { value: String(index) }, option === null ? "—" : String(option));
        if (JSON.stringify(option) === JSON.stringify(value)) node.selected = true;
        input.append(node);
      });
      input.addEventListener("change", () => {
        setAt(parts, structuredClone(s.enum[Number(input.value)]));
        onChange({});
      });
    } else if (type === "boolean") {
      input = h("input", { id, type: "checkbox", className: "dial-checkbox", checked: value === true });
      input.addEventListener("change", () => {
        setAt(parts, input.checked);
        onChange({});
      });
    } else if (type === "number" || type === "integer") {
      input = h("input", {
        id, type: "text", inputmode: type === "integer" ? "numeric" : "decimal",
        className: "dial-input dial-input-number", value: value === undefined || value === null ? "" : String(value),
      });
      input.addEventListener("input", () => {
        const text = input.value.trim();
        const number = Number(text);
        const ok = text !== "" && Number.isFinite(number) && (type !== "integer" || Number.isInteger(number));
        draft.local.delete(path);
        if (ok) setAt(parts, number);
        else draft.local.set(path, type === "integer" ? "Enter a whole number." : "Enter a number.");
        showLocal(wrap, input, draft.local.get(path));
        onChange({});
      });
    } else if (type === "string" || (type === undefined && typeof value === "string")) {
      const long = (s.maxLength ?? 0) > 200 || s.format === "textarea" ||
        (typeof value === "string" && (value.includes("\n") || value.length > 80));
      input = long
        ? h("textarea", { id, className: "dial-input", rows: "3" })
        : h("input", { id, type: "text", className: "dial-input" });
      input.value = value === undefined || value === null ? "" : String(value);
      input.addEventListener("input", () => {
        setAt(parts, input.value);
        onChange({});
      });
    } else {
      // anything the form does not cover: this part edited as JSON
      input = h("textarea", { id, className: "dial-input dial-mono", rows: "3" });
      input.value = JSON.stringify(value ?? null, null, 2);
      input.addEventListener("input", () => {
        draft.local.delete(path);
        try {
          setAt(parts, JSON.parse(input.value));
        } catch {
          draft.local.set(path, "Not valid JSON.");
        }
        showLocal(wrap, input, draft.local.get(path));
        onChange({});
      });
    }
    if (describe) input.setAttribute("aria-describedby", describe.id);
    if (!labelNode) input.setAttribute("aria-label", String(label ?? "value"));
    const pieces = type === "boolean" ? [h("div", { className: "dial-check-row" }, input, labelNode), describe]
      : [labelNode, input, describe];
    wrap.append(...pieces.filter(Boolean));
    return wrap;
  };

  const form = h("div", { className: "dial-form" }, field(schema, draft.value, [], "", false));
  return { form, fields };
}

function showLocal(wrap, input, message) {
  let note = wrap.querySelector(":scope > .dial-local-error");
  if (!message) {
    if (note) note.remove();
    if (!wrap.querySelector(":scope > .dial-field-error")) input.removeAttribute("aria-invalid");
    return;
  }
  if (!note) {
    note = h("div", { className: "dial-local-error", role: "alert", id: uid("err") });
    wrap.append(note);
  }
  note.textContent = message;
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", note.id);
}

function formSupported(schema) {
  if (!schema || typeof schema !== "object") return false;
  const s = resolveSchema(schema, schema);
  return typeOf(s) === "object" && s.properties && typeof s.properties === "object";
}

// ---- informs -----------------------------------------------------------------------------------

function cellText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "object") return summarise(value, 120);
  return String(value);
}

function tableOf(payload) {
  let columns = [];
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
  const wrap = h("div", { className: "dial-table-wrap", tabindex: "0", role: "region", "aria-label": "Table" }, table);
  const more = rows.length - shown.length;
  return more > 0 ? [wrap, h("div", { className: "dial-more" }, `+${more} more rows`)] : [wrap];
}

/** Whether loading `url` would reach the network (anything but an inline data: URL). */
export function isRemote(url) {
  return typeof url === "string" && !/^data:/i.test(url);
}

/** An image. A data: image (a chart) shows at once; one on another host is fetched only when
 *  the person clicks "Load image": a URL the agent chose could carry data out (a query string
 *  with a secret), so nothing is requested until then. */
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

/** An action's result on its card: its image, table or list, readable (see resultShape). */
function resultNodes(result) {
  const shape = resultShape(result);
  const caption = (text) => (text ? h("div", { className: "dial-result-caption" }, text) : null);
  switch (shape.kind) {
    case "media":
      return [caption(shape.caption), ...shape.items.slice(0, 20).map(imageOf)];
    case "table": {
      const { table } = shape;
      const total = Number(table.total_rows);
      const note = Number.isFinite(total) && total > table.rows.length
        ? `The first ${table.rows.length} of ${total} rows` : "";
      return [caption([shape.caption, note].filter(Boolean).join(" · ")),
        ...(tableOf({ columns: table.columns, data: table.rows }) || [])];
    }
    case "list": {
      const items = shape.items;
      const objects = items.some((item) => item && typeof item === "object" && !Array.isArray(item));
      const body = objects ? tableOf(items) || [] : [h("ul", { className: "dial-result-list" },
        items.slice(0, CARD_ITEMS).map((item) => h("li", {}, cellText(item))))];
      const more = !objects && items.length > CARD_ITEMS
        ? h("div", { className: "dial-more" }, `+${items.length - CARD_ITEMS} more`) : null;
      const head = items.length ? `${shape.caption} (${items.length})` : `${shape.caption}: none`;
      return [caption([head, shape.extra].filter(Boolean).join(" · ")), ...(items.length ? body : []), more];
    }
    case "fields":
    case "text":
      return [h("span", { className: "dial-result" }, ` — ${shape.text}`)];
    default:
      return [];
  }
}

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

function jsonBlock(value) {
  let text;
  try {
    text = JSON.stringify(value, null, 2);
  } catch {
    text = String(value);
  }
  if (text && text.length > 20000) text = `${text.slice(0, 20000)}\n…`;
  return h("pre", { className: "dial-code" }, h("code", {}, text ?? ""));
}

function informBody(event) {
  const render = String(event.render || "prose");
  const text = typeof event.text === "string" ? event.text : "";
  const hasPayload = event.payload !== undefined && event.payload !== null;
  const payload = event.payload;
  const prose = text ? h("div", { className: "dial-prose" }, text) : null;
  switch (render) {
    case "prose":
      return [prose ?? (hasPayload ? jsonBlock(payload) : h("div"))];
    case "code":
    case "diagram": {
      const code = hasPayload ? (typeof payload === "string" ? payload : JSON.stringify(payload, null, 2)) : text;
      return [hasPayload && text ? prose : null,
        h("pre", { className: "dial-code" }, h("code", {}, code))];
    }
    case "table": {
      const table = hasPayload ? tableOf(payload) : null;
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
    case "chart": {
      if (typeof payload === "string" && payload.startsWith("data:image/")) return [prose, imageOf(payload)];
      if (payload && typeof payload === "object" && typeof payload.png === "string") {
        return [prose, imageOf({ src: `data:image/png;base64,${payload.png}`, alt: payload.alt || text || "chart" })];
      }
      if (payload && typeof payload === "object" && (payload.mark || String(payload.$schema || "").includes("vega"))) {
        return [prose, h("div", { className: "dial-note" }, "Vega-Lite chart (shown as its specification)"), jsonBlock(payload)];
      }
      return [prose, hasPayload ? jsonBlock(payload) : null];
    }
    case "raw":
      return [prose, hasPayload ? jsonBlock(payload) : null];
    default:
      return [prose, hasPayload ? jsonBlock(payload) : null];
  }
}

// ---- questions panel (ask_user) ----------------------------------------------------------------
// The chat widget as the provider of dial_notebook.interaction: every question of one request in
// one panel (trait `questions` = {token, questions: [...]}), answered with one custom message
//   {type: 'questions', token, answers: [{id, selected: [labels], custom?}]}
// A skipped question answers with no label and no custom text. `provider_note` (a string) says
// when this widget is not the provider. Detail text is markdown-lite built as DOM nodes (never
// innerHTML). Option rows share their look (.dial-choice) with the <dial-ask> choice card.

/** Markdown-lite blocks: headings, paragraphs, bullet / numbered lists, ``` code fences. */
export function markdownBlocks(text) {
  const blocks = [];
  let paragraph = null;
  let list = null;
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
      list.items.push((bullet || numbered)[1]);
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

/** Inline spans of markdown-lite: **bold**, `code`, *emphasis*; everything else is text. */
export function inlineSpans(text) {
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

/** A question's state in the panel: answered (labels or text), skipped, or still open. */
export function questionState(question, draft) {
  if (draft.skipped) return "skipped";
  const other = String(draft.other || "").trim();
  const options = question.options || [];
  if (!options.length) return other ? "answered" : "open";
  if (question.multi_select) return draft.selected.length || other ? "answered" : "open";
  if (draft.otherOn) return other ? "answered" : "open";
  return draft.selected.length === 1 ? "answered" : "open";
}

/** The answer items the panel sends, in the questions' order (the spec's answer rules). */
export function answersOf(questions, drafts) {
  return questions.map((question) => {
    const draft = drafts.get(question.id) || newDraft();
    const other = String(draft.other || "").trim();
    const labels = (question.options || []).map((o) => o.label);
    if (draft.skipped) return { id: question.id, selected: [] };
    if (!labels.length || (!question.multi_select && draft.otherOn)) {
      return other ? { id: question.id, selected: [], custom: other } : { id: question.id, selected: [] };
    }
    const selected = labels.filter((label) => draft.selected.includes(label));
    const item = { id: question.id, selected: question.multi_select ? selected : selected.slice(0, 1) };
    if (question.multi_select && other) item.custom = other;
    return item;
  });
}

function newDraft() {
  return { selected: [], other: "", otherOn: false, skipped: false };
}

function isPlanReview(question) {
  return Boolean(question.intent && question.intent.kind === "plan-review" &&
    (question.options || []).some((o) => o.label === question.intent.approve));
}

function inlineNodes(text) {
  return inlineSpans(text).map((span) => (span.type === "text" ? document.createTextNode(span.text)
    : h(span.type, span.type === "code" ? { className: "dial-md-code" } : {}, span.text)));
}

/** Markdown-lite as DOM nodes (textContent only). */
function markdownNodes(text) {
  return markdownBlocks(text).map((block) => {
    switch (block.type) {
      case "h": return h("div", { className: `dial-md-h dial-md-h${Math.min(block.level, 3)}` }, inlineNodes(block.text));
      case "ul": case "ol": return h(block.type, { className: "dial-md-list" }, block.items.map((item) => h("li", {}, inlineNodes(item))));
      case "code": return h("pre", { className: "dial-code" }, h("code", {}, block.text));
      default: return h("p", { className: "dial-md-p" }, inlineNodes(block.text));
    }
  });
}

/** One option row's text: label, then a muted description (shared with the <dial-ask> card). */
function choiceText(label, description) {
  return h("span", { className: "dial-choice-text" },
    h("span", { className: "dial-choice-label" }, String(label)),
    description ? h("span", { className: "dial-choice-desc" }, String(description)) : null);
}

/** A <dial-ask> option as a button with the panel's row look: a click answers at once. */
function choiceButton(option, onClick) {
  const label = option.label || option.value;
  return h("button", {
    type: "button", className: `dial-option dial-choice${option.default ? " dial-option-default" : ""}`,
    "data-dial-option": option.value, "aria-pressed": option.default ? "true" : "false",
    disabled: option.disabled, "aria-disabled": option.disabled ? "true" : undefined, onClick,
  }, h("span", { className: "dial-choice-mark", "aria-hidden": "true" }),
  choiceText(label, option.label && String(option.value).toLowerCase() !== String(option.label).toLowerCase()
    ? option.value : null));
}

/** The panel and the provider note, placed right after the conversation log. */
function mountQuestions(model, log) {
  const slot = h("div", { className: "dial-questions-slot" });
  log.after(slot);
  const drafts = new Map(); // token -> Map(question id -> draft)
  const sent = new Set(); // tokens answered from this view
  let shown = null; // {token, node}

  function update() {
    const note = String(model.get("provider_note") || "");
    const request = model.get("questions") || {};
    const token = typeof request.token === "string" ? request.token : null;
    let noteNode = slot.querySelector(":scope > .dial-provider-note");
    if (note) {
      if (!noteNode) {
        noteNode = h("div", { className: "dial-provider-note", role: "note", "data-dial-provider-note": "" });
        slot.prepend(noteNode);
      }
      noteNode.textContent = note;
    } else if (noteNode) noteNode.remove();
    if (shown && shown.token === token) return; // same request: keep what the person did
    if (shown) shown.node.remove();
    shown = null;
    for (const key of [...drafts.keys()]) if (key !== token) drafts.delete(key);
    if (token && Array.isArray(request.questions) && request.questions.length) {
      shown = { token, node: panel(token, request.questions) };
      slot.append(shown.node);
    }
  }

  function panel(token, questions) {
    if (!drafts.has(token)) drafts.set(token, new Map(questions.map((q) => [q.id, newDraft()])));
    const state = drafts.get(token);
    const plan = questions.length === 1 && isPlanReview(questions[0]);
    const box = h("section", {
      className: `dial-ask dial-questions${plan ? " dial-questions-plan" : ""}`,
      "data-dial-questions": token, "aria-label": plan ? "A plan for your review" : "Questions for you",
    });
    box.append(h("div", { className: "dial-card-head" },
      h("span", { className: "dial-action-name" }, plan ? "plan review" : questions.length === 1 ? "question" : `${questions.length} questions`),
      h("span", { className: "dial-chip dial-chip-pending" }, "Waiting for you")));
    const progress = h("span", { className: "dial-hint dial-questions-progress", "aria-live": "polite" });
    const submit = button("Submit", "submit-questions", () => send(), { kind: "dial-primary", aria: "Submit your answers" });
    const refreshAll = () => {
      let done = 0;
      for (const question of questions) {
        const draft = state.get(question.id);
        const status = questionState(question, draft);
        if (status !== "open") done += 1;
        const node = box.querySelector(`[data-dial-question="${CSS.escape(question.id)}"]`);
        if (node) {
          node.setAttribute("data-dial-state", status);
          node.classList.toggle("dial-question-skipped", status === "skipped");
          const skip = node.querySelector("[data-dial-action=skip-question]");
          if (skip) {
            skip.textContent = draft.skipped ? "Undo skip" : "Skip";
            skip.setAttribute("aria-pressed", String(draft.skipped));
          }
          node.querySelectorAll(".dial-choice-input, [data-dial-field=other]").forEach((input) => {
            input.disabled = draft.skipped || sent.has(token);
          });
          node.querySelectorAll("[data-dial-action=approve-plan], [data-dial-action=decline-plan]").forEach((b) => {
            b.setAttribute("aria-pressed", String(!draft.otherOn && draft.selected.includes(b.getAttribute("data-dial-choice"))));
            b.disabled = draft.skipped || sent.has(token);
          });
        }
      }
      const complete = done === questions.length;
      submit.disabled = !complete || sent.has(token);
      progress.textContent = complete ? "Ready to submit" : `${done} of ${questions.length} answered or skipped`;
      return complete;
    };
    const send = () => {
      if (sent.has(token) || !refreshAll()) return;
      sent.add(token);
      model.send({ type: "questions", token, answers: answersOf(questions, state) });
      box.classList.add("dial-questions-sent");
      box.querySelectorAll("button, input, textarea").forEach((n) => { n.disabled = true; });
    };
    questions.forEach((question, index) => box.append(questionNode(token, question, index, state.get(question.id), refreshAll, send, plan)));
    if (!plan) box.append(h("div", { className: "dial-buttons dial-questions-foot" }, submit, progress));
    refreshAll();
    return box;
  }

  function questionNode(token, question, index, draft, changed, send, plan) {
    const multi = Boolean(question.multi_select);
    const options = question.options || [];
    const reviewing = isPlanReview(question);
    const name = uid("q");
    const node = h("fieldset", { className: `dial-question${reviewing ? " dial-question-plan" : ""}`, "data-dial-question": question.id });
    const legendId = uid("ql");
    node.setAttribute("aria-labelledby", legendId);
    node.append(h("div", { className: "dial-question-top" },
      question.header ? h("span", { className: "dial-question-header" }, String(question.header)) : null,
      plan ? null : h("button", {
        type: "button", className: "dial-button dial-link dial-question-skip", "data-dial-action": "skip-question",
        "aria-label": `Skip: ${summarise(question.question, 60)}`,
        onClick: () => {
          draft.skipped = !draft.skipped;
          changed();
        },
      }, "Skip")));
    node.append(h("div", { className: "dial-question-text", id: legendId }, String(question.question)));
    if (question.detail) {
      node.append(h("div", { className: reviewing ? "dial-plan" : "dial-question-detail", "data-dial-detail": "" },
        markdownNodes(question.detail)));
    }
    const otherInput = h("input", {
      type: "text", className: "dial-input dial-other-input", "data-dial-field": "other",
      placeholder: options.length ? (reviewing ? "Or tell the agent what to change…" : "Type another answer…") : "Your answer",
      "aria-label": options.length ? `Other answer to: ${summarise(question.question, 60)}` : `Answer to: ${summarise(question.question, 60)}`,
    });
    otherInput.value = draft.other;
    otherInput.addEventListener("input", () => {
      draft.other = otherInput.value;
      if (!multi && options.length && draft.other.trim()) {
        draft.otherOn = true;
        const radio = node.querySelector("[data-dial-choice-other] .dial-choice-input");
        if (radio) radio.checked = true;
      }
      changed();
    });
    otherInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) {
        event.preventDefault();
        send();
      }
    });
    if (reviewing) {
      const approve = question.intent.approve;
      const choose = (label) => {
        draft.selected = [label];
        draft.otherOn = false;
        draft.skipped = false;
        if (changed() && plan) send();
      };
      node.append(h("div", { className: "dial-buttons dial-plan-buttons" },
        options.map((option) => {
          const yes = option.label === approve;
          return h("button", {
            type: "button", className: `dial-button${yes ? " dial-primary" : ""}`,
            "data-dial-action": yes ? "approve-plan" : "decline-plan", "data-dial-choice": option.label,
            title: option.description || undefined,
            onClick: () => choose(option.label),
          }, option.label);
        })));
      if (!plan) node.append(h("div", { className: "dial-other-row" }, otherInput));
      return node;
    }
    if (options.length) {
      const group = h("div", { className: "dial-choices", role: multi ? "group" : "radiogroup", "aria-labelledby": legendId });
      for (const option of options) {
        const input = h("input", {
          type: multi ? "checkbox" : "radio", name, className: "dial-choice-input",
          checked: draft.selected.includes(option.label) && !(draft.otherOn && !multi),
        });
        input.addEventListener("change", () => {
          if (multi) {
            draft.selected = options.map((o) => o.label).filter((l) => (l === option.label ? input.checked : draft.selected.includes(l)));
          } else if (input.checked) {
            draft.selected = [option.label];
            draft.otherOn = false;
          }
          changed();
        });
        group.append(h("label", { className: "dial-choice", "data-dial-choice": option.label }, input,
          choiceText(option.label, option.description)));
      }
      if (multi) {
        group.append(h("label", { className: "dial-choice dial-choice-other dial-choice-other-multi" },
          h("span", { className: "dial-choice-label" }, "Other"), otherInput));
      } else {
        const radio = h("input", { type: "radio", name, className: "dial-choice-input", checked: draft.otherOn, "aria-label": "Other" });
        radio.addEventListener("change", () => {
          if (!radio.checked) return;
          draft.otherOn = true;
          draft.selected = [];
          otherInput.focus();
          changed();
        });
        group.append(h("label", { className: "dial-choice dial-choice-other", "data-dial-choice-other": "" },
          radio, h("span", { className: "dial-choice-label" }, "Other"), otherInput));
      }
      node.append(group);
    } else {
      node.append(h("div", { className: "dial-other-row" }, otherInput));
    }
    return node;
  }

  model.on("change:questions", update);
  model.on("change:provider_note", update);
  update();
  return {
    dispose() {
      model.off("change:questions", update);
      model.off("change:provider_note", update);
      slot.remove();
    },
  };
}

// ---- the view -----------------------------------------------------------------------------------

/** The text of the note a widget shows once its kernel-side half is gone. */
export const DISCONNECTED = "The kernel restarted, so this conversation is no longer connected: "
  + "run this cell again to carry on.";

function render({ model: connected, el }) {
  // Once the kernel restarts (or the page outlives its kernel) the comm is dead: say so,
  // and disable every control, instead of a widget that looks alive and drops clicks.
  let disconnected = false;
  const model = {
    ...connected,
    send: (...args) => {
      if (disconnected) return;
      try {
        connected.send(...args);
      } catch (error) {
        console.warn("dial-notebook: the kernel is not reachable", error);
        disconnect();
      }
    },
  };
  const drafts = new Map(); // suggestion id -> {open, view, value, json, jsonError, local}
  const askDrafts = new Map(); // ask index -> typed value
  const nodes = new Map(); // item key -> {sig, node}
  const sending = new Set(); // tokens already answered from this view

  // data-lm-suppress-shortcuts: JupyterLab's own keys (Shift+Enter runs the cell, a / b / d /
  // m in command mode) never fire for keys typed into the widget; nor does anything else
  // outside it hear them (the keydown stops at the widget's root, below).
  const root = h("div", { className: "dial-chat", "data-dial-root": "", "data-lm-suppress-shortcuts": "true" });
  root.addEventListener("keydown", (event) => event.stopPropagation());
  const header = h("div", { className: "dial-header" });
  const log = h("div", { className: "dial-log", role: "log", "aria-live": "polite", "aria-label": "Conversation" });
  const thinkingText = h("span", {}, "Thinking…");
  const thinking = h("div", { className: "dial-thinking", role: "status" },
    h("span", { className: "dial-dots", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
    thinkingText);
  // not <details>: agent text never becomes one, and tests check that no <details> exists
  const contextPanel = h("div", { className: "dial-context", "data-dial-context": "" });
  let contextSig = "";
  let contextOpen = false;
  const say = h("textarea", {
    className: "dial-input dial-say", rows: "1", "data-dial-field": "say",
    "aria-label": "Message to the agent",
  });
  const sayButton = button("Send", "say", () => sendSay(), { kind: "dial-primary", aria: "Send message" });
  const composer = h("div", { className: "dial-composer" }, say, sayButton);
  const queuedBox = h("div", { className: "dial-queued", "data-dial-queued": "", "aria-live": "polite" });
  root.append(header, contextPanel, log, queuedBox, thinking, composer);
  el.append(root);
  const questionsPanel = mountQuestions(model, log); // ask_user's panel, after the log

  function sendSay() {
    const text = say.value;
    if (!text.trim()) {
      say.focus();
      return;
    }
    model.send({ type: "say", text });
    say.value = "";
    autosize();
  }
  function autosize() {
    say.style.height = "auto";
    say.style.height = `${Math.min(say.scrollHeight, 160)}px`;
  }
  say.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      sendSay();
    }
  });
  say.addEventListener("input", autosize);

  // ---- cards

  function draftFor(item) {
    const id = String(item.event.id);
    let draft = drafts.get(id);
    if (!draft) {
      const start = item.pending && item.pending.payload !== undefined ? item.pending.payload : item.event.payload;
      draft = { open: false, view: null, value: structuredClone(start ?? {}), json: null, jsonError: null, local: new Map() };
      drafts.set(id, draft);
    }
    return draft;
  }

  function decide(item, decision, extra = {}) {
    const token = item.pending && item.pending.token;
    if (!token || sending.has(token)) return;
    sending.add(token);
    model.send({ type: "decide", token, decision, ...extra });
    const card = nodes.get(item.key);
    if (card) card.node.querySelectorAll("[data-dial-action]").forEach((b) => { b.disabled = true; });
  }

  function suggestionCard(item) {
    const event = item.event;
    const status = item.status;
    const destructive = Boolean(event.destructive);
    // after an edit, the headline is what ran (the outcome's preview), not what was proposed
    const ranEdited = item.outcome && item.outcome.edited && item.outcome.preview;
    const preview = String(ranEdited ? item.outcome.preview : (event.preview || event.action || ""));
    const card = h("article", {
      className: `dial-card dial-status-${status}${destructive ? " dial-destructive" : ""}`,
      "data-dial-suggestion": String(event.id),
      "data-dial-status": status,
      "aria-label": `Suggestion: ${preview}`,
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
    if (execute && !(item.pending && draftFor(item).open)) card.append(...stepList(item));
    if (execute && event.confirmed && item.pending) {
      card.append(h("div", { className: "dial-note" }, "You answered yes above. That was not approval to run code: check the commands, then Accept to run them."));
    }
    if (item.pending) {
      const draft = draftFor(item);
      const issue = item.pending.issue;
      if (issue && draft.issueSeen !== item.pending.token) {
        draft.issueSeen = item.pending.token; // a new refusal opens the editor once
        draft.open = true;
      }
      if (draft.open) card.append(editor(item, draft));
      else {
        card.append(h("div", { className: "dial-buttons" },
          button("Accept", "accept", () => decide(item, "accept"),
            { kind: destructive ? "dial-danger" : "dial-primary", aria: `Accept: ${preview}` }),
          button("Edit", "edit", () => {
            draft.open = true;
            refresh(item, { focusEditor: true });
          }, { aria: `Edit: ${preview}` }),
          button("Dismiss", "dismiss", () => decide(item, "dismiss"), { aria: `Dismiss: ${preview}` })));
      }
    } else if (item.outcome) {
      card.append(outcomeLine(item.outcome, { editedShown: Boolean(ranEdited) }));
    }
    for (const ack of item.acks) {
      card.append(h("div", { className: "dial-card-ack", "data-dial-ack-of": String(event.id) },
        h("span", { className: "dial-card-ack-who" }, "Agent: "), String(ack.text || "")));
    }
    return card;
  }

  /** An execute block's steps: every one, each command whole (monospace, hidden characters
   *  shown by name, its line count), env and the agent's label, and each step's outcome. */
  function stepList(item) {
    const steps = (item.event.payload && Array.isArray(item.event.payload.steps)) ? item.event.payload.steps : [];
    const suspicious = item.event.suspicious && typeof item.event.suspicious === "object" ? item.event.suspicious : {};
    const list = h("ol", { className: "dial-steps", "aria-label": `${steps.length} step${steps.length === 1 ? "" : "s"}` });
    for (const step of steps) {
      const outcome = item.steps.get(String(step.id));
      const status = outcome ? String(outcome.status) : "";
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
          `⚠ Hidden characters (${hidden.join(", ")}): what this command looks like is not what it runs. They are shown below by name.`));
      }
      row.append(h("pre", { className: "dial-command dial-mono", dir: "ltr" }, revealedNodes(ran)));
      if (outcome && outcome.edited) row.append(h("span", { className: "dial-edited" }, "(edited)"));
      if (outcome) row.append(stepOutcome(outcome));
      list.append(row);
    }
    return [h("div", { className: "dial-step-count", "data-dial-step-count": String(steps.length) },
      `${steps.length} step${steps.length === 1 ? "" : "s"} will run, exactly as shown:`), list];
  }

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

  function outcomeLine(outcome, { editedShown = false } = {}) {
    const status = String(outcome.status);
    const line = h("div", { className: `dial-outcome dial-outcome-${status}` });
    if (status === "done") {
      line.append(h("strong", {}, "Done"));
      const body = resultNodes(outcome.result).filter(Boolean);
      const inline = body.length === 1 && body[0].classList.contains("dial-result");
      if (inline) line.append(body[0]);
      else if (body.length) line.append(h("div", { className: "dial-result-body", "data-dial-result": "" }, body));
    } else if (status === "failed") {
      line.append(h("strong", {}, "Failed"), h("span", {}, ` — ${summarise(outcome.error || "error")}`));
      if (outcome.hint) line.append(h("div", { className: "dial-hint" }, `Hint: ${summarise(outcome.hint)}`));
    } else if (status === "dismissed") {
      line.append(h("strong", {}, "Dismissed"));
    } else if (status === "superseded") {
      line.append(h("strong", {}, "Superseded"), h("span", {}, " — you moved on without deciding"));
    } else if (status === "handed-off") {
      line.append(h("strong", {}, "Handed off"), h("span", {}, " — continued in its own panel"));
    } else {
      line.append(h("strong", {}, STATUS_LABEL[status] || status));
      if (outcome.hint || outcome.error) line.append(h("span", {}, ` — ${summarise(outcome.hint || outcome.error)}`));
    }
    if (outcome.edited && !editedShown) line.append(h("span", { className: "dial-edited" }, " (edited)"));
    return line;
  }

  function editor(item, draft) {
    const schema = item.event.schema || model.get("schemas")?.[String(item.event.action)];
    const hasForm = formSupported(schema) && draft.value && typeof draft.value === "object" && !Array.isArray(draft.value);
    if (!draft.view) draft.view = hasForm ? "form" : "json";
    if (!hasForm) draft.view = "json";
    const issue = item.pending.issue;
    const errors = (item.pending.errors || []).map((e) => ({ field: normalisePath(e.field), message: String(e.message || "") }));
    const box = h("div", { className: "dial-editor" });
    const onKey = (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        cancel();
      } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        save();
      }
    };
    box.addEventListener("keydown", onKey);

    if (hasForm) {
      const tabs = h("div", { className: "dial-tabs", role: "tablist", "aria-label": "Edit as" });
      for (const [view, label] of [["form", "Form"], ["json", "JSON"]]) {
        tabs.append(h("button", {
          type: "button", role: "tab", className: "dial-tab", "aria-selected": String(draft.view === view),
          "data-dial-view": view,
          onClick: () => {
            if (draft.view === view) return;
            if (view === "form" && !syncFromJson(draft)) {
              refresh(item);
              return;
            }
            if (view === "json") draft.json = JSON.stringify(draft.value, null, 2);
            draft.view = view;
            refresh(item, { focusEditor: true });
          },
        }, label));
      }
      box.append(tabs);
    }
    const placed = new Set();
    if (draft.view === "form") {
      const { form, fields } = buildForm(schema, draft, ({ rebuild, focus } = {}) => {
        draft.json = null;
        if (rebuild) refresh(item, { focusPath: focus });
      });
      for (const [index, error] of errors.entries()) {
        const wrap = error.field === "" ? null : fields.get(error.field);
        if (!wrap) continue; // the payload as a whole, or a field the form does not show
        placed.add(index);
        const note = h("div", { className: "dial-field-error", id: uid("err") }, error.message);
        wrap.classList.add("dial-field-invalid");
        wrap.append(note);
        // the refusal was of the old value: once the person changes the field it goes
        wrap.addEventListener("input", () => {
          note.remove();
          wrap.classList.remove("dial-field-invalid");
        }, { once: true });
        const input = wrap.querySelector(":scope > .dial-input, :scope > .dial-check-row > input, :scope > fieldset");
        if (input) {
          input.setAttribute("aria-invalid", "true");
          input.setAttribute("aria-describedby", note.id);
        }
      }
      box.append(form);
    } else {
      if (draft.json === null) draft.json = JSON.stringify(draft.value, null, 2);
      const area = h("textarea", {
        className: "dial-input dial-mono dial-json", "data-dial-field": "payload-json",
        "aria-label": "Payload as JSON", spellcheck: "false",
        rows: String(Math.min(18, Math.max(4, draft.json.split("\n").length + 1))),
      });
      area.value = draft.json;
      area.addEventListener("input", () => {
        draft.json = area.value;
        if (draft.jsonError) {
          draft.jsonError = null;
          const note = box.querySelector(".dial-json-error");
          if (note) note.remove();
          area.removeAttribute("aria-invalid");
        }
      });
      box.append(area);
      if (draft.jsonError) {
        area.setAttribute("aria-invalid", "true");
        box.append(h("div", { className: "dial-json-error", role: "alert" }, draft.jsonError));
      }
    }
    if (issue) {
      const rest = errors.filter((_, index) => !placed.has(index));
      const left = Number(item.pending.edits_left);
      const tries = !Number.isFinite(left) ? null
        : left <= 1 ? "Last try: if this edit is refused too, the proposal is dropped (the agent is told it was invalid)."
          : `${left} tries left before the proposal is dropped.`;
      box.append(h("div", { className: "dial-issue", "data-dial-issue": "", role: "alert" },
        h("strong", {}, "Not accepted: "), String(issue.text || ""),
        rest.length ? h("ul", {}, rest.map((e) => h("li", {}, e.field ? h("code", {}, e.field) : null, e.field ? " " : null, e.message))) : null,
        tries ? h("div", { className: `dial-tries${left <= 1 ? " dial-tries-last" : ""}`, "data-dial-edits-left": String(left) }, tries) : null));
    }
    box.append(h("div", { className: "dial-buttons" },
      button("Save", "save-edit", () => save(), { kind: "dial-primary", aria: "Save the edited payload" }),
      button("Cancel", "cancel-edit", () => cancel(), { aria: "Cancel editing" })));

    function save() {
      if (draft.view === "json" && !syncFromJson(draft)) {
        refresh(item, { focusEditor: true });
        return;
      }
      if (draft.view === "form" && draft.local.size) {
        const first = box.querySelector(".dial-local-error");
        if (first) first.parentElement.querySelector("input, textarea, select")?.focus();
        return;
      }
      decide(item, "edit", { payload: structuredClone(draft.value) });
    }
    function cancel() {
      draft.open = false;
      draft.view = null;
      draft.json = null;
      draft.jsonError = null;
      draft.local = new Map();
      refresh(item, { focusAction: "edit" });
    }
    return box;
  }

  function syncFromJson(draft) {
    if (draft.json === null) return true;
    try {
      draft.value = JSON.parse(draft.json);
      draft.jsonError = null;
      return true;
    } catch (error) {
      draft.jsonError = `That is not valid JSON: ${error.message}`;
      return false;
    }
  }

  // ---- questions

  function askCard(item) {
    const event = item.event;
    const pending = item.pending;
    const type = String((pending && pending.response_type) || event.response_type || "text");
    const status = item.answer !== undefined ? "answered" : pending ? "pending" : "open";
    const card = h("section", {
      className: `dial-ask dial-ask-${type} dial-status-${status}`,
      "data-dial-ask": String(item.index), "data-dial-status": status,
      "aria-label": `Question: ${summarise(event.text, 80)}`,
    });
    card.append(h("div", { className: "dial-ask-text" }, String(event.text || "")));
    if (item.answer !== undefined) {
      const chosen = type === "confirm" ? null : (event.options || []).find((o) => o && String(o.value) === String(item.answer));
      const shown = chosen && chosen.label ? String(chosen.label)
        : type === "confirm" && /^(yes|no)$/i.test(String(item.answer)) ? humanise(String(item.answer).toLowerCase()) : String(item.answer);
      card.append(h("div", { className: "dial-answered" }, h("span", { className: "dial-you" }, "You: "), shown));
      return card;
    }
    if (!pending) {
      card.append(h("div", { className: "dial-note" }, "Not answered — write below to answer."));
      return card;
    }
    const token = pending.token;
    const send = (message, buffers) => {
      if (sending.has(token)) return;
      sending.add(token);
      model.send({ type: "answer", token, ...message }, undefined, buffers);
      card.querySelectorAll("button, input, textarea").forEach((n) => { n.disabled = true; });
    };
    const note = h("div", { className: "dial-local-error", role: "alert" });
    const fail = (message) => { note.textContent = message; };
    const options = pending.options || [];
    if (type === "choice") {
      const group = h("div", { className: "dial-options dial-choices", role: "group", "aria-label": "Options" });
      for (const option of options) group.append(choiceButton(option, () => send({ value: option.value })));
      card.append(group);
    } else if (type === "confirm") {
      card.append(h("div", { className: "dial-options", role: "group", "aria-label": "Yes or no" },
        h("button", { type: "button", className: "dial-option dial-option-default", "data-dial-option": "yes", onClick: () => send({ value: "yes" }) }, "Yes"),
        h("button", { type: "button", className: "dial-option", "data-dial-option": "no", onClick: () => send({ value: "no" }) }, "No")));
    } else if (type === "file") {
      const input = h("input", { type: "file", className: "dial-input", "data-dial-field": "answer", "aria-label": "File to send" });
      const submit = () => {
        const file = input.files && input.files[0];
        if (!file) return fail("Choose a file first.");
        if (file.size > MAX_UPLOAD) return fail("That file is too large (50 MB at most).");
        file.arrayBuffer().then((data) => send({ file: { name: file.name, size: file.size, type: file.type } }, [data]));
      };
      card.append(h("div", { className: "dial-answer-row" }, input,
        button("Send file", "answer", submit, { kind: "dial-primary", aria: "Send the file" })));
    } else {
      const number = type === "number";
      const input = h("input", {
        type: "text", className: `dial-input${number ? " dial-input-number" : ""}`, "data-dial-field": "answer",
        inputmode: number ? "decimal" : undefined, "aria-label": number ? "Your answer (a number)" : "Your answer",
        placeholder: number ? "A number" : "Your answer",
      });
      input.value = askDrafts.get(item.index) ?? "";
      input.addEventListener("input", () => askDrafts.set(item.index, input.value));
      const submit = () => {
        const text = input.value.trim();
        if (!text) return fail("Type an answer first — the question stays open until you do.");
        if (number && !Number.isFinite(Number(text))) return fail("Enter a number, like 42 or 3.5.");
        send({ value: text });
      };
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          submit();
        }
      });
      card.append(h("div", { className: "dial-answer-row" }, input,
        button("Answer", "answer", submit, { kind: "dial-primary", aria: "Send your answer" })));
    }
    card.append(note);
    return card;
  }

  // ---- other items

  function informNode(item) {
    const event = item.event;
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

  function statusNode(item) {
    const event = item.event;
    if (event.type === "outcome") {
      const bits = [`${String(event.action || "action")}: ${STATUS_LABEL[event.status] || event.status}`];
      if (event.status === "done" && event.result !== undefined && event.result !== null) bits.push(summarise(event.result, 120));
      if (event.error) bits.push(summarise(event.error, 160));
      if (event.hint) bits.push(summarise(event.hint, 160));
      return h("div", { className: `dial-status-line dial-outcome-${event.status}`, "data-dial-outcome": String(event.id ?? "") }, bits.join(" — "));
    }
    if (event.type === "turn-limit") return h("div", { className: "dial-status-line dial-warn" }, `Stopped after ${event.turns} turns (turn limit).`);
    return h("div", { className: "dial-status-line dial-error", role: "alert" }, `Error: ${summarise(event.error, 400)}`);
  }

  function noReplyNode(item) {
    const box = h("div", { className: "dial-no-reply", role: "alert" },
      h("span", {}, "The agent did not reply. "),
      h("span", { className: "dial-hint" }, summarise(item.event.error || "", 200)));
    if (item.retry && !model.get("running")) {
      box.append(button("Retry", "retry", () => {
        model.send({ type: "retry" });
        box.querySelector("[data-dial-action=retry]").disabled = true;
      }, { aria: "Send again what the agent has not heard" }));
    }
    return box;
  }

  function delegateNode(item) {
    const event = item.event;
    const box = h("div", { className: "dial-delegate", "data-dial-delegate": String(event.to ?? "") });
    box.append(h("div", { className: "dial-note" },
      `Hand-off to ${String(event.to || "another actor")}${event.intent ? ` (${String(event.intent)})` : ""}`
      + (event.registered ? "" : " — nobody here takes it over; the agent was told.")));
    if (event.text) box.append(h("div", {}, String(event.text)));
    if (event.context !== null && event.context !== undefined) box.append(jsonBlock(event.context));
    return box;
  }

  /** The small "context" panel: what the agent declared, by key (hidden when nothing is). */
  function updateContext(entries) {
    const sig = JSON.stringify(entries);
    if (sig === contextSig) return;
    contextSig = sig;
    contextPanel.hidden = entries.length === 0;
    const list = h("dl", { className: "dial-context-list" });
    list.hidden = !contextOpen;
    for (const [key, value] of entries.slice(0, CARD_ITEMS)) {
      list.append(h("dt", { className: "dial-mono" }, key),
        h("dd", { "data-dial-context-key": key }, summarise(value)));
    }
    const toggle = h("button", {
      type: "button", className: "dial-context-toggle", "data-dial-action": "context",
      "aria-expanded": String(contextOpen),
      onClick: () => {
        contextOpen = !contextOpen;
        list.hidden = !contextOpen;
        toggle.setAttribute("aria-expanded", String(contextOpen));
      },
    }, `Context (${entries.length})`);
    contextPanel.replaceChildren(toggle, list);
  }

  function nodeFor(item) {
    switch (item.kind) {
      case "delegate": return delegateNode(item);
      case "person": return h("div", { className: "dial-person" }, h("div", { className: "dial-bubble" }, String(item.event.text)));
      case "inform": return informNode(item);
      case "ask": return askCard(item);
      case "suggestion": return suggestionCard(item);
      case "no-reply": return noReplyNode(item);
      default: return statusNode(item);
    }
  }

  function signature(item) {
    switch (item.kind) {
      case "suggestion":
        return JSON.stringify([item.status, item.pending, item.outcome, model.get("schemas")?.[String(item.event.action)] ? 1 : 0,
          [...item.steps.values()], item.acks]);
      case "ask": return JSON.stringify([item.pending, item.answer]);
      case "no-reply": return JSON.stringify([item.retry, model.get("running")]);
      default: return "";
    }
  }

  function refresh(item, { focusEditor, focusPath, focusAction } = {}) {
    const entry = nodes.get(item.key);
    if (!entry) return;
    const node = nodeFor(item);
    entry.node.replaceWith(node);
    entry.node = node;
    entry.item = item;
    if (focusPath !== undefined) {
      node.querySelector(`[data-dial-path="${CSS.escape(focusPath)}"] :is(input, textarea, select)`)?.focus();
    } else if (focusEditor) {
      node.querySelector(".dial-field-invalid :is(input, textarea, select), .dial-editor :is(input, textarea, select)")?.focus();
    } else if (focusAction) {
      node.querySelector(`[data-dial-action="${focusAction}"]`)?.focus();
    }
  }

  function update() {
    const title = model.get("title");
    header.replaceChildren(h("span", { className: "dial-logo", "aria-hidden": "true" }, "◆"),
      h("span", { className: "dial-title" }, title || "DIAL conversation"));
    const pending = model.get("pending") || {};
    const items = itemsOf(model.get("transcript") || [], pending);
    const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    const keep = new Set();
    let previous = null;
    for (const item of items) {
      keep.add(item.key);
      const sig = signature(item);
      let entry = nodes.get(item.key);
      if (!entry || entry.sig !== sig) {
        const node = nodeFor(item);
        if (entry) {
          const hadFocus = entry.node.contains(document.activeElement);
          entry.node.replaceWith(node);
          entry.node = node;
          entry.sig = sig;
          entry.item = item;
          if (item.kind === "suggestion" && item.pending && item.pending.issue) {
            node.querySelector(".dial-field-invalid :is(input, textarea, select), [data-dial-field=payload-json]")?.focus();
          } else if (hadFocus) {
            node.querySelector("button:not([disabled]), input, textarea")?.focus();
          }
        } else {
          entry = { sig, node, item };
          nodes.set(item.key, entry);
        }
      } else {
        entry.item = item;
      }
      const expected = previous ? previous.nextSibling : log.firstChild;
      if (expected !== entry.node) log.insertBefore(entry.node, expected);
      previous = entry.node;
    }
    for (const [key, entry] of nodes) {
      if (!keep.has(key)) {
        entry.node.remove();
        nodes.delete(key);
      }
    }
    for (const token of [...sending]) if (token !== pending.token) sending.delete(token);
    const transcript = model.get("transcript") || [];
    const signal = model.get("running") ? agentSignal(transcript) : null;
    thinking.hidden = !model.get("thinking") && !signal;
    thinking.dataset.dialSignal = model.get("thinking") ? "thinking" : signal || "";
    thinkingText.textContent = !model.get("thinking") && signal === "typing" ? "Typing…" : "Thinking…";
    updateContext(contextOf(transcript));
    const queued = Array.isArray(model.get("queued")) ? model.get("queued") : [];
    queuedBox.replaceChildren(...queued.map((text) => h("div", { className: "dial-person dial-person-queued" },
      h("div", { className: "dial-bubble" }, String(text)),
      h("div", { className: "dial-queued-note" }, "Sent when the agent has finished answering"))));
    queuedBox.hidden = queued.length === 0;
    say.placeholder = pending.kind === "decide"
      ? "Write instead of deciding (the card will be superseded)…"
      : pending.kind === "answer" ? "Answer the question, or write a message…" : "Message the agent…";
    root.classList.toggle("dial-running", Boolean(model.get("running")));
    if (disconnected) root.querySelectorAll("button, input, textarea, select").forEach((node) => { node.disabled = true; });
    if (nearBottom) log.scrollTop = log.scrollHeight;
  }

  function disconnect() {
    if (disconnected) return;
    disconnected = true;
    root.classList.add("dial-disconnected");
    root.setAttribute("data-dial-disconnected", "");
    root.prepend(h("div", { className: "dial-disconnected-note", role: "alert" }, DISCONNECTED));
    root.querySelectorAll("button, input, textarea, select").forEach((node) => { node.disabled = true; });
    thinking.hidden = true;
    say.placeholder = "Not connected: run this cell again.";
  }
  // ipywidgets marks every model not live when the kernel restarts or dies. The event does
  // not say which way it went, so the kernel is asked: no answer within PING_MS, not live.
  let pinged = null;
  const probe = () => {
    if (disconnected || pinged) return;
    const id = uid("ping");
    pinged = { id, timer: setTimeout(disconnect, PING_MS) };
    model.send({ type: "ping", id });
  };
  const pong = (message) => {
    if (message && message.type === "pong" && pinged && message.id === pinged.id) {
      clearTimeout(pinged.timer);
      pinged = null;
    }
  };
  connected.on("comm_live_update", probe);
  connected.on("msg:custom", pong);

  const events = ["change:transcript", "change:pending", "change:thinking", "change:running", "change:schemas", "change:title", "change:queued"];
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      update();
    });
  };
  for (const name of events) model.on(name, schedule);
  update();
  return () => {
    for (const name of events) model.off(name, schedule);
    connected.off("comm_live_update", probe);
    connected.off("msg:custom", pong);
    if (pinged) clearTimeout(pinged.timer);
    questionsPanel.dispose();
  };
}

export default { render };
