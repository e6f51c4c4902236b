// node:test: the transcript the kernel really makes (fixtures/transcript.json, written by
// tests/contract_transcript.py from a real ChatWidget and the runtime, one event of every kind)
// read by the front end: every entry is drawn, as an item of its own or on the card or question
// it belongs to; only the raw wire (sent, reply) and the signals read elsewhere are not items.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { agentSignal, contextOf, itemsOf } from "../src/items.js";

const transcript = JSON.parse(readFileSync(new URL("./fixtures/transcript.json", import.meta.url), "utf8"));

/** Every entry the items show: their events, a card's outcome, steps and acknowledgements, and
 *  what became of an Undo (the later 'undone' outcome, or the latest 'undo-failed'). */
function drawn(items) {
  const shown = new Set();
  for (const item of items) {
    shown.add(item.event);
    if (item.kind === "suggestion") {
      if (item.outcome) shown.add(item.outcome);
      for (const step of item.steps.values()) shown.add(step);
      for (const ack of item.acks) shown.add(ack);
      if (item.undone) shown.add(item.undone);
      if (item.undoFailed) shown.add(item.undoFailed);
    }
  }
  return shown;
}

test("every entry of a real transcript is drawn, or is the wire, a signal or a card-less skip", () => {
  const items = itemsOf(transcript, {});
  const shown = drawn(items);
  const answers = new Map(items.filter((i) => i.kind === "ask").map((i) => [i.index, i.answer]));
  const left = transcript.filter((entry) => !shown.has(entry)
    && !["sent", "reply", "declare", "phatic"].includes(entry.type)
    && !(entry.type === "person" && answers.get(entry.answer_to) === entry.text)
    && !(entry.type === "outcome" && entry.status === "skipped"));
  assert.deepEqual(left, []);
  const kinds = new Set(items.map((i) => i.kind));
  assert.deepEqual([...kinds].sort(), ["ask", "delegate", "inform", "no-reply", "person", "status", "suggestion"]);
});

test("a real transcript's cards get their outcomes, an execute block its steps, a question its answer", () => {
  const items = itemsOf(transcript, {});
  const cards = new Map(items.filter((i) => i.kind === "suggestion").map((i) => [String(i.event.id), i]));
  for (const card of cards.values()) {
    if (card.event.kind === "execute") {
      assert.equal(card.steps.size, card.event.payload.steps.length);
      assert.equal(card.status, "done");
    } else {
      assert.ok(card.outcome, `card ${card.event.id} has its outcome`);
      // a done card taken back by Undo reads "undone"; its done outcome stays with it
      assert.equal(card.status, card.undone ? "undone" : String(card.outcome.status));
    }
  }
  const acked = [...cards.values()].filter((card) => card.acks.length);
  assert.ok(acked.length >= 1, "an acknowledgement joins the card it is about");
  for (const ask of items.filter((i) => i.kind === "ask")) assert.notEqual(ask.answer, undefined);
  assert.ok([...cards.values()].some((card) => card.undone), "an undone card");
  assert.ok([...cards.values()].some((card) => card.undoFailed), "an undo that failed, on its card");
});

test("a real transcript's declared context and phatic signals are read", () => {
  assert.ok(contextOf(transcript).length >= 1);
  const typing = transcript.findIndex((e) => e.type === "phatic" && e.signal === "typing");
  assert.ok(typing > 0);
  assert.equal(agentSignal(transcript.slice(0, typing + 1)), "typing");
  assert.equal(agentSignal(transcript), null); // a later reply or send ends it
});
