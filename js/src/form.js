// @ts-check
// The JSON-Schema form of the editor: one field per property (objects as fieldsets, arrays with
// add / remove, enums as selects, booleans, numbers, strings; anything else edited as JSON; a
// key the schema does not name shown as such, with Remove; a long list or many unknown keys
// shown in part, the rest counted and kept),
// editing a draft's value in place. A field the form cannot check itself (a number that is not
// one, JSON that does not parse) keeps its message in draft.local, which blocks Save.
//
//   buildForm(schema, draft, onChange) ──▶ {form, fields: path -> field wrapper}
//   an edit ──▶ draft.value changed ──▶ onChange({})
//   a field added or removed ──▶ onChange({rebuild: true, focus?}) (the card redraws the form)

import { button, h, uid } from "./dom.js";
import { humanise, joinPath } from "./text.js";

/** Keys a schema does not name shown in the form (a payload may hold thousands): the rest counted. */
const UNKNOWN_SHOWN = 20;
/** Items of a list shown in the form (a payload may hold thousands): the rest counted, and kept. */
const ITEMS_SHOWN = 100;

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").JsonSchema} JsonSchema */
/** @typedef {import("./state.js").Draft} Draft */
/** @typedef {{rebuild?: boolean, focus?: string}} FormChange */
/** @typedef {(string | number)[]} Parts */

/**
 * What every field of one form shares.
 * @typedef {{
 *   root: JsonSchema, draft: Draft, fields: Map<string, HTMLElement>,
 *   onChange: (change: FormChange) => void,
 * }} Form
 */

/**
 * `schema` with a local `$ref` ('#/…') followed (at most 20 deep).
 * @param {Json} schema
 * @param {Json} root
 * @returns {JsonSchema}
 */
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

/** @param {JsonSchema} schema @returns {string | undefined} */
function typeOf(schema) {
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== "null") ?? type[0];
  if (!type && Array.isArray(schema.enum)) return "enum";
  if (!type && schema.properties) return "object";
  if (!type && schema.items) return "array";
  return type;
}

/**
 * The value a new field starts with: its default, its first enum value, or an empty one.
 * @param {Json} schema
 * @param {JsonSchema} root
 * @returns {Json}
 */
