"""A card's review in headless Chromium, without Jupyter (widget.js on a blank page with a model
double, as test_widget_form.py): a pending filter card says what it will do (its dry run, made
again for the person's edit), the code with Copy, the footer's whole script, Undo on a done
card, an undone card and an Undo that failed. Screenshots, light and dark (JupyterLab's own
theme variables on the page), go to tests/browser/output/review-*.png."""

from __future__ import annotations

from pathlib import Path

import jupyterlab
import pytest
from playwright.sync_api import expect

from . import _harness
from ._harness import OUTPUT, mount_widget

pytestmark = pytest.mark.browser

THEMES = Path(jupyterlab.__file__).parent / "themes" / "@jupyterlab"
SAMPLE_COLUMNS = ["region", "date", "product", "price", "units"]
BEFORE = {"columns": SAMPLE_COLUMNS, "index": [0, 1, 2, 3, 4],
          "rows": [["west", "2024-01-02", "tea", 2.5, 4], ["east", "2024-01-02", "tea", 3.0, 1],
                   ["west", "2024-01-03", "cake", 1.25, 9],
                   ["north", "2024-01-03", "coffee", 4.0, 2],
                   ["west", "2024-01-04", "tea", 2.0, 6]], "total_rows": 200}
AFTER = {"columns": SAMPLE_COLUMNS, "index": [0, 2, 4, 9, 11],
         "rows": [["west", "2024-01-02", "tea", 2.5, 4], ["west", "2024-01-03", "cake", 1.25, 9],
                  ["west", "2024-01-04", "tea", 2.0, 6],
                  ["west", "2024-01-06", "coffee", 3.5, 2],
                  ["west", "2024-01-07", "tea", 1.5, 8]], "total_rows": 64}
CODE = "sales = sales[sales['region'] == 'west']"
EFFECT = {"frame": "sales", "into": "sales", "rows": [200, 64], "columns": [6, 6],
          "added": [], "removed": [], "renamed": {}, "dtypes": {},
          "sample": {"before": BEFORE, "after": AFTER}, "sampled": None}
PAYLOAD = {"frame": "sales", "where": "region == 'west'"}
SCHEMA = {"type": "object", "required": ["frame", "where"],
          "properties": {"frame": {"type": "string", "title": "Frame"},
                         "where": {"type": "string", "title": "Keep rows where"}}}
FILTER = {"type": "suggestion", "id": "f1", "action": "filter-rows",
          "text": "Only the west region has the new pricing, so I'd look at it alone.",
          "payload": PAYLOAD, "preview": "Keep the rows of sales where region == 'west'",
          "destructive": False, "mutates": True,
          "dry_run": {"ok": True, "summary": "sales: 200 → 64 rows, 6 columns",
                      "effect": EFFECT, "code": CODE}}
PENDING = {"kind": "decide", "token": "d1", "id": "f1", "action": "filter-rows",
           "payload": PAYLOAD, "issue": None, "errors": [], "edits_left": 3}
ADD = {"type": "suggestion", "id": "a1", "action": "add-column", "text": "",
       "payload": {"frame": "sales", "column": "revenue", "expression": "price * units"},
       "preview": "Add the column revenue = price * units to sales", "destructive": False,
       "mutates": True}
ADD_CODE = "sales['revenue'] = sales['price'] * sales['units']"
ADD_DONE = {"type": "outcome", "id": "a1", "action": "add-column", "status": "done",
            "preview": ADD["preview"],
            "result": {"frame": "sales", "rows": 200, "columns": 7, "revision": 1,
                       "code": ADD_CODE}}
DROP = {"type": "suggestion", "id": "x1", "action": "drop-columns", "text": "",
        "payload": {"frame": "sales", "columns": ["notes"]},
        "preview": "Drop the column notes from sales", "destructive": True, "mutates": True}
DROP_DONE = {"type": "outcome", "id": "x1", "action": "drop-columns", "status": "done",
             "preview": DROP["preview"],
             "result": {"frame": "sales", "rows": 200, "columns": 6, "revision": 2,
                        "code": "sales = sales.drop(columns=['notes'])"}}
DROP_UNDONE = {"type": "outcome", "id": "x1", "action": "drop-columns", "status": "undone",
               "preview": DROP["preview"]}
