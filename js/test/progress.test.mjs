// node:test for a run's progress on its running card (run-progress.js, cards.js): the kernel's
// run-progress messages fill a <progress> bar with an accessible name and "n of m — message",
// in place (the card is not redrawn), said politely at most every few seconds; hostile values
// are refused or shown as text; the part goes once the card has its outcome.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { fakeModel, mounted as mountedWith, text } from "./model-double.mjs";
import { KEEP, SAY_MS, memoryOf, progressText, readProgress } from "../src/run-progress.js";
import { render } from "../src/view.js";

install();

const CARD = {
  type: "suggestion", id: "s1", action: "copy_files", text: "Copy them.", payload: { n: 10 },
  preview: "Copy 10 files", destructive: false, mutates: true,
};
const PROGRESS = { type: "run-progress", id: "s1", action: "copy_files", progress: 3, total: 10, message: "copying a.txt" };

const mounted = (state, options) => mountedWith(render, state, options);
const part = (m) => m.card().querySelector("[data-dial-run-progress]");

test("a running card shows 'n of m — message' over a progress bar with an accessible name", () => {
  const m = mounted({ transcript: [CARD], pending: {}, running: true });
  assert.equal(part(m).hidden, true, "nothing shown before the run says how far it is");
  const card = m.card();
  m.model.emit(PROGRESS);
  assert.equal(m.card(), card, "updated in place: the card is not redrawn");
  assert.equal(part(m).hidden, false);
  assert.equal(text(part(m).querySelector(".dial-run-progress-text")), "3 of 10 — copying a.txt");
  const bar = part(m).querySelector("progress");
  assert.equal(bar.getAttribute("aria-label"), "Progress of copy_files");
  assert.equal([bar.getAttribute("value"), bar.getAttribute("max")].join("/"), "3/10");
  assert.equal(bar.getAttribute("aria-valuetext"), "3 of 10 — copying a.txt");
});

test("without a total the bar is indeterminate and the words say only the count", () => {
  const m = mounted({ transcript: [CARD], pending: {}, running: true });
  m.model.emit({ ...PROGRESS, progress: 4, total: null, message: null });
  const bar = part(m).querySelector("progress");
  assert.equal(bar.getAttribute("value"), null);
  assert.equal(text(part(m).querySelector(".dial-run-progress-text")), "4");
  assert.equal(progressText({ progress: 2.5, total: 1000, message: "x" }), "2.5 of 1,000 — x");
});

test("a card redrawn while its run goes shows the latest progress at once", async () => {
  const m = mounted({ transcript: [CARD], pending: {}, running: true });
  m.model.emit(PROGRESS);
  m.model.emit({ ...PROGRESS, progress: 7, message: "copying g.txt" });
  await m.set("transcript", [{ ...CARD, preview: "Copy 10 files again" }]);
  assert.equal(text(part(m).querySelector(".dial-run-progress-text")), "7 of 10 — copying g.txt");
});

test("a screen reader hears progress politely, at most once every few seconds", (t) => {
  let now = 1_000_000;
  const clock = Date.now;
  Date.now = () => now; // the view's model is wrapped (view.js): its memory reads this clock
  t.after(() => { Date.now = clock; });
  const m = mounted({ transcript: [CARD], pending: {}, running: true });
  const live = () => part(m).querySelector("[data-dial-run-said]");
  assert.equal(live().getAttribute("aria-live"), "polite");
  m.model.emit(PROGRESS);
  assert.equal(text(live()), "3 of 10 — copying a.txt");
  for (let n = 4; n <= 9; n += 1) {
    now += 100;
    m.model.emit({ ...PROGRESS, progress: n });
  }
  assert.equal(text(live()), "3 of 10 — copying a.txt", "not said again within SAY_MS");
  assert.match(text(part(m).querySelector(".dial-run-progress-text")), /^9 of 10/, "but shown");
  now += SAY_MS;
  m.model.emit({ ...PROGRESS, progress: 10 });
  assert.equal(text(live()), "10 of 10 — copying a.txt");
});

test("the card with its outcome has no progress part", () => {
  const m = mounted({ transcript: [CARD], pending: {}, running: true });
  m.model.emit(PROGRESS);
  const done = { type: "outcome", id: "s1", action: "copy_files", status: "failed", preview: CARD.preview,
    error: "Stopped while it was running.", code: "stopped", hint: "It was asked to stop…" };
  const after = mounted({ transcript: [CARD, done], pending: {} });
  assert.equal(part(after), null);
});