function defaultFor(schema, root) {
  const s = resolveSchema(schema, root);
  if ("default" in s) return structuredClone(s.default);
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  switch (typeOf(s)) {
    case "object": {
      /** @type {{[name: string]: Json}} */
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

/**
 * Whether the form can edit a payload of `schema` (an object with properties).
 * @param {Json} schema
 */
export function formSupported(schema) {
  if (!schema || typeof schema !== "object") return false;
  const s = resolveSchema(schema, schema);
  return typeOf(s) === "object" && s.properties && typeof s.properties === "object";
}

/**
 * A form for `schema` editing `draft.value`; calls onChange() after every edit.
 * @param {JsonSchema} schema
 * @param {Draft} draft
 * @param {(change: FormChange) => void} onChange
 */
export function buildForm(schema, draft, onChange) {
  /** @type {Form} */
  const context = { root: schema, draft, fields: new Map(), onChange };
  const form = h("div", { className: "dial-form" }, field(context, schema, draft.value, [], "", false));
  return { form, fields: context.fields };
}

/**
 * @param {Draft} draft
 * @param {Parts} parts
 * @param {Json} value
 */
function setAt(draft, parts, value) {
  if (parts.length === 0) {
    draft.value = value;
    return;
  }
  let target = draft.value;
  for (const part of parts.slice(0, -1)) target = target[part];
  target[parts[parts.length - 1]] = value;
}

/**
 * One field: a fieldset for an object or an array, else a labelled input.
 * @param {Form} form
 * @param {Json} rawSchema
 * @param {Json} value
 * @param {Parts} parts
 * @param {string} label
 * @param {boolean} required
 * @returns {HTMLElement}
 */
function field(form, rawSchema, value, parts, label, required) {
  const s = resolveSchema(rawSchema, form.root);
  const path = joinPath(parts);
  const id = uid("field");
  const wrap = h("div", { className: "dial-field", "data-dial-path": path });
  form.fields.set(path, wrap);
  const title = s.title || humanise(label);
  const type = Array.isArray(s.enum) ? "enum" : typeOf(s);
  if (type === "object" && s.properties && value && typeof value === "object" && !Array.isArray(value)) {
    wrap.append(objectBox(form, s, value, parts, title));
    return wrap;
  }
  if (type === "array" && Array.isArray(value)) {
    wrap.append(arrayBox(form, s, value, parts, title));
    return wrap;
  }
  const labelNode = title !== undefined && title !== ""
    ? h("label", { className: "dial-field-label", for: id },
      String(title), required ? h("span", { className: "dial-required", "aria-hidden": "true" }, " *") : null)
    : null;
  const describe = s.description
    ? h("div", { className: "dial-field-help", id: `${id}-help` }, String(s.description)) : null;
  const input = inputFor(form, { s, type, value, parts, path, id, wrap });
  if (describe) input.setAttribute("aria-describedby", describe.id);
  if (!labelNode) input.setAttribute("aria-label", String(label ?? "value"));
  const pieces = type === "boolean" ? [h("div", { className: "dial-check-row" }, input, labelNode), describe]
    : [labelNode, input, describe];
  wrap.append(.../** @type {HTMLElement[]} */ (pieces.filter(Boolean)));
  return wrap;
}

/**
 * An object's properties; an optional one that is absent is offered as "+ Name", unset.
 * @param {Form} form
 * @param {JsonSchema} s
 * @param {{[name: string]: Json}} value
 * @param {Parts} parts
 * @param {string | undefined} title
 */
function objectBox(form, s, value, parts, title) {
  const box = h("fieldset", { className: "dial-fieldset" },
    parts.length ? h("legend", {}, String(title ?? "")) : null);
  const requiredNames = new Set(s.required || []);
  for (const [name, child] of Object.entries(s.properties)) {
    if (!(name in value) && !requiredNames.has(name)) {
      // optional and absent: offer it, unset
      const add = button(`+ ${resolveSchema(child, form.root).title || humanise(name)}`, "add-field", () => {
        value[name] = defaultFor(child, form.root);
        form.onChange({ rebuild: true });
      }, { kind: "dial-link", aria: `Add ${name}` });
      box.append(h("div", { className: "dial-field dial-field-absent", "data-dial-path": joinPath([...parts, name]) }, add));
      continue;
    }
    box.append(field(form, child, value[name], [...parts, name], name, requiredNames.has(name)));
  }
  const closed = s.additionalProperties === false; // else a key it does not name is allowed
  const unknown = Object.keys(value).filter((name) => !Object.hasOwn(s.properties, name));
  for (const name of unknown.slice(0, UNKNOWN_SHOWN)) { // not in the schema: said, removable
    const path = joinPath([...parts, name]);
    const wrap = h("div", { className: "dial-field dial-field-unknown", "data-dial-path": path },
      h("span", { className: "dial-field-label" }, h("code", {}, name),
        closed ? " is not a field of this action" : " is kept as it is (the JSON tab edits it)"),
      button("Remove", "remove-field", () => {
        delete value[name];
        form.onChange({ rebuild: true });
      }, { kind: "dial-link", aria: `Remove ${name}` }));
    form.fields.set(path, wrap);
    box.append(wrap);
  }
  if (unknown.length > UNKNOWN_SHOWN) {
    box.append(h("div", { className: "dial-more", "data-dial-unknown-more": "" },
      `+${(unknown.length - UNKNOWN_SHOWN).toLocaleString("en-US")} more keys not in the form: the JSON tab edits them`));
  }
  return box;
}

/**
 * An array's items, each with a remove button, and "+ Add" (the first ITEMS_SHOWN, and how many
 * more: the JSON tab edits a longer list).
 * @param {Form} form
 * @param {JsonSchema} s
 * @param {Json[]} value
 * @param {Parts} parts
 * @param {string | undefined} title
 */
function arrayBox(form, s, value, parts, title) {
  const itemSchema = s.items && !Array.isArray(s.items) ? s.items : {};
  const box = h("fieldset", { className: "dial-fieldset dial-array" },
    h("legend", {}, String(title ?? "items")));
  value.slice(0, ITEMS_SHOWN).forEach((item, index) => {
    const row = h("div", { className: "dial-array-row" },
      field(form, itemSchema, item, [...parts, index], `${index + 1}`, false),
      button("✕", "remove-item", () => {
        value.splice(index, 1);
        form.onChange({ rebuild: true });
      }, { kind: "dial-icon", aria: `Remove item ${index + 1} of ${title ?? "the list"}` }));
    box.append(row);
  });
  if (value.length > ITEMS_SHOWN) { // the rest stay in the draft as they are; an item added would not show
    box.append(h("div", { className: "dial-more", "data-dial-items-more": "" },
      `+${(value.length - ITEMS_SHOWN).toLocaleString("en-US")} more items not in the form: the JSON tab edits them`));
    return box;
  }
  box.append(button("+ Add", "add-item", () => {
    value.push(defaultFor(itemSchema, form.root));
    form.onChange({ rebuild: true, focus: joinPath([...parts, value.length - 1]) });
  }, { kind: "dial-link", aria: `Add an item to ${title ?? "the list"}` }));
  return box;
}

/**
 * @typedef {{
 *   s: JsonSchema, type: string | undefined, value: Json, parts: Parts, path: string, id: string,
 *   wrap: HTMLElement,
 * }} Slot
 */

/**
 * The input of a field that is not an object or an array.
 * @param {Form} form
 * @param {Slot} slot
 * @returns {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement}
 */
function inputFor(form, slot) {
  const { s, type, value, parts, id } = slot;
  if (type === "enum") {
    const input = h("select", { id, className: "dial-input" });
    s.enum.forEach((/** @type {Json} */ option, /** @type {number} */ index) => {
      const node = h("option", { value: String(index) }, option === null ? "—" : String(option));
      if (JSON.stringify(option) === JSON.stringify(value)) node.selected = true;
      input.append(node);
    });
    input.addEventListener("change", () => {
      setAt(form.draft, parts, structuredClone(s.enum[Number(input.value)]));
      form.onChange({});
    });
    return input;
  }
  if (type === "boolean") {
    const input = h("input", { id, type: "checkbox", className: "dial-checkbox", checked: value === true });
    input.addEventListener("change", () => {
      setAt(form.draft, parts, input.checked);
      form.onChange({});
    });
    return input;
  }
  if (type === "number" || type === "integer") return numberInput(form, slot);
  if (type === "string" || (type === undefined && typeof value === "string")) {
    const long = (s.maxLength ?? 0) > 200 || s.format === "textarea" ||
      (typeof value === "string" && (value.includes("\n") || value.length > 80));
    const input = long
      ? h("textarea", { id, className: "dial-input", rows: "3" })
      : h("input", { id, type: "text", className: "dial-input" });
    input.value = value === undefined || value === null ? "" : String(value);
    input.addEventListener("input", () => {
      setAt(form.draft, parts, input.value);
      form.onChange({});
    });
    return input;
  }
  return jsonInput(form, slot);
}

/**
 * A number (or a whole number) typed as text; what is not one is said, and not saved.
 * @param {Form} form
 * @param {Slot} slot
 */
function numberInput(form, { type, value, parts, path, id, wrap }) {
  const input = h("input", {
    id, type: "text", inputmode: type === "integer" ? "numeric" : "decimal",
    className: "dial-input dial-input-number", value: value === undefined || value === null ? "" : String(value),
  });
  input.addEventListener("input", () => {
    const text = input.value.trim();
    const number = Number(text);
    const ok = text !== "" && Number.isFinite(number) && (type !== "integer" || Number.isInteger(number));
    form.draft.local.delete(path);
    if (ok) setAt(form.draft, parts, number);
    else form.draft.local.set(path, type === "integer" ? "Enter a whole number." : "Enter a number.");
    showLocal(wrap, input, form.draft.local.get(path));
    form.onChange({});
  });
  return input;
}

/**
 * Anything the form does not cover: this part edited as JSON.
 * @param {Form} form
 * @param {Slot} slot
 */
function jsonInput(form, { value, parts, path, id, wrap }) {
  const input = h("textarea", { id, className: "dial-input dial-mono", rows: "3" });
  input.value = JSON.stringify(value ?? null, null, 2);
  input.addEventListener("input", () => {
    form.draft.local.delete(path);
    try {
      setAt(form.draft, parts, JSON.parse(input.value));
    } catch {
      form.draft.local.set(path, "Not valid JSON.");
    }
    showLocal(wrap, input, form.draft.local.get(path));
    form.onChange({});
  });
  return input;
}

/**
 * A field's own error (or none): shown under it, and on its input as aria-invalid.
 * @param {HTMLElement} wrap
 * @param {HTMLElement} input
 * @param {string | undefined} message
 */
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
