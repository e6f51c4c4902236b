"""Benchmark of the ChatWidget in a real browser: click → outcome latency, and the time to
render a long transcript.

    .venv/bin/python tests/bench/bench_widget.py [--clicks 20] [--events 500] [--quick]

* click → outcome: in JupyterLab 4 (headless Debian Chromium, a real kernel, the real
  Conversation and notes domain), the time from clicking Accept on a pending card to the card
  showing ``done`` — the message to the kernel, the future resolved, the action run, the
  transcript synced back, the card re-rendered. Median of N clicks (goal: under 100 ms).
* render: the widget's bundle (dial_notebook/widget/static) loaded into a blank page, one view
  rendered from a transcript of N events (informs, person words, suggestion cards with
  outcomes, a question), layout included (goal: under 200 ms). Median of 5.

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.browser._harness import (  # noqa: E402 - after the sys.path line
    STATIC,
    chromium,
    jupyter_server,
    open_notebook,
    write_notebook,
)

CLICK_TO_DONE = """(sid) => new Promise((resolve) => {
    const root = document.querySelector('[data-dial-root]');
    const done = () => {
        const card = root.querySelector(`[data-dial-suggestion="${sid}"]`);
        return card && card.dataset.dialStatus === 'done';
    };
    const start = performance.now();
    const observer = new MutationObserver(() => {
        if (done()) { observer.disconnect(); resolve(performance.now() - start); }
    });
    observer.observe(root, {subtree: true, childList: true, attributes: true});
    root.querySelector(`[data-dial-suggestion="${sid}"] [data-dial-action=accept]`).click();
})"""

RENDER = """async ([source, css, transcript]) => {
    const url = URL.createObjectURL(new Blob([source], {type: 'text/javascript'}));
    const widget = (await import(url)).default;
    const style = document.createElement('style');
    style.textContent = css;
    document.head.append(style);
    const times = [];
    for (let i = 0; i < 5; i++) {
        const el = document.createElement('div');
        document.body.replaceChildren(el);
        const state = {transcript, pending: {}, thinking: false, running: false, schemas: {},
                       title: 'bench'};
        const model = {get: (k) => state[k], on() {}, off() {}, send() {}};
        const start = performance.now();
        widget.render({model, el});
        await new Promise((r) => queueMicrotask(r));
        void el.getBoundingClientRect().height;  // force style + layout
        document.body.offsetHeight;
        times.push(performance.now() - start);
    }
    return times;
}"""


def transcript_of(count: int) -> list[dict]:
    events: list[dict] = []
    i = 0
    while len(events) < count:
        sid = f"sg-{i}"
        events += [
            {"type": "person", "text": f"add note {i}"},
            {"type": "inform", "text": f"Sure — here is note {i}.", "act": "inform"},
            {"type": "suggestion", "id": sid, "action": "add-note", "text": "Shall I?",
             "payload": {"text": f"note {i}"}, "preview": f"Add the note 'note {i}'",
             "destructive": i % 7 == 0, "mutates": True},
            {"type": "outcome", "id": sid, "action": "add-note",
             "status": ["done", "dismissed", "superseded"][i % 3],
             "preview": f"Add the note 'note {i}'", "result": {"id": i}},
            {"type": "ask", "id": f"ask-{i}", "text": "Anything else?", "response_type": "text",
             "options": []},
        ]
        i += 1
    return events[:count]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--quick", action="store_true", help="3 clicks, 100 events (a smoke run)")
    args = parser.parse_args()
    if args.quick:
        args.clicks, args.events = 3, 100
    print(f"python {platform.python_version()} on {platform.machine()}; headless Chromium")
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        with jupyter_server(tmp_path / "jupyter") as server, \
                chromium(tmp_path / "profile") as context:
            name = write_notebook(server["root"], "bench.ipynb", (
                "from dial_notebook.widget import ChatWidget\n"
                "chat = ChatWidget(agent=RuleAgent(), domain=notes_domain())\nchat"))
            notebook = open_notebook(context, server["base"], name)
            latencies = []
            for i in range(args.clicks):
                notebook.say(f"add b{i}")
                notebook.card(f"add-b{i}").locator("[data-dial-action=accept]").wait_for()
                notebook.page.wait_for_timeout(50)
                latencies.append(notebook.page.evaluate(CLICK_TO_DONE, f"add-b{i}"))
            notebook.page.close()
            page = context.new_page()
            page.goto("about:blank")
            source = (STATIC / "widget.js").read_text()
            css = (STATIC / "widget.css").read_text()
            renders = page.evaluate(RENDER, [source, css, transcript_of(args.events)])
            cards = page.evaluate("() => document.querySelectorAll('[data-dial-suggestion]')"
                                  ".length")
    print(f"click → outcome shown: median {statistics.median(latencies):.1f} ms over "
          f"{len(latencies)} clicks (min {min(latencies):.1f}, max {max(latencies):.1f}; "
          "goal < 100 ms)")
    print(f"render {args.events} events ({cards} cards): median "
          f"{statistics.median(renders):.1f} ms over {len(renders)} renders "
          f"(min {min(renders):.1f}; goal < 200 ms)")
    print(json.dumps({"click_to_outcome_ms": latencies, "render_ms": renders}))


if __name__ == "__main__":
    main()
