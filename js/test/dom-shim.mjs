// A small DOM for node:test: enough of document, elements, events and selectors for the
// front end's modules to draw into it and for a test to click what they drew. Not a browser:
// no layout, no styles, no HTML parser (setting innerHTML throws, since the front end never
// uses it: agent text is only ever textContent). Import it before any module of js/src.
//
//   import { install } from "./dom-shim.mjs";   install();   // globals: document, Node, CSS, …
//   node.querySelector("[data-dial-action=undo]").click();
//
// Selectors: tag, *, #id, .class, [attr], [attr=value], [attr="value"], :scope, :not(…), :is(…),
// descendant and child (>) combinators, comma lists.

class ShimEvent {
  /** @param {string} type @param {{bubbles?: boolean, key?: string}} [init] */
  constructor(type, init = {}) {
    this.type = type;
    this.bubbles = init.bubbles ?? true;
    this.key = init.key;
    this.target = null;
    this.currentTarget = null;
    this.defaultPrevented = false;
    this.stopped = false;
  }
  preventDefault() { this.defaultPrevented = true; }
  stopPropagation() { this.stopped = true; }
}

class ShimNode {
  constructor() {
    /** @type {ShimNode[]} */
    this.childNodes = [];
    /** @type {ShimElement | null} */
    this.parentNode = null;
    /** @type {Map<string, {fn: Function, once: boolean}[]>} */
    this.listeners = new Map();
  }
  get parentElement() { return this.parentNode; }
  get firstChild() { return this.childNodes[0] ?? null; }
  get lastChild() { return this.childNodes[this.childNodes.length - 1] ?? null; }
  get nextSibling() {
    const siblings = this.parentNode ? this.parentNode.childNodes : [];
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }
  get previousSibling() {
    const siblings = this.parentNode ? this.parentNode.childNodes : [];
    const at = siblings.indexOf(this);
    return at > 0 ? siblings[at - 1] : null;
  }
  get isConnected() {
    let node = this;
    while (node.parentNode) node = node.parentNode;
    return node === globalThis.document?.body || node === globalThis.document?.documentElement;
  }
  remove() {
    if (!this.parentNode) return;
    const siblings = this.parentNode.childNodes;
    siblings.splice(siblings.indexOf(this), 1);
    this.parentNode = null;
  }
  /** @param {...(ShimNode | string)} nodes */
  replaceWith(...nodes) {
    const parent = this.parentNode;
    if (!parent) return;
    const next = this.nextSibling;
    this.remove();
    for (const node of nodes) parent.insertBefore(toNode(node), next);
  }
  /** @param {...(ShimNode | string)} nodes */
  after(...nodes) {
    const parent = this.parentNode;
    if (!parent) return;
    let next = this.nextSibling;
    for (const node of nodes) parent.insertBefore(toNode(node), next);
  }
  /** @param {...(ShimNode | string)} nodes */
  before(...nodes) {
    const parent = this.parentNode;
    if (!parent) return;
    for (const node of nodes) parent.insertBefore(toNode(node), this);
  }
  /** @param {ShimNode | null} other */
  contains(other) {
    for (let node = other; node; node = node.parentNode) if (node === this) return true;
    return false;
  }
  addEventListener(type, fn, options) {
    const once = typeof options === "object" && options !== null && Boolean(options.once);
    this.listeners.set(type, [...(this.listeners.get(type) || []), { fn, once }]);
  }
  removeEventListener(type, fn) {
    this.listeners.set(type, (this.listeners.get(type) || []).filter((l) => l.fn !== fn));
  }
  /** @param {ShimEvent} event */
  dispatchEvent(event) {
    event.target = this;
    for (let node = this; node; node = event.bubbles ? node.parentNode : null) {
      event.currentTarget = node;
      for (const listener of [...(node.listeners.get(event.type) || [])]) {
        if (listener.once) node.removeEventListener(event.type, listener.fn);
        listener.fn.call(node, event);
      }
      if (event.stopped) break;
    }
    return !event.defaultPrevented;
  }
}