GROUP_CODE = ("sales_by_region = (sales.groupby(['region'], as_index=False)\n"
              "    .agg(units_sum=('units', 'sum'), price_mean=('price', 'mean')))")
GROUP = {"type": "suggestion", "id": "g1", "action": "group-aggregate",
         "text": "Totals per region, as a new frame.",
         "payload": {"frame": "sales", "by": ["region"], "into": "sales_by_region",
                     "aggregations": {"units_sum": ["units", "sum"],
                                      "price_mean": ["price", "mean"]}},
         "preview": "Group sales by region into sales_by_region", "destructive": False,
         "mutates": True,
         "dry_run": {"ok": True, "summary": "sales → sales_by_region: 5,000,000 → at least 4 "
                                            "rows, 6 → 3 columns",
                     "code": GROUP_CODE,
                     "note": "sales_by_region already holds a frame (3 rows × 3 columns): it "
                             "will be replaced",
                     "effect": {
                         "frame": "sales", "into": "sales_by_region",
                         "rows": [5_000_000, 4], "columns": [6, 3],
                         "added": ["units_sum", "price_mean"],
                         "removed": ["date", "product", "size", "price", "units"],
                         "renamed": {}, "dtypes": {"units_sum": "int64",
                                                   "price_mean": "float64"},
                         "sample": {"before": {**BEFORE, "total_rows": 5_000_000},
                                    "after": {"columns": ["region", "units_sum",
                                                          "price_mean"],
                                              "index": [0, 1, 2, 3],
                                              "rows": [["east", 81234, 2.71],
                                                       ["north", 40210, 3.02],
                                                       ["south", 66011, 2.4],
                                                       ["west", 120877, 2.2]],
                                              "total_rows": 4}},
                         "sampled": "computed on the first 100,000 of 5,000,000 rows; the row "
                                    "counts are estimates (the new frame has at least 4 rows) "
                                    "and the values shown are the sample's"}}}
ALL_CODE = "import pandas as pd\n\n" + ADD_CODE + "\n"


def mounted(context, *, theme: str = "light", **state):
    """The widget on a blank page in JupyterLab's ``theme``; ``window.handlers`` holds the view's
    listeners (the harness keeps them private), so a test can send it custom messages."""
    hook = "const handlers = {};"
    assert hook in _harness.MOUNT, "the harness's mount changed: update this hook"
    original = _harness.MOUNT
    _harness.MOUNT = original.replace(hook, hook + " window.handlers = handlers;")
    try:
        page = mount_widget(context, {"schemas": {"filter-rows": SCHEMA}, **state})
    finally:
        _harness.MOUNT = original
    css = THEMES / f"theme-{theme}-extension" / "index.css"
    if css.exists():
        page.add_style_tag(content=css.read_text(encoding="utf-8"))
    page.add_style_tag(content="body { margin: 0; padding: 16px; background: "
                               "var(--jp-layout-color0, #fff); }")
    return page


def emit(page, message: dict) -> None:
    page.evaluate("m => (window.handlers['msg:custom'] || []).forEach((f) => f(m))", message)


def stub_clipboard(page) -> None:
    page.evaluate("""() => {
        window.copied = [];
        Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {
            writeText: async (text) => { window.copied.push(text); }}});
    }""")


def test_a_pending_filter_card_says_what_it_will_do_above_its_buttons(browser_context):
    for theme in ("light", "dark"):
        page = mounted(browser_context, theme=theme, transcript=[FILTER], pending=PENDING)
        card = page.locator("[data-dial-suggestion=f1]")
        dry = card.locator("[data-dial-dry-run]")
        expect(dry).to_have_attribute("data-dial-dry-run", "ok")
        expect(dry.locator("[data-dial-dry-run-rows]")).to_have_text(
            "sales: 200 → 64 rows · 6 columns")
        expect(dry.locator(".dial-dry-run-summary")).to_have_count(0)  # it says the same
        dry_box, buttons = dry.bounding_box(), card.locator(".dial-buttons").bounding_box()
        assert dry_box["y"] + dry_box["height"] <= buttons["y"], "above the buttons"
        sample = dry.locator("[data-dial-sample=after]")
        expect(sample).to_be_hidden()
        dry.locator("[data-dial-toggle=sample]").click()
        expect(sample.locator("tbody tr")).to_have_count(5)
        expect(sample.locator(".dial-sample-caption")).to_have_text("After · 5 of 64 rows")
        for side in ("before", "after"):
            wrap = dry.locator(f"[data-dial-sample={side}] .dial-table-wrap")
            assert wrap.evaluate("n => n.scrollWidth <= n.clientWidth"), f"{side} fits"
        dry.locator("[data-dial-toggle=code]").click()
        expect(dry.locator("[data-dial-code] pre code")).to_have_text(CODE)
        assert page.locator("[data-dial-root] details").count() == 0
        card.screenshot(path=str(OUTPUT / f"review-pending-{theme}.png"))
        page.close()


