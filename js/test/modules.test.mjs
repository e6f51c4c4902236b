// node:test for the shape of js/src, so that it stays small modules with one job each: no
// module over MAX_LINES lines, each opening with `// @ts-check` and a header comment saying what
// it is for, and no top-level function over MAX_FUNCTION_LINES lines (from its `function` line
// to its closing brace at the start of a line; a function nested in another is counted in it).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

const SRC = new URL("../src/", import.meta.url);
const MAX_LINES = 400;
const MAX_FUNCTION_LINES = 80;
/** Longer functions known today, to be split; none may grow. module → function → lines */
const LONG_FUNCTIONS = { "items.js": { itemsOf: 103 } };

const modules = readdirSync(SRC).filter((name) => name.endsWith(".js")).sort();
const linesOf = (/** @type {string} */ name) => readFileSync(new URL(name, SRC), "utf8").replace(/\n$/, "").split("\n");

/**
 * The top-level functions of a module, with their lengths in lines.
 * @param {string[]} lines
 * @returns {{name: string, lines: number}[]}
 */
export function topLevelFunctions(lines) {
  const found = [];
  let open = null;
  lines.forEach((line, index) => {
    const start = /^(?:export )?(?:async )?function\*? ?([A-Za-z_$][\w$]*)/.exec(line);
    if (start && !open) open = { name: start[1], at: index };
    if (open && /^}/.test(line)) {
      found.push({ name: open.name, lines: index - open.at + 1 });
      open = null;
    }
  });
  return found;
}

test("js/src has modules to check", () => {
  assert.ok(modules.length > 20, modules.join(", "));
  assert.ok(modules.includes("widget.js") && modules.includes("rules.js"));
});

test(`no module in js/src is over ${MAX_LINES} lines`, () => {
  const long = modules.map((name) => [name, linesOf(name).length]).filter(([, count]) => count > MAX_LINES);
  assert.deepEqual(long, [], `split these by job: ${long.map(([name, count]) => `${name} (${count})`).join(", ")}`);
});

test("every module opens with // @ts-check and a header comment saying what it is for", () => {
  for (const name of modules) {
    const [first, second, third] = linesOf(name);
    assert.equal(first, "// @ts-check", name);
    assert.match(`${second}\n${third}`, /^\/\/ \S.{20,}/, `${name}: a header comment after // @ts-check`);
  }
});

test(`no top-level function in js/src is over ${MAX_FUNCTION_LINES} lines`, () => {
  const long = [];
  for (const name of modules) {
    for (const fn of topLevelFunctions(linesOf(name))) {
      const allowed = LONG_FUNCTIONS[name]?.[fn.name] ?? MAX_FUNCTION_LINES;
      if (fn.lines > allowed) long.push(`${name}: ${fn.name} (${fn.lines} lines)`);
    }
  }
  assert.deepEqual(long, [], "split these");
});

test("the function counter counts from `function` to the closing brace", () => {
  const fns = topLevelFunctions(["// x", "export function a() {", "  if (x) {", "  }", "}", "", "async function b() {", "}"]);
  assert.deepEqual(fns, [{ name: "a", lines: 4 }, { name: "b", lines: 2 }]);
});
