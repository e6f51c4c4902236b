"""What the browser tests and the widget benchmark share: a Jupyter server on a free port
(it serves JupyterLab 4 and Notebook 7), Debian's Chromium via Playwright, test notebooks whose
first cell is tests/widget_scenario.py, and a page object for the widget."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path

import nbformat

from dial_notebook.widget._chat_widget import STATIC  # the bundle ChatWidget loads

CHROMIUM = os.environ.get("DIAL_CHROMIUM", "/usr/bin/chromium")
OUTPUT = Path(__file__).resolve().parent / "output"
SCENARIO = Path(__file__).resolve().parents[1] / "widget_scenario.py"
BIN = Path(sys.executable).parent  # this environment's jupyter, voila, marimo
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_notebook(root: Path, name: str, *cells: str) -> str:
    """A notebook in the server's root whose first cell defines the scenario (agent, domain)."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SCENARIO.read_text()),
                *(nbformat.v4.new_code_cell(cell) for cell in cells)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, root / name)
    return name


@contextlib.contextmanager
def serve(name: str, command: list[str], env: dict[str, str], log: Path, probe: str,
          cwd: Path | None = None) -> Iterator[None]:
    """Run ``command`` (a server on 127.0.0.1:PORT, its output in ``log``) until the URL
    ``probe`` answers 200, then yield; it is stopped (terminated, else killed) afterwards."""
    with log.open("w") as out:
        server = subprocess.Popen(command, env=env, cwd=cwd, stdout=out,
                                  stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while not _up(probe):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not start:\n{log.read_text()}")
                time.sleep(0.2)
            yield
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)


