// @ts-check
// The schema a rule's fields make (pure: no DOM, no model): for "Always allow like this…" on a
// card, one row per top-level field of the payload (the whole value for a payload that is no
// object), each exactly its value, any value of its type, a range (numbers) or a pattern
// (strings); the rows make one JSON Schema, or say why they cannot (a bound that is no number).
// The kernel decides what a rule is and what it matches: this only derives the schema it is asked
// about.
//
//   payload ──ruleFields──▶ rows {pointer, name, value} ──initialField──▶ FieldRule each
//   rows + FieldRules ──fieldsSchema──▶ {schema} | {error, field}
//   RuleEdit ──ruleSchemaOf──▶ the hand-written schema when there is one, else the rows'

import { jsonPointer } from "./text.js";

/** @typedef {import("./contract.js").Json} Json */
/** @typedef {import("./contract.js").SuggestionEvent} SuggestionEvent */
/** @typedef {import("./state.js").RuleEdit} RuleEdit */
/** @typedef {import("./state.js").FieldRule} FieldRule */
/** @typedef {'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null'} ValueType */
/** @typedef {{schema: Json, error?: undefined, field?: undefined} | {error: string, field: string | null, schema?: undefined}} SchemaResult */

/**
 * The JSON Schema type of a value: 'integer' for a whole number, 'number' for any other.
 * @param {Json} value
 * @returns {ValueType}
 */
export function valueType(value) {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  return "object";
}

/**
 * Text as a regular expression that matches it literally ('a.b' -> 'a\.b').
 * @param {string} text
 */
export function regexEscape(text) {
  return String(text).replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

/**
 * The choices a field offers: exactly, any (of its type), and a range for a number, a pattern
 * for a string.
 * @param {Json} value
 * @returns {FieldRule['kind'][]}
 */
export function kindsFor(value) {
  const type = valueType(value);
  return ["exact", "any", ...(type === "integer" || type === "number" ? /** @type {const} */ (["range"]) : []),
    ...(type === "string" ? /** @type {const} */ (["pattern"]) : [])];
}

/**
 * A field's rule at first: exactly its value; the range and the pattern pre-filled from it.
 * @param {Json} value
 * @returns {FieldRule}
 */
export function initialField(value) {
  const number = typeof value === "number";
  return {
    kind: "exact", min: number ? String(value) : "", max: number ? String(value) : "",
    pattern: typeof value === "string" ? `^${regexEscape(value)}$` : "",
  };
}

/**
 * @param {Json} value
 * @returns {value is {[key: string]: Json}}
 */
function isObject(value) {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}

/**
 * The rows of a rule: each top-level field of an object payload, else the whole value ('').
 * @param {Json} payload
 * @returns {{pointer: string, name: string, value: Json}[]}
 */
export function ruleFields(payload) {
  if (isObject(payload)) return Object.entries(payload).map(([name, value]) => ({ pointer: jsonPointer([name]), name, value }));
  return [{ pointer: "", name: "", value: payload ?? null }];
}

/**
 * One field's schema as its rule says, or why there is none (a bound that is no number).
 * @param {Json} value
 * @param {FieldRule} rule
 * @returns {{schema: {[key: string]: Json}} | {error: string}}
 */
export function fieldSchema(value, rule) {
  const type = valueType(value);
  if (rule.kind === "any") return { schema: { type } };
  if (rule.kind === "range" && (type === "integer" || type === "number")) {
    /** @type {{[key: string]: Json}} */
    const schema = { type };
    for (const [key, raw, label] of /** @type {const} */ ([["minimum", rule.min, "From"], ["maximum", rule.max, "To"]])) {
      const text = String(raw ?? "").trim();
      if (text === "") continue; // no bound on that side
      const bound = Number(text);
      if (!Number.isFinite(bound)) return { error: `${label} is not a number.` };
      schema[key] = bound;
    }
    if (typeof schema.minimum === "number" && typeof schema.maximum === "number" && schema.minimum > schema.maximum) {
      return { error: "From is above To: no value is in that range." };
    }
    return { schema };
  }
  if (rule.kind === "pattern" && type === "string") return { schema: { type: "string", pattern: String(rule.pattern ?? "") } };
  return { schema: { const: value } };
}

/**
 * The schema the rows make: for an object payload, an object of exactly those fields (each as
 * its rule says); for any other payload, the one field's schema. A field whose rule is not
 * given is exactly its value.
 * @param {Json} payload
 * @param {Map<string, FieldRule>} fields  pointer -> rule
 * @returns {SchemaResult}
 */
export function fieldsSchema(payload, fields) {
  const rows = ruleFields(payload);
  if (!isObject(payload)) {
    const one = fieldSchema(rows[0].value, fields.get("") ?? initialField(rows[0].value));
    return "error" in one ? { error: one.error, field: "" } : { schema: one.schema };
  }
  /** @type {[string, Json][]} */
  const entries = [];
  for (const row of rows) {
    const one = fieldSchema(row.value, fields.get(row.pointer) ?? initialField(row.value));
    if ("error" in one) return { error: one.error, field: row.pointer };
    entries.push([row.name, one.schema]);
  }
  // own properties whatever the agent named its fields: `__proto__` included (an assignment
  // would set the prototype, leaving that field out of the rule)
  const properties = Object.fromEntries(entries);
  return { schema: { type: "object", properties, required: rows.map((row) => row.name), additionalProperties: false } };
}

/**
 * The schema a rule starts with: every field exactly as it is.
 * @param {Json} payload
 */
export function derivedSchema(payload) {
  return /** @type {{schema: Json}} */ (fieldsSchema(payload, new Map())).schema;
}

/**
 * The schema the editor holds now: the hand-written one when there is one (or why it does not
 * parse), else the rows'.
 * @param {RuleEdit} rule
 * @returns {SchemaResult}
 */
export function ruleSchemaOf(rule) {
  if (rule.json !== null) {
    try {
      return { schema: JSON.parse(rule.json) };
    } catch (error) {
      return { error: `That is not valid JSON: ${/** @type {Error} */ (error).message}`, field: null };
    }
  }
  return fieldsSchema(rule.payload, rule.fields);
}

/**
 * Whether a card may get "Always allow like this…": the kernel said so, and it is no execute
 * block, no destructive card, nor one a rule already accepted.
 * @param {SuggestionEvent} event
 */
export function allowable(event) {
  return event.allowable === true && event.kind !== "execute" && !event.destructive && !event.rule;
}
