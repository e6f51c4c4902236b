// node:test for the questions panel's pure logic (run: node --test js/test/questions.test.mjs; pytest
// runs it through tests/unit/test_widget_questions.py): the answer rules and markdown-lite.
import assert from "node:assert/strict";
import { test } from "node:test";

import { inlineSpans, markdownBlocks } from "../src/markdown.js";
import { answersOf, declinedBy, isConfirm, questionState, readyToSend } from "../src/questions.js";

const LANG = { id: "lang", question: "Which?", multi_select: false, options: [{ label: "Python" }, { label: "R" }] };
const FMT = { id: "fmt", question: "Formats?", multi_select: true, options: [{ label: "HTML" }, { label: "PDF" }] };
const FREE = { id: "who", question: "Who?", multi_select: false, options: [] };
const draft = (over = {}) => ({ selected: [], other: "", otherOn: false, skipped: false, ...over });

test("a single-select question is answered by one label, or by Other text that overrides it", () => {
  assert.equal(questionState(LANG, draft()), "open");
  assert.equal(questionState(LANG, draft({ selected: ["R"] })), "answered");
  assert.equal(questionState(LANG, draft({ otherOn: true })), "open");
  const drafts = new Map([["lang", draft({ selected: ["R"], otherOn: true, other: " Rust " })]]);
  assert.deepEqual(answersOf([LANG], drafts), [{ id: "lang", selected: [], custom: "Rust" }]);
  drafts.set("lang", draft({ selected: ["R"], other: "typed, then a label chosen" }));
  assert.deepEqual(answersOf([LANG], drafts), [{ id: "lang", selected: ["R"] }]);
});

test("a multi-select question sends labels in option order, Other text supplements them", () => {
  assert.equal(questionState(FMT, draft({ other: "ePub" })), "answered");
  const drafts = new Map([["fmt", draft({ selected: ["PDF", "HTML"], other: "ePub" })]]);
  assert.deepEqual(answersOf([FMT], drafts), [{ id: "fmt", selected: ["HTML", "PDF"], custom: "ePub" }]);
});

test("a skipped question answers with nothing selected and no custom text", () => {
  const drafts = new Map([["lang", draft({ selected: ["R"], skipped: true })], ["who", draft({ skipped: true })]]);
  assert.equal(questionState(LANG, drafts.get("lang")), "skipped");
  assert.deepEqual(answersOf([LANG, FREE], drafts), [{ id: "lang", selected: [] }, { id: "who", selected: [] }]);
});

test("a question without options is answered by its text field", () => {
  assert.equal(questionState(FREE, draft({ other: "  " })), "open");
  assert.deepEqual(answersOf([FREE], new Map([["who", draft({ other: "Sam" })]])), [{ id: "who", selected: [], custom: "Sam" }]);
});

const CONFIRM = {
  id: "confirm", question: "Send these answers to git?", multi_select: false,
  options: [{ label: "Send" }, { label: "Decline" }], intent: { kind: "confirm", approve: "Send" },
};

test("a declined confirm is ready alone, and the other answers are sent as skipped", () => {
  const drafts = new Map([["who", draft({ other: "typed, then declined" })], ["lang", draft()],
    ["confirm", draft({ selected: ["Decline"] })]]);
  assert.equal(isConfirm(CONFIRM), true);
  assert.deepEqual(declinedBy([FREE, LANG, CONFIRM], drafts), ["confirm"]);
  assert.equal(readyToSend([FREE, LANG, CONFIRM], drafts), true);
  assert.deepEqual(answersOf([FREE, LANG, CONFIRM], drafts), [
    { id: "who", selected: [] }, { id: "lang", selected: [] }, { id: "confirm", selected: ["Decline"] }]);
});

test("Send still needs every other question answered or skipped, and sends them", () => {
  const drafts = new Map([["who", draft({ other: "Sam" })], ["lang", draft()], ["confirm", draft({ selected: ["Send"] })]]);
  assert.deepEqual(declinedBy([FREE, LANG, CONFIRM], drafts), []);
  assert.equal(readyToSend([FREE, LANG, CONFIRM], drafts), false);
  drafts.set("lang", draft({ skipped: true }));
  assert.equal(readyToSend([FREE, LANG, CONFIRM], drafts), true);
  assert.deepEqual(answersOf([FREE, LANG, CONFIRM], drafts), [
    { id: "who", selected: [], custom: "Sam" }, { id: "lang", selected: [] }, { id: "confirm", selected: ["Send"] }]);
});

test("a confirm takes no Other text: typed text neither answers nor travels", () => {
  const typed = draft({ otherOn: true, other: "maybe later" });
  assert.equal(questionState(CONFIRM, typed), "open");
  assert.deepEqual(answersOf([CONFIRM], new Map([["confirm", typed]])), [{ id: "confirm", selected: [] }]);
  const skipped = draft({ selected: ["Decline"], skipped: true });
  assert.deepEqual(declinedBy([CONFIRM], new Map([["confirm", skipped]])), []);
  const unknown = { ...CONFIRM, intent: { kind: "confirm", approve: "Yes" } };
  assert.equal(isConfirm(unknown), false);
});

test("markdown-lite reads headings, paragraphs, lists and code fences", () => {
  const blocks = markdownBlocks("# Plan\n\nFirst line\nsecond line\n\n- a\n- b\n  continued\n1. one\n2) two\n```\n<b>x</b>\n```");
  assert.deepEqual(blocks, [
    { type: "h", level: 1, text: "Plan" },
    { type: "p", text: "First line\nsecond line" },
    { type: "ul", items: ["a", "b continued"] },
    { type: "ol", items: ["one", "two"] },
    { type: "code", text: "<b>x</b>" },
  ]);
});

test("inline markdown-lite yields bold, code and emphasis spans; HTML stays text", () => {
  assert.deepEqual(inlineSpans("a **b** `c` *d* <img onerror=x>"), [
    { type: "text", text: "a " }, { type: "strong", text: "b" }, { type: "text", text: " " },
    { type: "code", text: "c" }, { type: "text", text: " " }, { type: "em", text: "d" },
    { type: "text", text: " <img onerror=x>" },
  ]);
});
