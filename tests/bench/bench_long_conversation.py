"""Benchmark of a long conversation (issue 29): every figure at 200 and 2,000 events of a
generated analysis session (tests/long_conversation.py), against its target.

    .venv/bin/python tests/bench/bench_long_conversation.py [--sizes 200 2000] [--appends 30]
    .venv/bin/python tests/bench/bench_long_conversation.py --quick   (the suite's smoke run)

No browser:
* kernel: the CPU time one event costs a ChatWidget carrying on a session file of 100 and of
  20,000 events (target: within 1.2×; each size's median of ``KERNEL_RUNS`` runs taken in
  turn), over 200 events a second apart: the append (the
  runtime's event sink, then the append message sent through a comm that serialises it), the
  session file's save after it, and the static copy's updates as ``StaticOutput`` spaces them
  (at least a second apart, and as far apart as the copy is big: a copy updated whole costs in
  proportion to its size, and is updated in inverse proportion to it); one update's own cost
  is printed beside.
* report: ``chat.export_html`` and the static copy (``conversation_html``) of 2,000 events:
  time (target < 1 s), size, and how many times each chart image is in them.
In JupyterLab 4, headless Chromium (tests/browser/_harness.py), per size:
* open: from the kernel starting the widget cell to the last item painted (an in-page watch:
  the log's last node holds the last item's text, then a frame and a task); target < 1.5 s.
  And the page reloaded with the kernel alive (``RELOADS`` times): navigation start → painted,
  split where the notebook's kernel is connected (JupyterLab's start before, the widget's
  share after: it asks its kernel for its conversation then); and the session file of the same
  conversation opened in a new kernel (``session=``): cell → painted.
* grow: ``--appends`` events added from the kernel one at a time (an inform, then a card with
  its outcome, …): the append message's arrival at the page (the kernel connection's
  anyMessage) → the new item in the log → painted; median and 95th percentile (target
  median < 16 ms, p95 < 50 ms).
* scroll: the conversation's log (or what scrolls it) scrolled top to bottom in steps of 80% of a screen, a frame apart;
  the longest task (PerformanceObserver 'longtask') and the longest frame (target: no task
  over 50 ms).
* memory: ``performance.memory.usedJSHeapSize`` after a garbage collection, before the widget
  cell and once it is painted (target < 150 MB).
* save: the notebook saved with widget state: what it grew by, against the session file of
  the same conversation (target ≤ 1.2×), also without the widget's front-end code (anywidget's
  ``_esm`` and ``_css``, the same for an empty chat: once per widget, not per event); how many
  times each chart image is in it (its one-pixel-per-CSS-pixel copy once, the sharp one never).

``--quick``: the no-browser figures (kernel at 100 and 5,000 events, one run each; report at 2,000) and the
browser at 200 events with 5 appends, without the session's opening. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_widget import CountingComm  # noqa: E402 - after the sys.path line
from tests.long_conversation import (  # noqa: E402
    chart_sources,
    copy_sources,
    item_needles,
    long_session_file,
    long_transcript,
    widget_cells,
)

TARGETS = {"kernel": "≤ 1.2×", "open": "< 1500 ms", "grow": "median < 16 ms, p95 < 50 ms",
           "scroll": "no task > 50 ms", "memory": "< 150 MB", "save": "≤ 1.2× session file",
           "report": "< 1000 ms"}


def line(figure: str, text: str) -> None:
    print(f"{figure:>7}: {text}   [target {TARGETS[figure]}]", flush=True)


async def _charts_drawn(seconds: float = 180.0) -> None:
    """Wait until the charts a session opened with are drawn again (off the loop, by a thread and
    a process of their own, once: 200 charts at 20,000 events): the steady state a person then
    works in, and what one event costs there."""
    from dial_notebook.widget import _vegalite

    deadline = time.monotonic() + seconds
    while _vegalite.drawing_later() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


async def _event_cost(events: int, adds: int) -> dict[str, float]:
    """A ChatWidget carrying on a session of ``events`` events (its file: the runtime holds
    them too), given ``adds`` events a second apart: the CPU time (of this thread: the session's
    charts are drawn again meanwhile by a thread of their own, once) of each append (the runtime's
    event sink, the append message serialised), of the session's save after each, and of the
    static copy's updates at the spacing ``StaticOutput`` keeps (the copy drawn and its message
    serialised, as the kernel sends it), all over the events; and one update's own cost."""
    from dial_notebook.domains.notes import NotesDomain
    from dial_notebook.widget import ChatWidget
    from dial_notebook.widget._static_output import StaticOutput

    skipped = [0.0]  # the seconds the events were apart, not waited for

    def clock() -> float:
        return time.perf_counter() + skipped[0]

    def publish(bundle: dict, **_options: Any) -> None:
        json.dumps({"data": bundle, "metadata": {}, "transient": {}})  # the kernel's message

    with tempfile.TemporaryDirectory() as folder:
        path = long_session_file(Path(folder) / "long.json", events)
        chat = ChatWidget(agent=lambda message: "", domain=NotesDomain([]), session=path)
        chat.comm = CountingComm()
        copy = StaticOutput(chat._static_html, display=publish, update_display=publish,
                            clock=clock)
        copy.show()
        chat._saver.save()  # the first save reads the user's secret
        await _charts_drawn()
        copy._dirty = True
        copy.flush(force=True)  # the charts put in place, in the copy too: the steady state
        appends = saves = statics = 0.0
        updates = 0
        for n in range(adds):
            start = time.thread_time()
            chat._on_event({"type": "inform", "text": f"one more finding, {n}", "act": "inform"})
            chat._flush_appends()  # what the loop does next: the append message, serialised
            appends += time.thread_time() - start
            start = time.thread_time()
            chat._saver.save()  # what the session's save writes (within half a second)
            saves += time.thread_time() - start
            skipped[0] += 1.0  # a second until the next event
            copy._dirty = True  # the change; its update is drawn when the spacing has passed
            if clock() >= copy._last + max(copy.interval, copy._gap()):
                start = time.thread_time()
                copy.flush(force=True)  # what the timer changed() set does then
                statics += time.thread_time() - start
                updates += 1
        start = time.thread_time()
        copy._dirty = True
        copy.flush(force=True)
        one_update = time.thread_time() - start
        chat.close()
    return {"event_us": appends / adds * 1e6, "save_ms": saves / adds * 1e3,
            "static_ms": statics / adds * 1e3, "updates": updates,
            "update_ms": one_update * 1e3, "copy_mb": len(copy._sent) / 1e6}


