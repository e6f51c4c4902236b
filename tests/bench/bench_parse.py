"""Benchmark: parse() of a 2 KB and a 1 MB reply against plain lxml.etree.fromstring.

Run: ``python tests/bench/bench_parse.py`` (``--quick`` for a smoke run). Prints figures; asserts
nothing about speed. ``parse`` builds element objects lazily, so two figures are given: the
parse itself, and the parse plus reading every element.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from lxml import etree

from dial_notebook.dial import parse


def reply_of_size(target: int) -> str:
    items = []
    i = 0
    body_size = 0
    while body_size < target:
        payload = json.dumps({"text": f"note number {i}", "tags": ["a", "b"], "n": i})
        item = (
            f'  <dial-inform id="i{i}" render="prose">Row {i} is ready &amp; checked.</dial-inform>\n'
            f'  <dial-suggest id="s{i}" action="add-note" yield="s{i}:done">Add note {i}?\n'
            f'    <dial-payload type="application/json">{payload}</dial-payload>\n'
            "  </dial-suggest>\n"
        )
        items.append(item)
        body_size += len(item)
        i += 1
    return ('Here is what I found:\n<dial version="0.1" turn="1" actor="agent">\n'
            + "".join(items) + "</dial>\nAnything else?")


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    quick = "--quick" in sys.argv
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    print(f"{'reply':>8} {'lxml µs':>10} {'parse µs':>10} {'ratio':>6} "
          f"{'parse+elements µs':>18} {'ratio':>6}")
    for label, size, repeat in (("2 KB", 2_000, 2000), ("1 MB", 1_000_000, 20)):
        if quick:
            repeat = max(2, repeat // 100)
        text = reply_of_size(size)
        start, end = text.index("<dial "), text.index("</dial>") + len("</dial>")
        data = text[start:end].encode("utf-8")
        lxml_t, _ = best_of(lambda data=data: etree.fromstring(data, parser), repeat)
        parse_t, _ = best_of(lambda text=text: parse(text), repeat)
        full_t, _ = best_of(lambda text=text: parse(text).elements, repeat)
        print(f"{label:>8} {lxml_t * 1e6:10.1f} {parse_t * 1e6:10.1f} {parse_t / lxml_t:6.2f} "
              f"{full_t * 1e6:18.1f} {full_t / lxml_t:6.2f}")


if __name__ == "__main__":
    main()