def test_a_new_frame_says_its_columns_types_and_that_it_is_estimated(browser_context):
    for theme in ("light", "dark"):
        pending = {**PENDING, "id": "g1", "action": "group-aggregate",
                   "payload": GROUP["payload"]}
        page = mounted(browser_context, theme=theme, transcript=[GROUP], pending=pending)
        dry = page.locator("[data-dial-suggestion=g1] [data-dial-dry-run]")
        expect(dry.locator("[data-dial-dry-run-rows]")).to_have_text(
            "sales → sales_by_region: 5,000,000 → 4 rows · 6 → 3 columns")
        expect(dry.locator("[data-dial-dry-run-chips=added] .dial-col-chip")).to_have_text(
            ["+ units_sum", "+ price_mean"])
        expect(dry.locator("[data-dial-dry-run-chips=dtypes] .dial-col-chip")).to_have_text(
            ["units_sum int64", "price_mean float64"])
        expect(dry.locator("[data-dial-dry-run-sampled]")).to_contain_text("estimates")
        expect(dry.locator("[data-dial-dry-run-note]")).to_contain_text("will be replaced")
        expect(dry.locator(".dial-dry-run-summary")).to_contain_text("at least 4 rows")
        dry.locator("[data-dial-toggle=code]").click()
        page.locator("[data-dial-suggestion=g1]").screenshot(
            path=str(OUTPUT / f"review-pending-group-{theme}.png"))
        page.close()


def test_an_edit_is_tried_and_the_answer_for_it_shown(browser_context):
    page = mounted(browser_context, transcript=[FILTER], pending=PENDING)
    card = page.locator("[data-dial-suggestion=f1]")
    card.locator("[data-dial-action=edit]").click()
    card.locator("[data-dial-path=where] input").fill("region == 'east'")
    dry = card.locator("[data-dial-dry-run]")
    edit = {"frame": "sales", "where": "region == 'east'"}
    page.wait_for_function("() => window.sent.some((m) => m.type === 'dry-run')")
    assert [m for m in page.evaluate("() => window.sent") if m["type"] == "dry-run"] == [
        {"type": "dry-run", "token": "d1", "payload": edit}]
    expect(dry).to_have_attribute("data-dial-dry-run-edit", "checking")
    stale = {"ok": True, "summary": "stale", "effect": EFFECT, "code": CODE}
    emit(page, {"type": "dry-run", "token": "d1", "payload": PAYLOAD, "result": stale})
    expect(dry).to_have_attribute("data-dial-dry-run-edit", "checking")
    east = {**EFFECT, "rows": [200, 71],
            "sample": {"before": BEFORE, "after": {**AFTER, "total_rows": 71}}}
    emit(page, {"type": "dry-run", "token": "d1", "payload": edit,
                "result": {"ok": True, "summary": "sales: 200 → 71 rows, 6 columns",
                           "effect": east,
                           "code": "sales = sales[sales['region'] == 'east']"}})
    expect(dry.locator(".dial-dry-run-tag")).to_have_text("With your edit")
    expect(dry.locator("[data-dial-dry-run-rows]")).to_contain_text("200 → 71 rows")
    expect(card.locator("[data-dial-path=where] input")).to_be_focused()
    card.screenshot(path=str(OUTPUT / "review-edit.png"))
    page.close()


