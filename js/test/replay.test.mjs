// node:test for the replay's pure logic (js/src/replay-steps.js): which message the agent had
// received at a step, which question was waiting, which item an event drew or changed, and the
// words for each event — over small transcripts and the real one the kernel makes
// (fixtures/transcript.json).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { itemsOf } from "../src/items.js";
import {
  aboutEvent, clampStep, describe, EVENT_ABOUT, fieldsOf, latestSent, ownerKey, replayPending, savedAt, tickKind,
} from "../src/replay-steps.js";

const transcript = JSON.parse(readFileSync(new URL("./fixtures/transcript.json", import.meta.url), "utf8"));

test("a step is a whole number from 0 to the number of events", () => {
  assert.equal(clampStep(3, 10), 3);
  assert.equal(clampStep(-1, 10), 0);
  assert.equal(clampStep(11, 10), 10);
  assert.equal(clampStep(2.7, 10), 2);
  assert.equal(clampStep("4", 10), 4);
  assert.equal(clampStep("x", 10), 0);
  assert.equal(clampStep(undefined, 10), 0);
  assert.equal(clampStep(Infinity, 10), 0);
});

test("what the agent received is the latest sent message at or before the step, exact", () => {
  const events = [
    { type: "person", text: "hi" },
    { type: "sent", turn: 1, message: "<context/>\n\nhi" },
    { type: "reply", turn: 1, text: "<dial/>" },
    { type: "sent", turn: 2, message: "  two\n" },
  ];
  assert.equal(latestSent(events, 0), null);
  assert.equal(latestSent(events, 1), null);
  assert.deepEqual(latestSent(events, 2), { index: 1, turn: 1, message: "<context/>\n\nhi" });
  assert.deepEqual(latestSent(events, 3), { index: 1, turn: 1, message: "<context/>\n\nhi" });
  assert.deepEqual(latestSent(events, 4), { index: 3, turn: 2, message: "  two\n" });
  assert.deepEqual(latestSent(events, 99), { index: 3, turn: 2, message: "  two\n" });
});

test("in the real transcript, every step's wire text is the latest sent message's", () => {
  let expected = null;
  transcript.forEach((event, index) => {
    if (event.type === "sent") expected = event.message;
    const sent = latestSent(transcript, index + 1);
    assert.equal(sent ? sent.message : null, expected);
  });
});

test("a question answered later is pending while it waits, with its options; a confirm is Yes / No", () => {
  const options = [{ value: "home", label: "Home" }, { value: "work", label: "Work" }];
  const events = [
    { type: "ask", id: "which", text: "Which?", response_type: "choice", options },
    { type: "person", text: "work", answer_to: 0 },
    { type: "ask", id: "sure", text: "Sure?", response_type: "confirm", options },
    { type: "person", text: "yes", answer_to: 2 },
    { type: "ask", id: "never", text: "Never answered?", response_type: "text", options: [] },
  ];
  assert.deepEqual(replayPending(events, 0), {});
  assert.deepEqual(replayPending(events, 1), { kind: "answer", token: "", index: 0, response_type: "choice", options });
  assert.deepEqual(replayPending(events, 2), {});
  assert.deepEqual(replayPending(events, 3), { kind: "answer", token: "", index: 2, response_type: "confirm", options: [] });
  assert.deepEqual(replayPending(events, 4), {});
  assert.deepEqual(replayPending(events, 5), {}); // never answered: nobody was shown a way to
  const items = itemsOf(events.slice(0, 1), replayPending(events, 1));
  assert.equal(items[0].pending.index, 0);
});

test("an event marks the item it drew, or the card or question it changed", () => {
  const events = [
    { type: "person", text: "add" },
    { type: "sent", turn: 1, message: "add" },
    { type: "reply", turn: 1, text: "…" },
    { type: "suggestion", id: "m", action: "add-note" },
    { type: "outcome", id: "m", status: "done" },
    { type: "inform", act: "acknowledge", of: "m", text: "Added." },
    { type: "ask", id: "q", text: "Which?" },
    { type: "person", text: "home", answer_to: 6 },
    { type: "outcome", id: "zz", status: "invalid" },
    { type: "declare", key: "k", value: 1 },
  ];
  const items = itemsOf(events, {});
  assert.deepEqual(events.map((_, i) => ownerKey(items, events, i)),
    ["p0", null, null, "s3", "s3", "s3", "a6", "a6", "o8", null]);
});

test("every event of the real transcript marks an item that is drawn, unless it is the wire or a signal", () => {
  for (let step = 1; step <= transcript.length; step += 1) {
    const prefix = transcript.slice(0, step);
    const items = itemsOf(prefix, replayPending(transcript, step));
    const key = ownerKey(items, prefix, step - 1);
    const event = transcript[step - 1];
    if (key === null) {
      assert.ok(["sent", "reply", "declare", "phatic"].includes(event.type)
        || (event.type === "outcome" && event.status === "skipped"), `${step}: ${event.type}`);
    } else {
      assert.ok(items.some((item) => item.key === key), `${step}: ${key}`);
    }
  }
});

test("each event has a line of words and a colour; an unknown or hostile type is said so", () => {
  assert.equal(describe({ type: "outcome", id: "m", status: "done" }), "outcome m: done");
  assert.equal(describe({ type: "person", text: "hello" }), "person: “hello”");
  assert.equal(describe({ type: "suggestion", id: "m", action: "add-note" }), "suggestion add-note (m)");
  assert.equal(describe({ type: "sent", turn: 2, message: "x" }), "sent to the agent (turn 2)");
  assert.equal(describe(null), "");
  assert.equal(tickKind({ type: "outcome", status: "done" }), "done");
  assert.equal(tickKind({ type: "outcome", status: "dismissed" }), "refused");
  assert.equal(tickKind({ type: "sent" }), "wire");
  assert.equal(tickKind({ type: "nonsense" }), "other");
  for (const type of Object.keys(EVENT_ABOUT)) assert.ok(aboutEvent({ type }).length > 10, type);
  for (const type of ["__proto__", "constructor", "toString", "nonsense"]) {
    assert.equal(aboutEvent({ type }), "An event this version of dial-notebook does not draw.");
  }
  for (const event of transcript) {
    assert.ok(describe(event).length > 0);
    assert.notEqual(aboutEvent(event), "An event this version of dial-notebook does not draw.", event.type);
  }
});

test("an event's fields are all but its type, in order", () => {
  assert.deepEqual(fieldsOf({ type: "outcome", id: "m", status: "done" }), [["id", "m"], ["status", "done"]]);
  assert.deepEqual(fieldsOf(null), []);
});

test("when a snapshot was saved reads as a date and a time", () => {
  assert.equal(savedAt("2026-12-01T17:00:00+00:00"), "2026-12-01 17:00 UTC");
  assert.equal(savedAt("2026-12-01T17:00:00.123Z"), "2026-12-01 17:00 UTC");
  assert.equal(savedAt("2026-12-01T17:00:00+02:00"), "2026-12-01 17:00 UTC+02:00");
  assert.equal(savedAt("2026-12-01T17:00"), "2026-12-01 17:00");
  assert.equal(savedAt("yesterday"), "yesterday");
  assert.equal(savedAt("x".repeat(100)).length, 40);
  assert.equal(savedAt(3), "");
});
