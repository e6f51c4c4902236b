// node:test for a run's progress on its running card (run-progress.js, cards.js): the kernel's
// run-progress messages fill a <progress> bar with an accessible name and "n of m — message",
// in place (the card is not redrawn), said politely at most every few seconds; hostile values
// are refused or shown as text; the part goes once the card has its outcome.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";
import { mounted as mountedWith, text } from "./model-double.mjs";
import { KEEP, SAY_MS, memoryOf, progressText, readProgress } from "../src/run-progress.js";
import { render } from "../src/view.js";

install();

const CARD = {
  type: "suggestion", id: "s1", action: "copy_files", text: "Copy them.", payload: { n: 10 },
  preview: "Copy 10 files", destructive: false, mutates: true,
};
const PROGRESS = { type: "run-progress", id: "s1", action: "copy_files", progress: 3, total: 10, message: "copying a.txt" };

const mounted = (state) => mountedWith(render, state);
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