def test_a_dry_run_that_could_not_say_never_blocks_the_buttons(browser_context):
    unavailable = {**FILTER, "dry_run": {"ok": False,
                                         "error": "it took longer than 1s to work out"}}
    page = mounted(browser_context, transcript=[unavailable], pending=PENDING)
    card = page.locator("[data-dial-suggestion=f1]")
    expect(card.locator("[data-dial-dry-run]")).to_have_text(
        "Effect unavailable: it took longer than 1s to work out")
    card.locator("[data-dial-action=accept]").click()
    assert page.evaluate("() => window.sent")[-1] == {"type": "decide", "token": "d1",
                                                     "decision": "accept"}
    card.screenshot(path=str(OUTPUT / "review-unavailable.png"))
    page.close()


def test_copy_puts_the_code_on_the_clipboard_or_selects_it(browser_context):
    page = mounted(browser_context, transcript=[FILTER], pending=PENDING)
    stub_clipboard(page)
    block = page.locator("[data-dial-dry-run] [data-dial-code]")
    copy = block.locator("[data-dial-action=copy-code]")
    copy.click()
    expect(copy).to_have_text("Copied")
    assert page.evaluate("() => window.copied") == [CODE]
    expect(copy).to_have_text("Copy", timeout=5000)
    # no clipboard here (a page that is not secure): the code is shown and selected
    page.evaluate("() => Object.defineProperty(navigator, 'clipboard', "
                  "{configurable: true, value: undefined})")
    copy.click()
    expect(block.locator("pre code")).to_be_visible()
    assert page.evaluate("() => getSelection().toString()") == CODE
    expect(copy).to_have_attribute("data-dial-copied", "copied" if page.evaluate(
        "() => document.queryCommandSupported('copy')") else "selected")
    page.close()


def test_a_done_card_offers_undo_and_its_code(browser_context):
    for theme in ("light", "dark"):
        page = mounted(browser_context, theme=theme, transcript=[ADD, ADD_DONE],
                       undoable={"a1": True}, code=ALL_CODE, usage={"turns": 2, "total": 1834})
        stub_clipboard(page)
        card = page.locator("[data-dial-suggestion=a1]")
        expect(card).to_have_attribute("data-dial-status", "done")
        expect(card.locator(".dial-outcome")).not_to_contain_text("code")
        card.locator("[data-dial-toggle=code]").click()
        expect(card.locator("[data-dial-code] pre code")).to_have_text(ADD_CODE)
        root = page.locator("[data-dial-root]")
        root.locator("[data-dial-all-code] [data-dial-toggle=code]").click()
        expect(root.locator("[data-dial-all-code] pre code")).to_have_text(ALL_CODE)
        root.screenshot(path=str(OUTPUT / f"review-done-{theme}.png"))
        root.locator("[data-dial-action=copy-all-code]").click()
        assert page.evaluate("() => window.copied") == [ALL_CODE]
        undo = card.locator("[data-dial-action=undo]")
        undo.click()
        expect(undo).to_be_disabled()
        assert page.evaluate("() => window.sent")[-1] == {"type": "undo", "id": "a1"}
        page.close()


def test_an_undone_card_and_an_undo_that_failed(browser_context):
    failed = {"type": "undo-failed", "id": "a1",
              "error": "sales was changed since (it has 7 columns, not 6): undo the later "
                       "step first"}
    for theme in ("light", "dark"):
        page = mounted(browser_context, theme=theme,
                       transcript=[ADD, ADD_DONE, DROP, DROP_DONE, DROP_UNDONE, failed],
                       undoable={"a1": "sales was changed by a later step", "x1": True},
                       code=ALL_CODE)
        dropped = page.locator("[data-dial-suggestion=x1]")
        expect(dropped).to_have_attribute("data-dial-status", "undone")
        expect(dropped.locator(".dial-chip")).to_have_text("Undone")
        expect(dropped.locator(".dial-outcome-taken-back")).to_contain_text("Done")
        expect(dropped.locator("[data-dial-undone]")).to_have_text("Undone — taken back")
        expect(dropped.locator("[data-dial-action=undo]")).to_have_count(0)
        added = page.locator("[data-dial-suggestion=a1]")
        expect(added).to_have_attribute("data-dial-status", "done")
        expect(added.locator("[role=alert]")).to_contain_text("Undo failed: sales was changed")
        expect(added.locator("[data-dial-undo-no]")).to_have_text(
            "Can't undo: sales was changed by a later step")
        page.locator("[data-dial-root]").screenshot(path=str(OUTPUT / f"review-undone-{theme}.png"))
        page.close()
