// node:test for the front end's pure logic (run: node --test js/test/, or npm test; pytest runs
// it too through tests/unit/test_widget_js.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { agentSignal, contextOf, itemsOf, resultShape } from "../src/items.js";
import {
  formatNumber, hiddenPieces, humanise, isRemote, joinPath, normalisePath, resultText, revealHidden, safeUrl,
  summarise,
} from "../src/text.js";

test("only http(s) URLs, and data: raster images, are safe", () => {
  assert.equal(safeUrl("https://example.org/a.png"), "https://example.org/a.png");
  assert.equal(safeUrl("javascript:alert(1)"), null);
  assert.equal(safeUrl(" JaVaScRiPt:alert(1)"), null);
  assert.equal(safeUrl("java\tscript:alert(1)"), null);
  assert.equal(safeUrl("data:image/png;base64,AAAA", { image: true }), "data:image/png;base64,AAAA");
  assert.equal(safeUrl("data:image/svg+xml,<svg onload=alert(1)>", { image: true }), null);
  assert.equal(safeUrl("data:image/png;base64,AAAA"), null);
  assert.equal(safeUrl("/relative/path"), null);
  assert.equal(safeUrl({ src: "https://x" }), null);
});

test("field paths from the domain, JSON pointer and jsonpath read the same", () => {
  assert.equal(normalisePath("columns[1].name"), "columns[1].name");
  assert.equal(normalisePath("/columns/1/name"), "columns[1].name");
  assert.equal(normalisePath("$.columns[1].name"), "columns[1].name");
  assert.equal(normalisePath(["columns", 1, "name"]), "columns[1].name");
  assert.equal(joinPath([]), "");
});

test("summaries are cut with an ellipsis", () => {
  assert.equal(summarise("x".repeat(10), 5), "xxxx…");
  assert.equal(summarise({ a: 1 }), '{"a":1}');
  assert.equal(summarise(null), "");
});

test("a card takes its outcome and an ask its answer", () => {
  const items = itemsOf([
    { type: "suggestion", id: "sg-1", action: "add-note" },
    { type: "outcome", id: "sg-1", status: "done" },
    { type: "ask", text: "Which?" },
    { type: "person", text: "home", answer_to: 2 },
    { type: "outcome", id: "sg-9", status: "invalid" },
  ], {});
  assert.deepEqual(items.map((i) => i.kind), ["suggestion", "ask", "status"]);
  assert.equal(items[0].status, "done");
  assert.equal(items[1].answer, "home");
});

test("only the latest card with a pending id is pending", () => {
  const items = itemsOf([
    { type: "suggestion", id: "x" },
    { type: "outcome", id: "x", status: "dismissed" },
    { type: "suggestion", id: "x" },
  ], { kind: "decide", id: "x", token: "d2" });
  assert.deepEqual(items.map((i) => i.status), ["dismissed", "pending"]);
});

test("retry is offered on the last no-reply only", () => {
  const items = itemsOf([
    { type: "no-reply", turn: 1 },
    { type: "inform", text: "back" },
    { type: "no-reply", turn: 1 },
  ], {});
  assert.deepEqual(items.filter((i) => i.kind === "no-reply").map((i) => i.retry), [false, true]);
});

test("field names read as labels", () => {
  assert.equal(humanise("due_date"), "Due date");
  assert.equal(humanise("text"), "Text");
  assert.equal(humanise(""), "");
});

test("a flat result reads as key: value pairs", () => {
  assert.equal(resultText({ id: 6, text: "coffee" }), "id: 6, text: coffee");
  assert.equal(resultText({ notes: [{ id: 1 }] }), '{"notes":[{"id":1}]}');
  assert.equal(resultText(null), "");
});

test("an execute card collects its steps' outcomes and reads running, then done or failed", () => {
  const block = { type: "suggestion", id: "op", kind: "execute", payload: { steps: [{ id: "a" }, { id: "b" }] } };
  const one = itemsOf([block, { type: "outcome", id: "a", block: "op", status: "done" }], {});
  assert.deepEqual(one.map((i) => [i.kind, i.status, i.steps.size]), [["suggestion", "running", 1]]);
  const both = itemsOf([block, { type: "outcome", id: "a", block: "op", status: "done" },
    { type: "outcome", id: "b", block: "op", status: "skipped" }], {});
  assert.deepEqual(both.map((i) => i.status), ["failed"]);
  const confirmed = itemsOf([{ ...block, confirmed: true }], {});
  assert.equal(confirmed[0].status, "confirmed");
});

test("the context panel shows the latest value of each declared key", () => {
  assert.deepEqual(contextOf([{ type: "declare", key: "k", value: 1 }, { type: "declare", key: "j", value: 2 },
    { type: "declare", key: "k", value: 3 }]), [["j", 2], ["k", 3]]);
});

