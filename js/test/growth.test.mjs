// node:test for a long conversation's growth (issue 29), by counts, never by times: one event
// appended at 2,000 events draws the same number of item nodes, serialises as little and reads
// as few nodes as at 200 (nothing proportional to the conversation's length); a late outcome
// still redraws its earlier card; the log is kept at its bottom while entries take their size.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { longTranscript } from "./long-transcript.mjs";
import { mounted } from "./model-double.mjs";

install();
const { render } = await import("../src/view.js");
const { atBottom, pinToBottom } = await import("../src/bottom.js");
const { BLOCK, entriesOf } = await import("../src/log.js");

/**
 * What appending `events` to a drawn conversation of `length` events costs: the item nodes
 * drawn (a node in the log that was not there before), JSON.stringify calls and querySelector
 * calls made by the redraw.
 */
async function append(length, events) {
  const widget = mounted(render, { transcript: longTranscript(length) });
  const log = widget.el.querySelector(".dial-log");
  const before = new Set(entriesOf(log));
  const counts = { drawn: 0, stringified: 0, queried: 0 };
  const { stringify } = JSON;
  const { querySelector } = HTMLElement.prototype;
  JSON.stringify = (...args) => { counts.stringified += 1; return stringify(...args); };
  HTMLElement.prototype.querySelector = function (selector) { counts.queried += 1; return querySelector.call(this, selector); };
  try {
    await widget.set("transcript", [...widget.model.get("transcript"), ...events]);
  } finally {
    JSON.stringify = stringify;
    HTMLElement.prototype.querySelector = querySelector;
  }
  counts.drawn = entriesOf(log).filter((node) => !before.has(node)).length;
  return { ...counts, widget, log };
}

const NEW_CARD = [
  { type: "person", text: "And the outliers?" },
  { type: "suggestion", id: "new", action: "describe", text: "Find them?", payload: {}, preview: "Find the outliers" },
];

test("one append draws only what it adds, the same at 2,000 events as at 200", async () => {
  const short = await append(200, NEW_CARD);
  const long = await append(2000, NEW_CARD);
  assert.equal(long.drawn, 2, "the person's words and the new card, nothing else");
  assert.deepEqual({ ...long, widget: 0, log: 0 }, { ...short, widget: 0, log: 0 });
  assert.ok(entriesOf(long.log).length > 600, "the whole conversation is in the log, one node per item");
  assert.equal(long.widget.card("new").getAttribute("data-dial-status"), "proposed");
});

test("a late outcome redraws its earlier card, and only it", async () => {
  const { widget } = await append(2000, NEW_CARD);
  const log = widget.el.querySelector(".dial-log");
  const card = widget.card("new");
  await widget.set("transcript", [...widget.model.get("transcript"), { type: "inform", act: "inform", text: "Meanwhile…" }]);
  const before = new Set(entriesOf(log));
  await widget.set("transcript", [...widget.model.get("transcript"),
    { type: "outcome", id: "new", action: "describe", status: "done", preview: "Find the outliers", result: "3 outliers" }]);
  const drawn = entriesOf(log).filter((node) => !before.has(node));
  assert.equal(drawn.length, 1);
  assert.equal(drawn[0], widget.card("new"));
  assert.notEqual(widget.card("new"), card);
  assert.equal(widget.card("new").getAttribute("data-dial-status"), "done");
  const entries = entriesOf(log);
  assert.equal(entries.indexOf(widget.card("new")), entries.length - 2, "in its place, before 'Meanwhile…'");
});

test("the whole transcript sent again (same content, new objects) redraws nothing", async () => {
  const widget = mounted(render, { transcript: longTranscript(400) });
  const log = widget.el.querySelector(".dial-log");
  const before = entriesOf(log);
  await widget.set("transcript", structuredClone(widget.model.get("transcript")));
  assert.deepEqual(entriesOf(log), before);
});

test("the log holds its entries in blocks of BLOCK, in order, whatever is added or taken away", async () => {
  const widget = mounted(render, { transcript: longTranscript(400) });
  const log = widget.el.querySelector(".dial-log");
  const shape = () => log.children.map((block) => block.children.length);
  const full = (count) => [...Array(Math.floor(count / BLOCK)).fill(BLOCK), ...(count % BLOCK ? [count % BLOCK] : [])];
  const count = entriesOf(log).length;
  assert.ok(count > 2 * BLOCK);
  assert.ok(log.children.every((block) => block.className === "dial-log-block"));
  assert.deepEqual(shape(), full(count));
  // an item in the middle goes away (a shorter transcript): every entry after it moves up one
  const transcript = widget.model.get("transcript");
  await widget.set("transcript", transcript.slice(0, 30));
  const fewer = entriesOf(log).length;
  assert.deepEqual(shape(), full(fewer));
  await widget.set("transcript", transcript);
  assert.deepEqual(shape(), full(count));
  assert.deepEqual(entriesOf(log).map((node) => node.textContent),
    entriesOf(mounted(render, { transcript }).el.querySelector(".dial-log")).map((node) => node.textContent));
});