test("hostile progress is refused or shown as text, bounded", () => {
  for (const bad of [null, "x", { type: "progress", id: "s1", progress: 1 }, { ...PROGRESS, id: 7 },
    { ...PROGRESS, id: "" }, { ...PROGRESS, progress: "3" }, { ...PROGRESS, progress: -1 },
    { ...PROGRESS, progress: Infinity }, { ...PROGRESS, progress: NaN }]) {
    assert.equal(readProgress(bad), null, JSON.stringify(bad));
  }
  assert.equal(readProgress({ ...PROGRESS, total: -5 }).total, null);
  const m = mounted({ transcript: [CARD], pending: {}, running: true });
  m.model.emit({ ...PROGRESS, message: `<img src=x onerror=alert(1)>${"y".repeat(5000)}` });
  const shown = part(m).querySelector(".dial-run-progress-text");
  assert.equal(shown.querySelector("img"), null, "text, never HTML");
  assert.ok(text(shown).length <= 220, "bounded");
  assert.match(text(shown), /^3 of 10 — <img src=x/);
});

test("only the latest KEEP runs are remembered", () => {
  const m = mounted({ transcript: [CARD], pending: {}, running: true });
  const memory = memoryOf(m.model);
  for (let n = 0; n < KEEP + 20; n += 1) m.model.emit({ ...PROGRESS, id: `r${n}` });
  assert.equal(memory.runs.size, KEEP);
  assert.ok(memory.runs.has(`r${KEEP + 19}`) && !memory.runs.has("r0"));
});

// ---- an accepted card is running until its outcome ---------------------------------------

const WAITING = { kind: "decide", token: "d1", id: "s1", payload: { n: 10 } };
const chip = (m) => text(m.card().querySelector(".dial-chip"));
const said = (m) => text(m.el.querySelector("[data-dial-announcer]"));
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test("an accepted card says Running… from the click until its outcome, buttons disabled, said once", async () => {
  const m = mounted({ transcript: [CARD], pending: WAITING, running: true });
  m.card().querySelector("[data-dial-action=accept]").click();
  await tick();
  assert.equal(m.card().getAttribute("data-dial-status"), "running", "at once, before the kernel answers");
  assert.equal(chip(m), "Running");
  const buttons = [...m.card().querySelectorAll("[data-dial-action]:not([data-dial-action=stop-run])")];
  assert.ok(buttons.length && buttons.every((b) => b.disabled), "every control stays disabled on a redraw");
  assert.equal(text(part(m).querySelector(".dial-run-progress-text")), "Running…");
  assert.equal(part(m).hidden, false);
  await m.set("pending", {}); // the kernel took the decision: the run goes on
  assert.equal(m.card().getAttribute("data-dial-status"), "running", "not 'Proposed' while it runs");
  assert.equal(m.card().querySelector("[data-dial-action=accept]"), null);
  assert.equal(text(part(m).querySelector(".dial-run-progress-text")), "Running…");
  assert.equal(m.card().querySelector("[data-dial-action=stop-run]")?.hidden ?? true, true, "Stop once the kernel says");
  m.model.emit({ type: "run-started", id: "s1", action: "copy_files", stoppable: true });
  await tick();
  assert.equal(m.card().querySelector("[data-dial-action=stop-run]").hidden, false, "its run is stoppable: Stop shown");
  m.model.emit(PROGRESS);
  assert.equal(text(part(m).querySelector(".dial-run-progress-text")), "3 of 10 — copying a.txt");
  await m.set("transcript", [CARD, { type: "outcome", id: "s1", action: "copy_files", status: "done", result: "ok" }]);
  assert.equal(m.card().getAttribute("data-dial-status"), "done");
  assert.equal(part(m), null, "no running part once it has its outcome");
  assert.equal(said(m).split("Running").length - 1, 1, "a screen reader hears 'Running' once");
  assert.match(said(m), /Done/);
  assert.equal(m.sent().filter((s) => s.type === "decide").length, 1);
});

test("a dismissed card is not running; an edit refused again waits again", async () => {
  const m = mounted({ transcript: [CARD], pending: WAITING, running: true });
  m.card().querySelector("[data-dial-action=dismiss]").click();
  await tick();
  assert.equal(m.card().getAttribute("data-dial-status"), "pending");
  const n = mounted({ transcript: [CARD], pending: WAITING, running: true });
  n.card().querySelector("[data-dial-action=accept]").click();
  await tick();
  await n.set("pending", { ...WAITING, token: "d2", issue: "refused" }); // the kernel asks again
  assert.equal(n.card().getAttribute("data-dial-status"), "pending");
  assert.equal(n.card().querySelector("[data-dial-run-progress]"), null);
});

