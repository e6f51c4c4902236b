// node:test: a result's text of several lines (a command's output, git status from an MCP
// tool) keeps its lines on its card; a result of a few one-line fields stays one line.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./dom-shim.mjs";

install();
const { resultNodes } = await import("../src/inform.js");

test("a result field of several lines keeps its lines on the card", () => {
  const nodes = resultNodes({ text: "On branch main\nChanges to be committed:\n  new file: notes.txt", exit: 0 }).filter(Boolean);
  const pre = nodes.find((node) => node.tagName === "PRE");
  assert.ok(pre, "shown as preformatted output");
  assert.equal(pre.textContent, "On branch main\nChanges to be committed:\n  new file: notes.txt");
  assert.ok(nodes.some((node) => node.textContent === "exit: 0"), "the other fields as its caption");
});

test("a result of a few one-line fields stays one line", () => {
  const one = resultNodes({ id: 3, text: "call mum" }).filter(Boolean);
  assert.deepEqual(one.map((node) => node.textContent), [" — id: 3, text: call mum"]);
});