def jupyter_env(root: Path) -> dict[str, str]:
    """This environment, with Jupyter's config, runtime and data folders in ``root``."""
    for sub in ("config", "runtime", "data", "nb"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    return {**os.environ, "JUPYTER_CONFIG_DIR": str(root / "config"),
            "JUPYTER_RUNTIME_DIR": str(root / "runtime"), "JUPYTER_DATA_DIR": str(root / "data"),
            "JUPYTER_PLATFORM_DIRS": "1"}


@contextlib.contextmanager
def jupyter_server(root: Path) -> Iterator[dict]:
    """A running Jupyter server rooted in ``root``/nb; yields ``{base, root, log}``."""
    env = jupyter_env(root)
    news = root / "us" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True, exist_ok=True)
    (root / "ws").mkdir(exist_ok=True)
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    port = free_port()
    command = [str(BIN / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1",
               f"--port={port}", "--port-retries=0", "--allow-root",
               "--IdentityProvider.token=", "--ServerApp.disable_check_xsrf=True",
               f"--ServerApp.root_dir={root / 'nb'}", "--LabApp.expose_app_in_browser=True",
               "--JupyterNotebookApp.expose_app_in_browser=True",
               f"--LabApp.user_settings_dir={root / 'us'}",
               f"--LabApp.workspaces_dir={root / 'ws'}"]
    base = f"http://127.0.0.1:{port}"
    with serve("jupyter server", command, env, root / "server.log", f"{base}/api/status"):
        yield {"base": base, "root": root / "nb", "log": root / "server.log"}


@contextlib.contextmanager
def voila_server(root: Path) -> Iterator[dict]:
    """Voilà, standalone, serving the notebooks in ``root``/nb as apps
    (``{base}/voila/render/NAME.ipynb``); yields ``{base, root, log}``. Run as a person runs
    it: ``voila DIR``, with no configuration of ours."""
    env = jupyter_env(root)
    port = free_port()
    command = [str(BIN / "voila"), str(root / "nb"), "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1"]
    base = f"http://127.0.0.1:{port}"
    with serve("voila", command, env, root / "voila.log", f"{base}/"):
        yield {"base": base, "root": root / "nb", "log": root / "voila.log"}


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator[object]:
    """Headless Debian Chromium: a Playwright persistent context using ``profile``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1100, "height": 1000})
        try:
            yield context
        finally:
            context.close()


class NotebookPage:
    """A notebook opened in JupyterLab or Notebook 7, all cells run, the widget on screen."""

    def __init__(self, page, app: str) -> None:
        self.page = page
        self.app = app
        self.root = page.locator("[data-dial-root]").first

    def say(self, text: str) -> None:
        box = self.root.locator("[data-dial-field=say]")
        box.fill(text)
        box.press("Enter")

    def card(self, sid: str):
        return self.root.locator(f"[data-dial-suggestion=\"{sid}\"]")

    def pending_card(self):
        """The card waiting for the person, pinned by its id (its status will change)."""
        from playwright.sync_api import expect

        waiting = self.root.locator("[data-dial-suggestion][data-dial-status=pending]").last
        expect(waiting).to_be_visible()
        return self.card(waiting.get_attribute("data-dial-suggestion"))

    def shot(self, name: str, target=None) -> Path:
        path = OUTPUT / f"{self.app}-{name}.png"
        (target or self.root).screenshot(path=str(path))
        return path

    def kernel_value(self, expression: str) -> str:
        """Run ``print(expression)`` in the notebook's kernel (no new cell) and read the output."""
        self.page.evaluate(
            """async (code) => {
                const panel = window.jupyterapp.shell.currentWidget;
                const future = panel.sessionContext.session.kernel.requestExecute({code});
                window.__printed = '';
                future.onIOPub = (msg) => {
                    if (msg.header.msg_type === 'stream') window.__printed += msg.content.text;
                };
                await future.done;
            }""", f"print({expression})")
        return self.page.evaluate("() => window.__printed").strip()

    def set_theme(self, theme: str) -> None:
        self.page.evaluate("t => window.jupyterapp.commands.execute('apputils:change-theme', "
                           "{theme: t})", theme)
        self.page.wait_for_function(
            "t => document.body.dataset.jpThemeName === t", arg=theme, timeout=15000)
        self.page.wait_for_timeout(300)


def open_notebook(context, base: str, name: str, app: str = "lab",
                  ready: str = "[data-dial-root]") -> NotebookPage:
    """Open ``name``, wait for an idle kernel, run all cells, wait for ``ready`` (the chat
    widget by default)."""
    page = context.new_page()
    # leave-page prompts are accepted (a reload must go through); any other dialog is dismissed
    page.on("dialog", lambda dialog: dialog.accept() if dialog.type == "beforeunload"
            else dialog.dismiss())
    url = (f"{base}/lab/workspaces/w{uuid.uuid4().hex[:8]}/tree/{name}" if app == "lab"
           else f"{base}/notebooks/{name}")
    page.goto(url)
    page.wait_for_function(
        """() => {
            const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            const k = w && w.sessionContext && w.sessionContext.session
                && w.sessionContext.session.kernel;
            return k && k.connectionStatus === 'connected' && k.status === 'idle';
        }""", timeout=60000)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.locator(ready).first.wait_for(timeout=60000)
    return NotebookPage(page, app)


CELLS = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    return {kernel: kernel ? kernel.status : 'none',
            cells: panel.content.widgets.filter((c) => c.model.type === 'code').map((c) => ({
                count: c.model.executionCount,
                source: c.model.sharedModel.getSource().slice(0, 80),
                full: c.model.sharedModel.getSource(),
                output: c.node.querySelector('.jp-OutputArea') ?
                    c.node.querySelector('.jp-OutputArea').innerText.slice(-300) : ''}))};
}"""


RAN_IN_KERNEL = """async (sources) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const code = 'import json as _j; _ran = {x.strip() for x in In}; '
        + 'print(_j.dumps([s.strip() in _ran for s in ' + JSON.stringify(sources) + ']))';
    const future = kernel.requestExecute({code, silent: false, store_history: false});
    let printed = '';
    future.onIOPub = (msg) => { if (msg.header.msg_type === 'stream') printed += msg.content.text; };
    await future.done;
    return JSON.parse(printed);
}"""


def wait_for_every_cell(page, timeout: float = 90000) -> None:
    """Wait until every code cell of the open notebook has run: it has an execution count,
    or, when the front end never set one, the kernel (idle) has it in its history (``In``) and
    a later cell has run — JupyterLab sometimes misses one reply of a Run All, though the cell
    ran (its output is there); that is warned about, not waited on. Otherwise, on a timeout: a
    screenshot (``stalled-cells.png``) and an error naming the kernel's status and each cell
    that has not run, with what its output area shows."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"() => ({CELLS})().cells.every((c) => c.count)",
                               timeout=timeout)
        return
    except PlaywrightTimeout:
        pass
    state = page.evaluate(CELLS)
    missing = [c for c in state["cells"] if not c["count"]]
    last = max(i for i, c in enumerate(state["cells"]) if c["count"]) if any(
        c["count"] for c in state["cells"]) else -1
    if state["kernel"] == "idle" and all(state["cells"].index(c) < last for c in missing):
        sources = [c["full"] for c in missing]
        if all(page.evaluate(RAN_IN_KERNEL, sources)):
            warnings.warn("JupyterLab set no execution count on cells the kernel ran: "
                          + "; ".join(repr(c["source"]) for c in missing), stacklevel=2)
            return
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "stalled-cells.png"), full_page=True)
    lines: dict[bool, list[str]] = {True: [], False: []}
    for c in state["cells"]:
        lines[bool(c["count"])].append(f"  [{c['count']}] {c['source']!r} → {c['output']!r}")
    raise AssertionError(
        f"not every cell ran in {timeout / 1000:.0f} s (kernel {state['kernel']});\n"
        "the last that ran:\n" + "\n".join(lines[True][-2:])
        + "\nnot run:\n" + "\n".join(lines[False]))


