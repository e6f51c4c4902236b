"""Benchmark: what the per-reply caps and lint's bounds cost on 3.9 MB hostile replies, and how
long a chart holds the kernel's loop when the renderer is cold (its start made 8 s slow, as on
a loaded machine).

Run: ``python tests/bench/bench_caps.py`` (``--quick``: 0.4 MB replies and a 2 s start). Prints
figures; asserts nothing about speed.

    parse + build   parse(reply) and every element read (at most MAX_ELEMENTS are built)
    lint            lint(reply): at most 200 findings listed, stopped after LINT_SECONDS
    chart           with_chart(event, later=…) on the loop: how long the call held it
"""

from __future__ import annotations

import asyncio
import sys
import time

from dial_notebook.dial import lint, parse


def replies(size: int) -> dict[str, str]:
    def repeated(head: str, body: str, tail: str = "") -> str:
        return head + body * (size // len(body)) + tail

    root = '<dial version="0.1" actor="agent">\n'
    return {
        "informs, one envelope": repeated(root, "<dial-inform>x</dial-inform>\n", "</dial>"),
        "misspelt tags": repeated(root, "<dial-infrom>x</dial-infrom>\n", "</dial>"),
        "unknown attributes": repeated(root, '<dial-inform a="1" b="2">x</dial-inform>\n',
                                       "</dial>"),
        "an envelope each": repeated("", '<dial actor="a"><dial-inform>x</dial-inform></dial>\n'),
        "empty envelopes": repeated("", "<dial/>"),
    }


def text_figures(size: int) -> None:
    print(f"{'reply':<24}{'MB':>5} {'parse+build':>12} {'elements':>9} {'lint':>7} {'findings':>9}")
    for name, text in replies(size).items():
        started = time.perf_counter()
        envelope = parse(text)
        read = sum(len(e.elements) for e in envelope.all()) if envelope else 0
        parsed = time.perf_counter() - started
        started = time.perf_counter()
        findings = lint(text)
        linted = time.perf_counter() - started
        print(f"{name:<24}{len(text) / 1e6:5.1f} {parsed:11.2f}s {read:9} {linted:6.2f}s "
              f"{len(findings):9}  last: {findings[-1].code if findings else '-'}")


async def chart_figures(start_seconds: float) -> None:
    from dial_notebook.widget import _vegalite

    if not _vegalite.installed():
        print("chart: vl-convert-python is not installed")
        return
    _vegalite._WORKER = f"import time; time.sleep({start_seconds})\n" + _vegalite._WORKER
    event = {"type": "inform", "text": "c", "render": "chart", "payload": {
        "data": {"values": [{"a": "x", "n": 3}]}, "mark": "bar",
        "encoding": {"x": {"field": "a", "type": "nominal"}}}}
    done: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
    started = time.perf_counter()
    first = _vegalite.with_chart(event, later=done.set_result)
    held = time.perf_counter() - started
    drawn = await asyncio.wait_for(done, start_seconds + 30)
    print(f"chart on a cold renderer ({start_seconds:g} s start): the loop held {held:.3f} s "
          f"({first['chart'].get('error', 'drawn')}); drawn after "
          f"{time.perf_counter() - started:.1f} s: {'src' in drawn['chart']}")
    _vegalite._worker.stop()


def main() -> None:
    quick = "--quick" in sys.argv
    text_figures(400_000 if quick else 3_900_000)
    asyncio.run(chart_figures(2.0 if quick else 8.0))


if __name__ == "__main__":
    main()