#: Runs of each size, taken in turn (small, large, small, …): the figure is each size's median
#: run, so one garbage collection or a busy moment of the machine does not make the ratio.
KERNEL_RUNS = 3


def _whole_ms(figures: dict[str, float]) -> float:
    """One event and all it sets off (ms): the append, the save, the copy's share."""
    return figures["event_us"] / 1e3 + figures["static_ms"] + figures["save_ms"]


def kernel_figures(small: int, large: int, adds: int = 200,
                   repeat: int = KERNEL_RUNS) -> dict[str, Any]:
    asyncio.run(_event_cost(small, 20))  # warm: imports, the first widget, the secret
    runs: dict[int, list[dict[str, float]]] = {small: [], large: []}
    for _ in range(repeat):
        for size in (small, large):
            runs[size].append(asyncio.run(_event_cost(size, adds)))
    few, many = (sorted(runs[size], key=_whole_ms)[len(runs[size]) // 2]
                 for size in (small, large))
    whole = [_whole_ms(f) for f in (few, many)]
    ratio, alone = whole[1] / whole[0], many["event_us"] / few["event_us"]
    spread = {size: f"{min(map(_whole_ms, found)):.2f}-{max(map(_whole_ms, found)):.2f}"
              for size, found in runs.items()}
    runs_said = "one run" if repeat == 1 else f"the median of {repeat} runs"
    line("kernel", f"one event and all it sets off ({adds} events a second apart: the append, "
                   f"the session saved, the static copy's updates at their spacing; "
                   f"{runs_said}): {whole[0]:.2f} ms at {small:,} events "
                   f"({spread[small]}), {whole[1]:.2f} ms at {large:,} ({spread[large]}): "
                   f"{ratio:.2f}×")
    print(f"         the append alone {few['event_us']:.1f} → {many['event_us']:.1f} µs "
          f"({alone:.2f}×); session save {few['save_ms']:.2f} → {many['save_ms']:.2f} ms; "
          f"the static copy {few['static_ms']:.2f} → {many['static_ms']:.2f} ms an event "
          f"({few['updates']} → {many['updates']} updates of a {few['copy_mb']:.2f} → "
          f"{many['copy_mb']:.1f} MB copy, one update {few['update_ms']:.1f} → "
          f"{many['update_ms']:.0f} ms)", flush=True)
    return {"small": small, "large": large, "few": few, "many": many, "ratio": ratio,
            "append_ratio": alone}


def report_figures(events: int) -> dict[str, Any]:
    from dial_notebook.domains.notes import NotesDomain
    from dial_notebook.widget import ChatWidget
    from dial_notebook.widget._static import conversation_html

    transcript = long_transcript(events)
    chat = ChatWidget(agent=lambda message: "", domain=NotesDomain([]), transcript=transcript,
                      title="A long analysis")
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        path = chat.export_html(Path(folder) / "export.html")
        export_ms = (time.perf_counter() - start) * 1e3
        exported = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    static = conversation_html(transcript, title="A long analysis")
    static_ms = (time.perf_counter() - start) * 1e3
    sources = chart_sources(transcript)
    line("report", f"{events:,} events: export_html {export_ms:.0f} ms "
                   f"({len(exported) / 1e6:.1f} MB), static copy {static_ms:.0f} ms "
                   f"({len(static) / 1e6:.1f} MB); each chart image "
                   f"{_times(exported, sources)} in the export (sharp), "
                   f"{_times(static, copy_sources(transcript))} in the copy (its copy, one "
                   "pixel per CSS pixel)")
    return {"events": events, "export_ms": export_ms, "static_ms": static_ms,
            "export_bytes": len(exported), "static_bytes": len(static)}


def _times_found(text: str, sources: list[str]) -> int:
    """How many times the chart images are in ``text`` (the most of any one)."""
    return max((text.count(src[len(src) // 2:len(src) // 2 + 120]) for src in sources),
               default=0)


def _widget_code(saved: str) -> int:
    """The characters of the widgets' front-end code (anywidget's ``_esm`` and ``_css``) in the
    widget state of the saved notebook ``saved``."""
    widgets = json.loads(saved).get("metadata", {}).get("widgets", {})
    state = widgets.get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    return sum(len(json.dumps(model.get("state", {}).get(key, "")))
               for model in state.values() for key in ("_esm", "_css")
               if model.get("state", {}).get(key))


def _times(text: str, sources: list[str]) -> str:
    """How many times each chart image is in ``text``: '1×', or 'a-b×'."""
    counts = [text.count(src[len(src) // 2:len(src) // 2 + 120]) for src in sources]
    if not counts:
        return "(no charts)"
    low, high = min(counts), max(counts)
    return f"{low}×" if low == high else f"{low}-{high}×"


WATCH = """(() => {  // before the page's own scripts: the time the last item is painted
    const needle = sessionStorage.getItem('dial-needle') || %s;
    const w = window.__watch = {needle, connected: null, root: null, dom: null, painted: null};
    const tick = () => {
        const shown = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const kernel = shown && shown.sessionContext && shown.sessionContext.session
            && shown.sessionContext.session.kernel;
        if (w.connected === null && kernel && kernel.connectionStatus === 'connected') {
            w.connected = performance.now();  // JupyterLab's start ends: the widget can ask
        }
        const root = document.querySelector('[data-dial-root]');
        if (root && w.root === null) w.root = performance.now();
        const last = root && root.querySelector('.dial-log > :last-child > :last-child');
        if (last && last.textContent.includes(w.needle)) {
            w.dom = performance.now();
            requestAnimationFrame(() => setTimeout(() => { w.painted = performance.now(); }));
            return;
        }
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
})();"""

LISTEN = """() => {  // the kernel's messages: when the widget cell starts, when an append arrives
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    window.__cell = null;
    window.__grow = {arrived: {}, dom: {}, painted: {}};
    kernel.anyMessage.connect((_, {msg, direction}) => {
        if (direction !== 'recv') return;
        const type = msg.header.msg_type;
        if (type === 'execute_input' && String(msg.content.code).includes('ChatWidget(')) {
            window.__cell = performance.now();
        } else if (type === 'comm_msg') {
            const data = msg.content.data;
            if (data && data.method === 'custom' && data.content && data.content.type === 'append') {
                const found = JSON.stringify(data.content.events).match(/grow-marker-(\\d+)/);
                if (found) window.__grow.arrived[found[1]] = performance.now();
            }
        }
    });
}"""

OBSERVE_GROW = """() => {
    const log = document.querySelector('[data-dial-root] .dial-log');
    const grow = Object.assign(window.__grow, {tasks: []});
    new PerformanceObserver((list) => { for (const t of list.getEntries()) grow.tasks.push(t.duration); })
        .observe({type: 'longtask'});
    new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) {
            const found = (node.textContent || '').match(/grow-marker-(\\d+)/);
            const n = found && found[1];
            if (!found || grow.dom[n] !== undefined) continue;
            grow.dom[n] = performance.now();
            requestAnimationFrame(() => setTimeout(() => { grow.painted[n] = performance.now(); }));
        }
    }).observe(log, {childList: true, subtree: true});  // entries go into the log's blocks
}"""

SCROLL = """async () => {
    let el = document.querySelector('[data-dial-root] .dial-log');  // or what scrolls it
    while (el && !(el.scrollHeight > el.clientHeight + 10
                   && /(auto|scroll)/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
    const tasks = [];
    const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration);
    });
    observer.observe({type: 'longtask'});
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    el.scrollTop = 0;
    await frame(); await frame();
    let last = await frame(), longestFrame = 0, steps = 0, start = last;
    while (el.scrollTop + el.clientHeight < el.scrollHeight - 2) {
        el.scrollTop += Math.round(el.clientHeight * 0.8);
        steps++;
        const now = await frame();
        longestFrame = Math.max(longestFrame, now - last);
        last = now;
    }
    await frame(); await new Promise((r) => setTimeout(r, 200)); observer.disconnect();
    return {steps, tasks, longestFrame, total: last - start, height: el.scrollHeight};
}"""

HEAP = """() => { if (window.gc) window.gc(); return performance.memory.usedJSHeapSize; }"""
RUN = """async (code) => await window.jupyterapp.shell.currentWidget.sessionContext.session
    .kernel.requestExecute({code, store_history: false}).done"""


def _grow_code(n: int) -> str:
    if n % 2 == 0:
        return (f"chat._on_event({{'type': 'inform', 'act': 'inform', 'text': "
                f"'grow-marker-{n} **One more** finding: the median moved.'}})")
    sid = f"grow-{n}"
    return (f"chat._on_event({{'type': 'suggestion', 'id': {sid!r}, 'action': 'describe', "
            f"'text': 'grow-marker-{n} Describe it?', 'payload': {{'frame': 'sales'}}, "
            f"'preview': 'Describe sales', 'destructive': False, 'mutates': False}}); "
            f"chat._on_event({{'type': 'outcome', 'id': {sid!r}, 'action': 'describe', "
            f"'status': 'done', 'preview': 'Describe sales', 'result': {{'rows': {n}}}}})")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _painted(page: Any, timeout: float = 120_000) -> dict[str, Any]:
    page.wait_for_function("() => window.__watch?.painted != null", timeout=timeout)
    return page.evaluate("() => window.__watch")


KERNEL_IDLE = """() => {
    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    return k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""


#: Reloads of a page measured (their median is the figure).
RELOADS = 3


def _spread(values: list[float]) -> str:
    """'820' or '790-860': the range of ``values`` (ms); '?' when there are none."""
    if not values:
        return "?"
    low, high = round(min(values)), round(max(values))
    return f"{low}" if low == high else f"{low}-{high}"


def _run_widget_cell(context: Any, server: dict, name: str, needle: str) -> tuple[Any, dict]:
    """Open ``name`` in a workspace of its own, run its cells; the page, with the in-page
    times (ms) of the kernel starting the widget cell (``cell``), the JS heap before it
    (``heap_before``), the last item in the DOM (``dom``) and painted (``painted``)."""
    page = context.new_page()
    page.add_init_script(script=WATCH % json.dumps(needle))
    page.goto(f"{server['base']}/lab/workspaces/{Path(name).stem}/tree/{name}")
    page.wait_for_function(KERNEL_IDLE, timeout=60000)
    heap_before = page.evaluate(HEAP)
    page.evaluate(LISTEN)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    watch = _painted(page)
    return page, {**watch, "cell": page.evaluate("() => window.__cell"),
                  "heap_before": heap_before}


def _grow(page: Any, appends: int) -> tuple[list[float], list[float]]:
    """Add ``appends`` events from the kernel, one at a time: arrival → painted (ms) each, and
    the long tasks (ms) meanwhile (the static copy's update parsed by the page, …)."""
    page.evaluate(OBSERVE_GROW)
    for n in range(appends):
        page.evaluate(RUN, _grow_code(n))
        page.wait_for_function(f"() => window.__grow.painted[{n}] !== undefined", timeout=60000)
        page.wait_for_timeout(60)
    grow = page.evaluate("() => window.__grow")
    return [grow["painted"][k] - grow["arrived"][k] for k in grow["painted"]
            if k in grow["arrived"]], grow["tasks"]


def browser_size(context: Any, server: dict, events: int, appends: int, *,
                 session: bool = True) -> dict[str, Any]:
    """Every in-browser figure for a conversation of ``events`` events."""
    from tests.browser._harness import save_with_widget_state, write_notebook

    transcript = long_transcript(events)
    name = write_notebook(server["root"], f"long-{events}.ipynb", *widget_cells(events))
    unsaved = (server["root"] / name).stat().st_size
    page, watch = _run_widget_cell(context, server, name, item_needles(transcript)[-1])
    page.wait_for_timeout(500)
    heap, before = page.evaluate(HEAP) / 1e6, watch["heap_before"] / 1e6
    out: dict[str, Any] = {"events": events, "open_ms": watch["painted"] - watch["cell"],
                           "heap_mb": heap, "heap_before_mb": before}
    line("open", f"{events:,} events: widget cell → painted {out['open_ms']:.0f} ms (in the "
                 f"DOM at {watch['dom'] - watch['cell']:.0f} ms)")
    line("memory", f"{events:,} events: JS heap {heap:.0f} MB (JupyterLab alone {before:.0f} MB)")
    latencies, tasks = _grow(page, appends)
    out.update(grow_ms=latencies, grow_median=statistics.median(latencies),
               grow_p95=_percentile(latencies, 0.95), grow_tasks=tasks)
    line("grow", f"{events:,} events: arrival → painted median {out['grow_median']:.1f} ms, "
                 f"p95 {out['grow_p95']:.1f} ms, max {max(latencies):.1f} ms "
                 f"({len(latencies)} appends; longest task meanwhile "
                 f"{max(tasks, default=0):.0f} ms, {len(tasks)} > 50 ms)")
    scroll = page.evaluate(SCROLL)
    longest = max(scroll["tasks"], default=0.0)
    out.update(scroll_longest_task=longest, scroll_tasks=len(scroll["tasks"]),
               scroll_longest_frame=scroll["longestFrame"])
    line("scroll", f"{events:,} events: {scroll['steps']} steps over {scroll['height']:,} px "
                   f"in {scroll['total']:.0f} ms: longest task {longest:.0f} ms, "
                   f"{len(scroll['tasks'])} tasks > 50 ms, longest frame "
                   f"{scroll['longestFrame']:.0f} ms")
    save_with_widget_state(page)
    saved = (server["root"] / name).read_text(encoding="utf-8")
    session_file = long_session_file(server["root"] / f"long-{events}.json", events,
                                     data_dir=server["root"].parent / "data")  # the server's
    grew, size = len(saved.encode()) - unsaved, session_file.stat().st_size
    conversation = len(json.dumps(transcript).encode())
    code = _widget_code(saved)
    copies, sharp = copy_sources(transcript), chart_sources(transcript)
    images = sum(len(src) for src in copies) * _times_found(saved, copies)
    rest = grew - images - code
    out.update(saved_growth=grew, session_bytes=size, conversation_bytes=conversation,
               saved_images=images, saved_code=code, saved_rest=rest,
               saved_conversation=grew - code)
    line("save", f"{events:,} events: the notebook grew {grew / 1e6:.2f} MB = "
                 f"{grew / size:.2f}× the session file ({size / 1e6:.2f} MB, no images); "
                 f"without the widget's code ({code / 1e6:.2f} MB, the same for an empty chat) "
                 f"{(grew - code) / size:.2f}×")
    print(f"         each chart image {_times(saved, copies)} at one pixel per CSS pixel, "
          f"{_times(saved, sharp)} sharp: {images / 1e6:.2f} MB (the session file holds "
          f"their data, not pictures); the rest {rest / 1e6:.2f} MB = {rest / size:.2f}× the "
          f"session file; the transcript's JSON {conversation / 1e6:.2f} MB", flush=True)
    page.evaluate("(n) => sessionStorage.setItem('dial-needle', n)", f"grow-marker-{appends - 1}")
    reloads = []
    for _ in range(RELOADS):
        page.reload()
        reloads.append(_painted(page))
    page.close()
    painted = statistics.median(w["painted"] for w in reloads)
    ours = [w["painted"] - w["connected"] for w in reloads if w["connected"] is not None]
    out.update(reload_ms=painted, reload_after_kernel_ms=statistics.median(ours or [0.0]))
    line("open", f"{events:,} events, reloaded with the kernel alive: navigation → painted "
                 f"{_spread([w['painted'] for w in reloads])} ms, of which JupyterLab's start "
                 f"to the notebook's kernel connected "
                 f"{_spread([w['connected'] for w in reloads if w['connected'] is not None])} "
                 f"ms, and from there to the conversation painted {_spread(ours)} ms")
    if session:
        out["session_open_ms"] = _session_open(context, server, events, session_file)
    return out


def _session_open(context: Any, server: dict, events: int, path: Path) -> float:
    """A new kernel opening the session file ``path``: widget cell → painted (ms)."""
    from tests.browser._harness import write_notebook

    name = write_notebook(server["root"], f"long-session-{events}.ipynb",
                          *widget_cells(events, session=str(path)))
    page, watch = _run_widget_cell(context, server, name, str(path))
    took = watch["painted"] - watch["cell"]
    line("open", f"{events:,} events, a saved session opened in a new kernel: widget cell → "
                 f"painted {took:.0f} ms")
    page.close()
    return took


def browser_figures(sizes: list[int], appends: int, *, session: bool = True) -> list[Any]:
    from playwright.sync_api import sync_playwright

    from tests.browser._harness import CHROMIUM, CHROMIUM_ARGS, jupyter_server

    with tempfile.TemporaryDirectory() as tmp, jupyter_server(Path(tmp) / "jupyter") as server, \
            sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(Path(tmp) / "profile"), executable_path=CHROMIUM, headless=True,
            args=[*CHROMIUM_ARGS, "--enable-precise-memory-info", "--js-flags=--expose-gc"],
            viewport={"width": 1100, "height": 1000})
        try:
            return [browser_size(context, server, n, appends, session=session) for n in sizes]
        finally:
            context.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 2000])
    parser.add_argument("--appends", type=int, default=30)
    parser.add_argument("--kernel-events", type=int, default=20_000)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--quick", action="store_true",
                        help="kernel at 5,000 events, the browser at 200 events, 5 appends")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.appends, args.kernel_events = [200], 5, 5_000
    # the report first: after the kernel's runs, a collection of what their sessions left
    # (20,000 events, three times) lands in it now and then (0.4 s, not the report's own)
    results: dict[str, Any] = {"report": report_figures(2000)}
    results["kernel"] = kernel_figures(100, args.kernel_events,
                                       repeat=1 if args.quick else KERNEL_RUNS)
    if not args.no_browser:
        results["browser"] = browser_figures(args.sizes, args.appends, session=not args.quick)
    print(json.dumps(results, default=float))


if __name__ == "__main__":
    main()
