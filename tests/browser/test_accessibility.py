"""The widget checked with axe-core (node_modules/axe-core, a devDependency: `npm install`) in
headless Chromium, in real JupyterLab, in each state a person meets — a question, the reason
panel, the JSON view, an edit refused with a field error, a pending card under done, dismissed,
table and chart cards, the rule editor, the rules panel (one notebook walks through them, axe
after each), and the EDA notebook as its markdown runs it — in the light and the dark theme.
Only the widget is checked (context ``.dial-chat``): no WCAG 2.1 A/AA or best-practice
violation. The names, tabs, focus rings and live regions are checked on the widget mounted on a
blank page with JupyterLab's theme CSS (test_widget_review.py): the live regions by counting
what is inserted into them (one Accept adds each change once, "Thinking…" is said once). A
missing axe-core fails (the suite's style), it does not skip."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from . import test_widget_review as review
from ._harness import OUTPUT, open_notebook, wait_for_every_cell

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
# the front end's node_modules (npm install at the root of its Node project)
AXE = next((p for p in (REPO / "node_modules" / "axe-core" / "axe.min.js",
                        REPO / "js" / "node_modules" / "axe-core" / "axe.min.js") if p.exists()),
           REPO / "node_modules" / "axe-core" / "axe.min.js")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
THEMES = ("light", "dark")

PNG = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
       "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
TABLE_INFORM = {"type": "inform", "act": "inform", "render": "table",
                "text": "The first rows of sales",
                "payload": {"columns": ["region", "units"],
                            "data": [["west", 4], ["east", 1]]}}
DESCRIBE = {"type": "suggestion", "id": "d1", "action": "describe", "text": "",
            "payload": {"frame": "sales"}, "preview": "Describe sales", "destructive": False,
            "mutates": False}
DESCRIBE_DONE = {"type": "outcome", "id": "d1", "action": "describe", "status": "done",
                 "preview": "Describe sales",
                 "result": {"table": {"columns": ["column", "mean"],
                                      "rows": [["price", 2.5], ["units", 4.4]],
                                      "total_rows": 2}, "frame": "sales"}}
PLOT = {"type": "suggestion", "id": "p1", "action": "plot", "text": "A chart?",
        "payload": {"frame": "sales"}, "preview": "Plot units by region",
        "destructive": False, "mutates": False}
PLOT_DONE = {"type": "outcome", "id": "p1", "action": "plot", "status": "done",
             "preview": "Plot units by region",
             "result": {"vega_lite": {"mark": "bar"},
                        "chart": {"src": PNG, "width": 120, "height": 80,
                                  "alt": "Bar chart of units by region"}}}
DISMISSED = {"type": "outcome", "id": "x1", "action": "drop-columns", "status": "dismissed",
             "preview": review.DROP["preview"], "reason": "keep the notes"}
HISTORY = [{"type": "sent", "turn": 1, "message": "look at the west region"},
           review.ADD, review.ADD_DONE, review.DROP, DISMISSED,
           TABLE_INFORM, DESCRIBE, DESCRIBE_DONE, PLOT, PLOT_DONE]


def axe_violations(page, name: str) -> list[str]:
    """axe-core over the widget (the page's body given the viewport's height, so contrast is
    checked); each violation as 'rule: nodes', and a screenshot ``a11y-NAME.png``."""
    assert AXE.exists(), f"axe-core is missing ({AXE}): run `npm install` (package.json)"
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    page.locator(".dial-chat").first.screenshot(path=str(OUTPUT / f"a11y-{name}.png"))
    # JupyterLab's <body> has no height: axe would skip colour contrast without one
    result = page.evaluate("""async (tags) => {
        const body = document.body.style.height;
        document.body.style.height = window.innerHeight + 'px';
        try {
            return await window.axe.run({include: [['.dial-chat']]},
                                        {runOnly: {type: 'tag', values: tags}});
        } finally { document.body.style.height = body; }
    }""", TAGS)
    assert not any(v["id"] == "color-contrast" for v in result["inapplicable"]), \
        "axe did not check colour contrast"
    return [f"{v['id']} ({v['impact']}): " + "; ".join(
                n["failureSummary"].splitlines()[-1].strip() + " @ " + " ".join(n["target"])
                for n in v["nodes"][:4])
            for v in result["violations"]]


def mounted(context, theme: str, **state):
    return review.mounted(context, theme=theme, **{"transcript": HISTORY, **state})


WALK = """from dial_notebook import ChatWidget, DataFramesDomain, DemoAgent, load_sales