class ShimText extends ShimNode {
  /** @param {string} text */
  constructor(text) {
    super();
    this.data = String(text);
    this.nodeType = 3;
  }
  get textContent() { return this.data; }
  set textContent(value) { this.data = String(value); }
}

/** @param {ShimNode | string} node */
function toNode(node) {
  return node instanceof ShimNode ? node : new ShimText(String(node));
}

const BOOLEAN_ATTRIBUTES = ["hidden", "disabled", "checked", "selected", "readonly", "required", "multiple", "open"];

class ShimElement extends ShimNode {
  /** @param {string} tag */
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    this.localName = tag.toLowerCase();
    this.nodeType = 1;
    /** @type {Map<string, string>} */
    this.attributeMap = new Map();
    this.style = {};
    this.scrollTop = 0;
    this.scrollHeight = 0;
    this.clientHeight = 0;
    this._value = "";
    const element = this;
    this.classList = {
      add: (...names) => element.setClasses([...new Set([...element.classes(), ...names])]),
      remove: (...names) => element.setClasses(element.classes().filter((c) => !names.includes(c))),
      contains: (name) => element.classes().includes(name),
      toggle: (name, force) => {
        const on = force === undefined ? !element.classes().includes(name) : Boolean(force);
        if (on) element.classList.add(name);
        else element.classList.remove(name);
        return on;
      },
    };
    this.dataset = new Proxy({}, {
      get: (_, key) => element.getAttribute(dataName(String(key))) ?? undefined,
      set: (_, key, value) => {
        element.setAttribute(dataName(String(key)), String(value));
        return true;
      },
      deleteProperty: (_, key) => {
        element.removeAttribute(dataName(String(key)));
        return true;
      },
    });
  }
  classes() { return (this.getAttribute("class") || "").split(/\s+/).filter(Boolean); }
  /** @param {string[]} names */
  setClasses(names) { this.setAttribute("class", names.join(" ")); }
  get className() { return this.getAttribute("class") || ""; }
  set className(value) { this.setAttribute("class", String(value)); }
  get id() { return this.getAttribute("id") || ""; }
  set id(value) { this.setAttribute("id", String(value)); }
  getAttribute(name) { return this.attributeMap.has(name) ? /** @type {string} */ (this.attributeMap.get(name)) : null; }
  setAttribute(name, value) { this.attributeMap.set(String(name).toLowerCase(), String(value)); }
  hasAttribute(name) { return this.attributeMap.has(name); }
  removeAttribute(name) { this.attributeMap.delete(name); }
  get children() { return this.childNodes.filter((n) => n instanceof ShimElement); }
  get lastElementChild() { return this.children.at(-1) ?? null; }
  get textContent() { return this.childNodes.map((n) => n.textContent).join(""); }
  set textContent(value) {
    for (const child of [...this.childNodes]) child.remove();
    if (value !== "" && value !== null && value !== undefined) this.append(String(value));
  }
  set innerHTML(_) { throw new Error("innerHTML is never set: agent text is only ever textContent"); }
  get innerHTML() { throw new Error("innerHTML is not read by the front end"); }
  get value() { return this._value; }
  set value(value) { this._value = String(value); }
  /** @param {...(ShimNode | string)} nodes */
  append(...nodes) { for (const node of nodes) this.insertBefore(toNode(node), null); }
  /** @param {...(ShimNode | string)} nodes */
  prepend(...nodes) {
    const first = this.firstChild;
    for (const node of nodes) this.insertBefore(toNode(node), first);
  }
  /** @param {ShimNode} node */
  appendChild(node) {
    this.insertBefore(node, null);
    return node;
  }
  /** @param {ShimNode} node @param {ShimNode | null} reference */
  insertBefore(node, reference) {
    if (node === reference) return node;
    node.remove();
    const at = reference ? this.childNodes.indexOf(reference) : -1;
    if (at < 0) this.childNodes.push(node);
    else this.childNodes.splice(at, 0, node);
    node.parentNode = this;
    return node;
  }
  /** @param {...(ShimNode | string)} nodes */
  replaceChildren(...nodes) {
    for (const child of [...this.childNodes]) child.remove();
    this.append(...nodes);
  }
  click() {
    if (this.disabled) return;
    this.dispatchEvent(new ShimEvent("click"));
  }
  focus() { globalThis.document.activeElement = this; }
  blur() { if (globalThis.document.activeElement === this) globalThis.document.activeElement = globalThis.document.body; }
  /** @param {string} selector */
  matches(selector) { return parseList(selector).some((complex) => matchComplex(this, complex, complex.length - 1, this)); }
  /** @param {string} selector */
  closest(selector) {
    for (let node = this; node; node = node.parentNode) if (node.matches(selector)) return node;
    return null;
  }
  /** @param {string} selector */
  querySelectorAll(selector) {
    const list = parseList(selector);
    /** @type {ShimElement[]} */
    const found = [];
    const walk = (/** @type {ShimElement} */ node) => {
      for (const child of node.children) {
        if (list.some((complex) => matchComplex(child, complex, complex.length - 1, this))) found.push(child);
        walk(child);
      }
    };
    walk(this);
    return found;
  }
  /** @param {string} selector */
  querySelector(selector) { return this.querySelectorAll(selector)[0] ?? null; }
}
for (const name of BOOLEAN_ATTRIBUTES) {
  Object.defineProperty(ShimElement.prototype, name, {
    get() { return this.hasAttribute(name); },
    set(on) {
      if (on) this.setAttribute(name, "");
      else this.removeAttribute(name);
    },
  });
}