/** A scrolling box as the log is: scrollTop clamped to what can be scrolled. */
function fakeLog(height) {
  let top = 0;
  return {
    scrollHeight: height, clientHeight: 500, isConnected: true,
    get scrollTop() { return top; },
    set scrollTop(value) { top = Math.max(0, Math.min(value, this.scrollHeight - this.clientHeight)); },
  };
}

/** requestAnimationFrame, by hand: `frame()` runs the callbacks asked for so far. */
function frames() {
  let queue = [];
  globalThis.requestAnimationFrame = (callback) => queue.push(callback);
  return {
    frame: () => { const now = queue; queue = []; for (const callback of now) callback(); },
    get waiting() { return queue.length; },
    done: () => { delete globalThis.requestAnimationFrame; },
  };
}

test("the log is kept at its bottom while its entries take their real size, then let go", () => {
  const raf = frames();
  try {
    const log = fakeLog(1000);
    pinToBottom(log);
    assert.equal(atBottom(log), true, "about to be at the bottom: a second update follows too");
    raf.frame();
    assert.equal(log.scrollTop, 500);
    log.scrollHeight = 1400; // the newest entry drawn at its real size
    raf.frame();
    assert.equal(log.scrollTop, 900);
    raf.frame(); // held still: done
    assert.equal(raf.waiting, 0);
  } finally {
    raf.done();
  }
});

test("a pin lets go when the person scrolls away", () => {
  const raf = frames();
  try {
    const log = fakeLog(1000);
    pinToBottom(log);
    raf.frame();
    log.scrollTop = 100; // the person scrolls up
    log.scrollHeight = 1400;
    raf.frame();
    assert.equal(log.scrollTop, 100);
    assert.equal(raf.waiting, 0);
    assert.equal(atBottom(log), false);
  } finally {
    raf.done();
  }
});

/** fakeLog, with its event listeners: `fire(type)` calls them. */
function listenedLog(height) {
  const log = fakeLog(height);
  const listeners = new Map();
  log.addEventListener = (type, callback) => listeners.set(type, [...(listeners.get(type) || []), callback]);
  log.removeEventListener = (type, callback) => listeners.set(type, (listeners.get(type) || []).filter((c) => c !== callback));
  log.fire = (type) => { for (const callback of listeners.get(type) || []) callback({ type }); };
  log.listening = () => [...listeners.values()].reduce((n, list) => n + list.length, 0);
  return log;
}

/** IntersectionObserver, by hand: `show(el)` tells each observer of `el` it came into view. */
function observers() {
  const watching = [];
  globalThis.IntersectionObserver = class {
    constructor(callback) { this.callback = callback; this.targets = new Set(); watching.push(this); }
    observe(el) { this.targets.add(el); }
    disconnect() { this.targets.clear(); }
  };
  return {
    show: (el) => { for (const o of watching) if (o.targets.has(el)) o.callback([{ target: el, isIntersecting: true }]); },
    done: () => { delete globalThis.IntersectionObserver; },
  };
}

test("a log that comes back into view at its top goes to its bottom, unless the person scrolled away", async () => {
  const { followBottom, follows } = await import("../src/bottom.js");
  const raf = frames();
  const seen = observers();
  try {
    const log = listenedLog(1000);
    const stop = followBottom(log);
    assert.equal(follows(log), true, "a new log follows what is added");
    log.scrollTop = 0; // off screen, then back: laid out again at its top (JupyterLab's windowing)
    log.fire("scroll"); // nobody touched it: not the person scrolling away
    assert.equal(follows(log), true);
    seen.show(log);
    raf.frame();
    assert.equal(log.scrollTop, 500, "back at its bottom, the newest entry in view");
    raf.frame();
    log.fire("wheel"); // the person scrolls up to read
    log.scrollTop = 100;
    log.fire("scroll");
    assert.equal(follows(log), false, "new entries no longer pull the log down");
    seen.show(log);
    raf.frame();
    assert.equal(log.scrollTop, 100, "where the person left it");
    stop();
    assert.equal(log.listening(), 0, "no listener left behind");
  } finally {
    raf.done();
    seen.done();
  }
});

test("sending a message brings the log to its bottom and it follows again", async () => {
  const { followBottom, follows, followAgain } = await import("../src/bottom.js");
  const raf = frames();
  try {
    const log = listenedLog(1000);
    followBottom(log);
    log.fire("keydown");
    log.scrollTop = 0;
    log.fire("scroll");
    assert.equal(follows(log), false);
    followAgain(log); // the person sent a message: their words and the reply in view
    assert.equal(follows(log), true);
    raf.frame();
    assert.equal(log.scrollTop, 500);
  } finally {
    raf.done();
  }
});