MOUNT = """async ([source, css, state]) => {
    const url = URL.createObjectURL(new Blob([source], {type: 'text/javascript'}));
    const widget = (await import(url)).default;
    const style = document.createElement('style');
    style.textContent = css;
    document.head.append(style);
    const handlers = {};
    window.sent = [];
    window.model = {
        get: (k) => state[k],
        set: (k, v) => { state[k] = v; (handlers['change:' + k] || []).forEach((f) => f()); },
        on: (name, f) => { (handlers[name] = handlers[name] || []).push(f); },
        off() {},
        send: (content) => { window.sent.push(content); },
    };
    const el = document.createElement('div');
    el.style.width = '640px';
    document.body.append(el);
    widget.render({model: window.model, el});
}"""


def mount_widget(context, state: dict):
    """A blank page with the widget's bundle (the files ChatWidget loads) rendered from
    ``state`` and a model double that records what the view sends (``window.sent``) and lets a
    test change traits (``window.model.set``)."""
    root = STATIC
    page = context.new_page()
    page.goto("about:blank")
    full = {"transcript": [], "pending": {}, "thinking": False, "running": False,
            "schemas": {}, "title": "", **state}
    page.evaluate(MOUNT, [(root / "widget.js").read_text(), (root / "widget.css").read_text(),
                          full])
    return page


SAVE = """() => {
    const context = window.jupyterapp.shell.currentWidget.context;
    window.__saved = null;
    context.save().then(() => { window.__saved = 'saved ' + context.path; },
                        (error) => { window.__saved = 'failed: ' + error; });
}"""


def save_and_reload(page) -> None:
    """Save the open notebook (its outputs, so the widget comes back), reload the page with
    the kernel alive, and wait until the kernel is connected again."""
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=15000)
    page.reload()
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
        "    .connectionStatus === 'connected'", timeout=60000)


def save_with_widget_state(page, timeout: float = 60000) -> None:
    """Save the open notebook from JupyterLab with its widget state, and wait until the file is
    written (the setting is put back as it was: the server's settings are shared by the other
    tests). A "File Changed" dialog (the file on disk newer than the page's copy) is answered
    Overwrite; any other dialog, or a failed save, fails with what the page showed."""
    toggle = "@jupyter-widgets/jupyterlab-manager:saveWidgetState"
    commands = "window.jupyterapp.commands"
    was = page.evaluate(f"() => {commands}.isToggled('{toggle}')")
    if not was:
        page.evaluate(f"() => {commands}.execute('{toggle}')")
    try:
        page.wait_for_function(f"() => {commands}.isToggled('{toggle}')")
        page.evaluate(SAVE)
        deadline = time.monotonic() + timeout / 1000
        while (saved := page.evaluate("() => window.__saved")) is None:
            dialog = page.locator(".jp-Dialog")
            if dialog.count():
                text = dialog.first.inner_text()
                if "File Changed" not in text:
                    raise AssertionError(f"saving the notebook showed a dialog: {text!r}")
                dialog.first.get_by_role("button", name="Overwrite").click()
            if time.monotonic() > deadline:
                raise AssertionError(f"the notebook was not saved in {timeout / 1000:.0f} s")
            page.wait_for_timeout(100)
        assert saved.startswith("saved "), saved
    finally:
        if not was:
            page.evaluate(f"() => {commands}.execute('{toggle}')")
            page.wait_for_function(f"() => !{commands}.isToggled('{toggle}')")