/** @param {string} key 'dialSignal' -> 'data-dial-signal' */
function dataName(key) {
  return `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

// ---- selectors ---------------------------------------------------------------------------------

/** Split `text` at `separator` characters outside (), [] and quotes. */
function splitTop(text, isSeparator) {
  const parts = [];
  let depth = 0;
  let quote = "";
  let current = "";
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = "";
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "(" || char === "[") depth += 1;
    else if (char === ")" || char === "]") depth -= 1;
    else if (depth === 0 && isSeparator(char)) {
      parts.push(current, char);
      current = "";
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts;
}

const parsed = new Map();
/** @param {string} selector */
function parseList(selector) {
  if (!parsed.has(selector)) {
    const list = splitTop(selector, (c) => c === ",").filter((p) => p !== ",").map((p) => parseComplex(p.trim()));
    parsed.set(selector, list);
  }
  return parsed.get(selector);
}

/** A complex selector: compounds, each with the combinator that joins it to the one before. */
function parseComplex(text) {
  const tokens = splitTop(text, (c) => c === " " || c === ">");
  const out = [];
  let combinator = " ";
  for (const token of tokens) {
    if (token === " " || token === "") continue;
    if (token === ">") {
      combinator = ">";
      continue;
    }
    out.push({ combinator: out.length ? combinator : null, compound: parseCompound(token) });
    combinator = " ";
  }
  return out;
}

function parseCompound(text) {
  const compound = { tag: null, ids: [], classes: [], attrs: [], pseudos: [] };
  let at = 0;
  const name = () => {
    const match = /^[-\w]+|^\*/.exec(text.slice(at));
    at += match ? match[0].length : 0;
    return match ? match[0] : "";
  };
  if (/[\w*]/.test(text[0] ?? "")) compound.tag = name().toLowerCase();
  while (at < text.length) {
    const char = text[at];
    at += 1;
    if (char === "#") compound.ids.push(name());
    else if (char === ".") compound.classes.push(name());
    else if (char === "[") {
      const end = findClose(text, at - 1, "[", "]");
      const inner = text.slice(at, end);
      at = end + 1;
      const eq = inner.indexOf("=");
      if (eq < 0) compound.attrs.push({ name: inner.trim(), value: undefined });
      else {
        let value = inner.slice(eq + 1).trim();
        if (/^["'].*["']$/.test(value)) value = value.slice(1, -1).replace(/\\(.)/g, "$1");
        compound.attrs.push({ name: inner.slice(0, eq).trim(), value });
      }
    } else if (char === ":") {
      const pseudo = name();
      let arg = null;
      if (text[at] === "(") {
        const end = findClose(text, at, "(", ")");
        arg = parseList(text.slice(at + 1, end));
        at = end + 1;
      }
      compound.pseudos.push({ name: pseudo, arg });
    } else {
      throw new Error(`dom-shim: selector not understood: ${text}`);
    }
  }
  return compound;
}

function findClose(text, open, left, right) {
  let depth = 0;
  let quote = "";
  for (let i = open; i < text.length; i += 1) {
    const char = text[i];
    if (quote) {
      if (char === quote) quote = "";
    } else if (char === '"' || char === "'") quote = char;
    else if (char === left) depth += 1;
    else if (char === right) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new Error(`dom-shim: unclosed ${left} in ${text}`);
}

function matchCompound(element, compound, scope) {
  if (compound.tag && compound.tag !== "*" && element.localName !== compound.tag) return false;
  if (compound.ids.some((id) => element.id !== id)) return false;
  if (compound.classes.some((c) => !element.classList.contains(c))) return false;
  for (const attr of compound.attrs) {
    if (!element.hasAttribute(attr.name)) return false;
    if (attr.value !== undefined && element.getAttribute(attr.name) !== attr.value) return false;
  }
  for (const pseudo of compound.pseudos) {
    const any = () => pseudo.arg.some((complex) => matchComplex(element, complex, complex.length - 1, scope));
    if (pseudo.name === "scope" && element !== scope) return false;
    if (pseudo.name === "not" && any()) return false;
    if (pseudo.name === "is" && !any()) return false;
    if (!["scope", "not", "is"].includes(pseudo.name)) throw new Error(`dom-shim: :${pseudo.name} not supported`);
  }
  return true;
}

function matchComplex(element, complex, index, scope) {
  const { combinator, compound } = complex[index];
  if (!matchCompound(element, compound, scope)) return false;
  if (index === 0) return true;
  if (combinator === ">") {
    return Boolean(element.parentNode) && matchComplex(element.parentNode, complex, index - 1, scope);
  }
  for (let node = element.parentNode; node; node = node.parentNode) {
    if (node instanceof ShimElement && matchComplex(node, complex, index - 1, scope)) return true;
  }
  return false;
}

// ---- the globals ---------------------------------------------------------------------------------

/**
 * Put document, Node, CSS, navigator.clipboard and getSelection on globalThis (once);
 * returns what a test reads back: the texts written to the clipboard, the node last selected.
 */
export function install() {
  if (globalThis.__domShim) return globalThis.__domShim;
  const body = new ShimElement("body");
  const document = {
    body,
    activeElement: body,
    createElement: (tag) => new ShimElement(tag),
    createTextNode: (text) => new ShimText(text),
    execCommand: () => shim.execCommand,
  };
  const shim = {
    /** texts written by navigator.clipboard.writeText */
    clipboard: /** @type {string[]} */ ([]),
    /** false: writeText rejects (as a page without the permission) */
    clipboardWorks: true,
    /** what document.execCommand('copy') answers */
    execCommand: false,
    /** the node whose text was last selected */
    selected: /** @type {ShimElement | null} */ (null),
    Event: ShimEvent,
  };
  Object.assign(globalThis, {
    document,
    Node: ShimNode,
    Text: ShimText,
    Element: ShimElement,
    HTMLElement: ShimElement,
    CSS: { escape: (value) => String(value).replace(/["\\]/g, "\\$&") },
    getSelection: () => ({
      removeAllRanges() {},
      selectAllChildren(node) { shim.selected = node; },
    }),
    __domShim: shim,
  });
  Object.defineProperty(globalThis, "navigator", {
    configurable: true,
    value: {
      clipboard: {
        writeText: async (text) => {
          if (!shim.clipboardWorks) throw new Error("not allowed");
          shim.clipboard.push(String(text));
        },
      },
    },
  });
  return shim;
}

export { ShimEvent };
