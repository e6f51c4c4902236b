"""Fixtures for the browser tests: one Jupyter server per session (JupyterLab 4 and Notebook 7),
Debian's Chromium driven by Playwright (one context per module), test notebooks written to a
temporary root. A missing browser fails the run when ``CI`` is set; elsewhere the tests say why
they cannot run. Screenshots go to tests/browser/output/."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from ._harness import CHROMIUM, OUTPUT, chromium, jupyter_server, voila_server


@pytest.fixture(scope="session")
def jupyter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """A running Jupyter server (JupyterLab and Notebook 7 front ends) on a free port."""
    with jupyter_server(tmp_path_factory.mktemp("jupyter")) as server:
        yield server


@pytest.fixture(scope="session")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """Voilà serving a folder of notebooks as apps, on a free port."""
    with voila_server(tmp_path_factory.mktemp("voila")) as server:
        yield server


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """Headless Chromium (Debian's), one persistent context per test module.

    Per module, not per session: sync Playwright keeps an event loop running on the main
    thread, and the asyncio tests of other modules need that thread's loop free."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        message = f"Chromium not found at {CHROMIUM}: apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    OUTPUT.mkdir(exist_ok=True)
    with chromium(tmp_path_factory.mktemp("chromium")) as context:
        yield context