sales = load_sales()
regions = sales.head(4)  # a second frame: a request that names none is asked about
frames = DataFramesDomain()  # the DataFrames of this notebook's namespace
chat = ChatWidget(agent=DemoAgent(frames), domain=frames, title="EDA assistant")
chat"""


def test_every_state_in_jupyterlab_light_and_dark(jupyter, browser_context):
    """One notebook in JupyterLab walks through the states a person meets, with axe after each,
    in the light and the dark theme: a question, the reason panel, the JSON view, an edit
    refused with a field error, a pending card under done, dismissed, table and chart cards,
    the rule editor, the rules panel."""
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(WALK)],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}}), jupyter["root"] / "a11y-walk.ipynb")
    nb = open_notebook(browser_context, jupyter["base"], "a11y-walk.ipynb", app="lab")
    found: list[str] = []
    themes = ["JupyterLab Light", "JupyterLab Dark"]

    def both(name: str) -> None:  # this theme, then the other (one switch a state)
        for theme in themes:
            if nb.page.evaluate("() => document.body.dataset.jpThemeName") != theme:
                nb.set_theme(theme)
            shown = f"lab-{name}-{theme.split()[-1].lower()}"
            found.extend(f"{shown}: {v}" for v in axe_violations(nb.page, shown))
        themes.reverse()

    try:
        wait_for_every_cell(nb.page)
        nb.say("plot price against units as vega-lite")  # two frames, none named: which?
        question = nb.root.locator("[data-dial-ask][data-dial-status=pending]")
        expect(question).to_be_visible(timeout=30000)
        both("question")
        question.locator("[data-dial-option=sales]").click()
        expect(nb.root.locator("[data-dial-chart=drawn] img").first).to_be_visible(
            timeout=30000)
        nb.say("describe sales")
        expect(nb.root.locator("[data-dial-result] table").first).to_be_visible(timeout=30000)

        nb.say("drop the column size from sales")
        drop = nb.pending_card()
        drop.locator("[data-dial-action=dismiss-reason]").click()
        drop.locator("[data-dial-reason]").fill("we need the sizes")
        both("reason")
        drop.locator("[data-dial-action=dismiss-confirm]").click()
        expect(drop).to_have_attribute("data-dial-status", "dismissed")

        nb.say("add a column revenue = price * units to sales")
        add = nb.pending_card()
        add.locator("[data-dial-action=edit]").click()
        add.locator("[data-dial-view=json]").click()
        expect(add.locator("[role=tabpanel] textarea")).to_be_visible()
        both("json")
        add.locator("[data-dial-view=form]").click()
        add.locator("[data-dial-path=expression] .dial-input").fill("price * nowhere")
        add.locator("[data-dial-action=save-edit]").click()
        expect(add.locator(".dial-field-error").first).to_be_visible()
        both("edit-error")
        add.locator("[data-dial-path=expression] .dial-input").fill("price * units")
        add.locator("[data-dial-action=save-edit]").click()
        expect(add).to_have_attribute("data-dial-status", "done")

        nb.say("filter sales where region is west")
        card = nb.pending_card()
        expect(card.locator("[data-dial-dry-run-rows]")).to_be_visible()
        both("pending")
        card.locator("[data-dial-action=allow-rule]").click()
        expect(card.locator("[data-dial-action=save-rule]")).to_be_visible()
        both("rule-editor")
        card.locator("[data-dial-action=save-rule]").click()
        expect(card).to_have_attribute("data-dial-status", "done")
        nb.root.locator("[data-dial-action=rules]").click()
        expect(nb.root.locator("[data-dial-rules] [data-dial-rule-id]")).to_have_count(1)
        both("rules")
    finally:
        nb.set_theme("JupyterLab Light")  # the theme is the server's setting: put it back
        nb.page.close()
    assert found == [], "\n".join(found)


def test_the_reason_panels_cancel_is_named_by_what_it_says(browser_context):
    page = mounted(browser_context, "light", transcript=[review.FILTER], pending=review.PENDING)
    page.locator("[data-dial-action=dismiss-reason]").click()
    cancel = page.locator("[data-dial-action=dismiss-reason-cancel]")
    assert "Cancel" in (cancel.get_attribute("aria-label") or cancel.inner_text())
    page.close()


def test_the_form_and_json_tabs_are_tabs_with_arrow_keys(browser_context):
    page = mounted(browser_context, "light", transcript=[review.FILTER], pending=review.PENDING)
    page.locator("[data-dial-action=edit]").click()
    form = page.locator("[role=tab][data-dial-view=form]")
    expect(form).to_have_attribute("aria-selected", "true")
    panel = form.get_attribute("aria-controls")
    assert panel and page.locator(f"#{panel}[role=tabpanel]").count() == 1
    expect(page.locator("[role=tab][data-dial-view=json]")).to_have_attribute("tabindex", "-1")
    form.focus()
    page.keyboard.press("ArrowRight")
    json_tab = page.locator("[role=tab][data-dial-view=json]")
    expect(json_tab).to_have_attribute("aria-selected", "true")
    expect(json_tab).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("[role=tab][data-dial-view=form]")).to_be_focused()
    page.close()


def test_tables_are_named_by_their_caption(browser_context):
    page = mounted(browser_context, "light")
    names = page.locator(".dial-table-wrap[role=region]").evaluate_all(
        "els => els.map((e) => e.getAttribute('aria-label') || "
        "(document.getElementById(e.getAttribute('aria-labelledby') || '') || {}).textContent)")
    assert names and all(name and name != "Table" for name in names), names
    page.close()


FOCUS_RING = """(sel) => {
    const b = document.querySelector(sel);
    b.focus();
    const s = getComputedStyle(b);
    return {outline: s.outlineStyle, width: parseFloat(s.outlineWidth),
            offset: parseFloat(s.outlineOffset), ring: s.outlineColor, fill: s.backgroundColor,
            focused: b.matches(':focus-visible')};
}"""


@pytest.mark.parametrize("theme", THEMES)
def test_primary_buttons_have_a_focus_ring_unlike_their_colour(browser_context, theme):
    page = mounted(browser_context, theme, transcript=[review.FILTER], pending=review.PENDING)
    page.keyboard.press("Tab")  # keyboard modality, so :focus-visible applies to .focus()
    rings = [page.evaluate(FOCUS_RING, "[data-dial-action=say]"),
             page.evaluate(FOCUS_RING, "[data-dial-action=accept]")]
    page.locator(".dial-chat").screenshot(path=str(OUTPUT / f"a11y-focus-{theme}.png"))
    page.locator("[data-dial-action=edit]").press("Enter")
    rings.append(page.evaluate(FOCUS_RING, "[data-dial-action=save-edit]"))
    for ring in rings:
        assert ring["focused"] and ring["outline"] != "none" and ring["width"] >= 2, ring
        assert ring["offset"] >= 1 and ring["ring"] != ring["fill"], ring
    page.close()


LIVE = """() => {
    // what a screen reader is given: text added inside a live region (the nearest aria-live, or a
    // log / status / alert role, that is not "off")
    const politeness = (el) => {
        for (let at = el; at; at = at.parentElement) {
            const live = at.getAttribute('aria-live');
            if (live) return live;
            const role = at.getAttribute('role');
            if (role === 'alert') return 'assertive';
            if (role === 'log' || role === 'status') return 'polite';
        }
        return 'off';
    };
    window.said = [];
    new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) {
            const el = n.nodeType === 1 ? n : n.parentElement;
            const text = (n.textContent || '').replace(/\\s+/g, ' ').trim();
            if (el && text && politeness(el) !== 'off') window.said.push(text.slice(0, 80));
        }
    }).observe(document.body, {childList: true, subtree: true});
}"""


def test_one_accept_says_each_change_once(browser_context):
    page = mounted(browser_context, "light", transcript=[review.FILTER], pending=review.PENDING)
    page.evaluate(LIVE)
    page.locator("[data-dial-action=accept]").click()
    page.evaluate("() => window.model.set('pending', {})")
    page.evaluate("() => window.model.set('queued', ['and then plot it'])")  # words waiting
    for thinking in (True, False, True, False):  # two spells of thinking, each redrawn twice
        page.evaluate("t => { window.model.set('thinking', t); window.model.set('running', t); }",
                      thinking)
    done = {"type": "outcome", "id": "f1", "action": "filter-rows", "status": "done",
            "preview": review.FILTER["preview"],
            "result": {"frame": "sales", "rows": 64, "columns": 6, "revision": 1,
                       "code": review.CODE}}
    reply = {"type": "inform", "text": "Done: 64 rows are left."}
    grown = [review.FILTER]
    for event in (done, reply):
        grown = [*grown, event]
        page.evaluate("t => window.model.set('transcript', t)", grown)
    expect(page.locator("[data-dial-suggestion=f1] .dial-chip")).to_have_text("Done")
    said = page.evaluate("() => window.said")
    told = json.dumps(said, indent=1)
    assert len({t for t in said if "Thinking" not in t}) == len(said) - 2, told  # said once
    assert not any("Only the west region" in text for text in said), told  # no card read whole
    assert sum("Keep the rows of sales" in t and t.endswith("Done") for t in said) == 1, told
    assert sum("64 rows are left" in t for t in said) == 1, told
    assert sum("Thinking" in t for t in said) == 2, told  # once a spell
    assert sum("and then plot it" in t for t in said) == 1, told  # the words queued, once
    page.close()


EDA = REPO / "notebooks" / "eda-assistant.ipynb"


def test_the_eda_notebook_in_jupyterlab_light_and_dark(jupyter, browser_context):
    """The EDA notebook as its markdown runs it (Run All: a describe card with its table), then a
    chart and a pending filter card, in JupyterLab itself, light and dark."""
    # a folder of its own: the notebook's session file (.dial/eda.json, beside it) must not
    # be the one test_eda_notebook's Run All carries on from
    folder = jupyter["root"] / "a11y"
    folder.mkdir(exist_ok=True)
    shutil.copy(EDA, folder / "eda-a11y.ipynb")
    nb = open_notebook(browser_context, jupyter["base"], "a11y/eda-a11y.ipynb", app="lab")
    try:
        wait_for_every_cell(nb.page)
        nb.say("plot price against size")
        plot = nb.root.locator("[data-dial-suggestion]:has(.dial-action-name:text-is('plot'))")
        expect(plot.last).to_have_attribute("data-dial-status", "done", timeout=30000)
        expect(nb.root.locator("[data-dial-result] table").first).to_be_visible()
        nb.say("filter sales where region is south")
        expect(nb.root.locator("[data-dial-status=pending]").last).to_be_visible(timeout=30000)
        found = []
        for theme in ("JupyterLab Light", "JupyterLab Dark"):
            nb.set_theme(theme)
            name = "lab-eda-" + theme.split()[-1].lower()
            found += [f"{name}: {v}" for v in axe_violations(nb.page, name)]
        assert found == [], "\n".join(found)
    finally:
        nb.set_theme("JupyterLab Light")  # the theme is the server's setting: put it back
        nb.page.close()