test("a run the kernel says started shows Running…, with a Stop that stops it when stoppable", async () => {
  const m = mounted({ transcript: [CARD], pending: {}, running: true });
  assert.equal(m.card().getAttribute("data-dial-status"), "proposed");
  m.model.emit({ type: "run-started", id: "s1", action: "copy_files", stoppable: true });
  await tick();
  assert.equal(m.card().getAttribute("data-dial-status"), "running");
  const stop = m.card().querySelector("[data-dial-action=stop-run]");
  assert.ok(stop && !stop.hidden, "a stoppable run offers Stop");
  assert.match(stop.getAttribute("aria-label"), /Stop: Copy 10 files/);
  stop.click();
  assert.deepEqual(m.sent().at(-1), { type: "stop" });
  assert.equal(stop.disabled, true);
  const n = mounted({ transcript: [CARD], pending: {}, running: true });
  n.model.emit({ type: "run-started", id: "s1", action: "copy_files", stoppable: false });
  await tick();
  assert.equal(n.card().getAttribute("data-dial-status"), "running");
  assert.equal(n.card().querySelector("[data-dial-action=stop-run]")?.hidden ?? true, true, "not stoppable: no Stop on the card");
  for (const bad of [{ type: "run-started" }, { type: "run-started", id: 3 }, { type: "run-started", id: "" }]) {
    n.model.emit(bad); // refused: nothing breaks
  }
});

test("an execute step's progress is drawn on its step while it runs", async () => {
  const block = { type: "suggestion", id: "ex-1", kind: "execute", action: "execute", preview: "2 steps",
    payload: { steps: [{ id: "ex-1.1", env: "python", command: "work()" }, { id: "ex-1.2", env: "python", command: "more()" }] } };
  const m = mounted({ transcript: [block], pending: {}, running: true }, { card: "ex-1" });
  m.model.emit({ type: "run-started", id: "ex-1.1", action: "execute:python", stoppable: false });
  await tick();
  assert.equal(m.card().getAttribute("data-dial-status"), "running");
  m.model.emit({ type: "run-progress", id: "ex-1.1", action: "execute:python", progress: 2, total: 5, message: "rows" });
  const step = m.card().querySelector('[data-dial-step="ex-1.1"]');
  assert.equal(step.getAttribute("data-dial-status"), "running");
  assert.equal(text(step.querySelector(".dial-run-progress-text")), "2 of 5 — rows");
  assert.equal(m.card().querySelector('[data-dial-step="ex-1.2"] [data-dial-run-progress]')?.hidden ?? true, true,
    "a step not started shows nothing");
});

test("the view's run listener goes when the view is disposed", () => {
  const model = fakeModel({ transcript: [CARD], pending: {}, running: true });
  const live = new Set();
  const { on, off } = model;
  model.on = (name, callback) => { if (name === "msg:custom") live.add(callback); on(name, callback); };
  model.off = (name, callback) => { if (name === "msg:custom") live.delete(callback); off(name, callback); };
  const el = document.createElement("div");
  document.body.append(el);
  const dispose = render({ model, el });
  assert.ok(live.size > 0);
  for (let n = 0; n < 3; n += 1) render({ model, el: document.createElement("div") })(); // re-renders
  dispose();
  assert.equal(live.size, 0, "no listener left behind");
});

test("a run the kernel says goes before the view is drawn (a page come back) shows Running…", async () => {
  const { initialize } = await import("../src/live.js");
  const model = fakeModel({ transcript: [CARD], pending: {}, running: true });
  initialize({ model }); // sends sync; the kernel answers with the runs going
  model.emit({ type: "run-started", id: "s1", action: "copy_files", stoppable: true });
  const el = document.createElement("div");
  document.body.append(el);
  render({ model, el });
  await tick();
  const card = el.querySelector('[data-dial-suggestion="s1"]');
  assert.equal(card.getAttribute("data-dial-status"), "running");
  assert.equal(card.querySelector("[data-dial-action=stop-run]").hidden, false);
});

test("an execute block whose steps all ended is done, though the kernel said its run started", async () => {
  const { itemsOf } = await import("../src/items.js");
  const block = { type: "suggestion", id: "ex-1", kind: "execute", payload: { steps: [{ id: "ex-1.1", env: "python" }] } };
  const step = { type: "outcome", id: "ex-1.1", block: "ex-1", status: "done" };
  assert.equal(itemsOf([block, step], {}, new Set(["ex-1", "ex-1.1"]))[0].status, "done");
  assert.equal(itemsOf([block], {}, new Set(["ex-1"]))[0].status, "running");
});