test("typing or thinking from the latest reply lights the indicator; done-typing clears it", () => {
  assert.equal(agentSignal([{ type: "reply" }, { type: "phatic", signal: "typing" }, { type: "inform" }]), "typing");
  assert.equal(agentSignal([{ type: "reply" }, { type: "phatic", signal: "typing" }, { type: "phatic", signal: "done-typing" }]), null);
  assert.equal(agentSignal([{ type: "phatic", signal: "thinking" }, { type: "sent" }]), null);
  assert.equal(agentSignal([{ type: "phatic", signal: "heartbeat" }]), null);
});

test("a hand-off is an item of its own", () => {
  assert.deepEqual(itemsOf([{ type: "delegate", to: "billing" }], {}).map((i) => i.kind), ["delegate"]);
});

test("a later skipped outcome with a ran block's id does not touch that card, nor show twice", () => {
  const items = itemsOf([
    { type: "suggestion", id: "op", kind: "execute", payload: { steps: [{ id: "a" }] } },
    { type: "outcome", id: "a", block: "op", status: "done" },
    { type: "inform", act: "skipped", id: "op", text: "Skipped execute 'op'" },
    { type: "outcome", id: "op", action: "execute", status: "skipped" },
  ], {});
  assert.deepEqual(items.map((i) => [i.kind, i.status]), [["suggestion", "done"], ["inform", undefined]]);
});

test("hidden characters are named where they stand; tab, newline and emoji stay as they are", () => {
  assert.equal(revealHidden("echo safe \u2067; rm -rf ~ #\u2069"), "echo safe ⟨U+2067⟩; rm -rf ~ #⟨U+2069⟩");
  assert.equal(revealHidden("a\tb\nc é 😀"), "a\tb\nc é 😀");
  assert.equal(revealHidden("\u{E0041}"), "⟨U+E0041⟩");
  assert.deepEqual(hiddenPieces("x\u200by"), [{ text: "x" }, { hidden: "U+200B" }, { text: "y" }]);
});

test("only inline data: images are local; every http(s) image is remote", () => {
  assert.equal(isRemote("data:image/png;base64,AAAA"), false);
  assert.equal(isRemote("https://cdn.example.com/a.png"), true);
  assert.equal(isRemote("http://127.0.0.1:8765/exfil?secret=1"), true);
});

test("numbers in tables are rounded to six significant digits; whole numbers stay whole", () => {
  assert.equal(formatNumber(123.456789), "123.457");
  assert.equal(formatNumber(0.000123456789), "0.000123457");
  assert.equal(formatNumber(200), "200");
  assert.equal(formatNumber(51234.5678), "51234.6");
});

test("a result reads as its image, its table, a list, or a few fields — never a cut blob", () => {
  const png = "data:image/png;base64,iVBORw0KGgo" + "A".repeat(5000);
  assert.equal(resultShape({ media: [{ src: png, alt: "chart" }] }).kind, "media");
  const described = resultShape({ frame: "sales", table: { columns: ["column", "mean"], rows: [["price", 1.5]], total_rows: 6 } });
  assert.deepEqual([described.kind, described.caption], ["table", "frame: sales"]);
  const notes = resultShape({ notes: [{ id: 1, text: "milk" }] });
  assert.deepEqual([notes.kind, notes.caption, notes.items.length], ["list", "Notes", 1]);
  assert.deepEqual(resultShape({ id: 3, text: "call mum" }), { kind: "fields", text: "id: 3, text: call mum" });
  assert.equal(resultShape(null).kind, "none");
});

test("a result that says itself in a summary is read by it, its bookkeeping left to the agent", () => {
  const changed = { frame: "sales", rows: 40, revision: 1, rows_before: 200, columns: ["date", "region"],
    summary: "sales: 200 → 40 rows" };
  assert.deepEqual(resultShape(changed), { kind: "fields", text: "sales: 200 → 40 rows" });
  const described = resultShape({ frame: "sales", summary: "Statistics of sales",
    table: { columns: ["column", "mean"], rows: [["price", 1.5]] } });
  assert.deepEqual([described.kind, described.caption], ["table", "Statistics of sales"]);
  assert.deepEqual(resultShape({ id: 3, summary: " " }), { kind: "fields", text: "id: 3, summary:  " }, "an empty one is a field");
});

test("an acknowledgement joins the card it is about, not the person's next words", () => {
  const items = itemsOf([
    { type: "suggestion", id: "sg-1", action: "add-note", payload: {} },
    { type: "outcome", id: "sg-1", action: "add-note", status: "dismissed", preview: "x" },
    { type: "person", text: "what's the weather?" },
    { type: "inform", act: "acknowledge", of: "sg-1", text: "OK, I left that out." },
    { type: "inform", act: "acknowledge", of: "nope", text: "Shown on its own." },
  ], {});
  assert.deepEqual(items.map((i) => i.kind), ["suggestion", "person", "inform"]);
  assert.deepEqual(items[0].acks.map((a) => a.text), ["OK, I left that out."]);
});
