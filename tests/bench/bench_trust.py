"""Benchmark of signed session files: what signing every save and checking a file when it is
read cost the kernel, as a file grows towards the 50 MB limit.

    .venv/bin/python tests/bench/bench_trust.py [--quick]

A snapshot of N events (sent / reply / inform / suggestion / outcome, with payloads) is saved
whole (JSON Lines, signed, written atomically: the first save of a file; later saves append,
tests/bench/bench_session.py) and read back (size and nesting bounded, every field
checked, the signature verified). Printed per size: the file's size, the save, the signature
alone, the read, and the nesting walk alone (median of 3). The secret is a fresh one in a
temporary Jupyter data directory, never the user's.

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dial_notebook.runtime import _session_file, _snapshot, _trust  # noqa: E402


def snapshot(events: int) -> dict[str, Any]:
    transcript: list[dict[str, Any]] = []
    for n in range(events // 5):
        sid = f"sg-{n}"
        transcript += [
            {"type": "sent", "turn": 1, "message": f"please add note {n} " + "x" * 200},
            {"type": "reply", "turn": 1, "text": "<dial>…</dial>" + "y" * 400},
            {"type": "inform", "text": "Here is a note", "act": "inform"},
            {"type": "suggestion", "id": sid, "action": "add-note", "text": "Add it?",
             "payload": {"text": f"note {n}", "tags": ["a", "b"], "meta": {"n": n}},
             "preview": f"Add the note {n}", "destructive": False, "mutates": True},
            {"type": "outcome", "id": sid, "action": "add-note", "status": "done",
             "preview": f"Add the note {n}", "result": {"id": n}},
        ]
    return {"format": _snapshot.FORMAT, "version": 1, "transcript": transcript}


def median(run: Any) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _mac(body: bytes) -> Any:
    mac = _trust.new_mac()
    mac.update(body)
    return mac


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small files only")
    args = parser.parse_args()
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 50_000, 100_000]
    with tempfile.TemporaryDirectory() as folder:
        os.environ["JUPYTER_DATA_DIR"] = str(Path(folder) / "jupyter")
        path = Path(folder) / "s.json"
        print(f"{'events':>8} {'MB':>6} {'save s':>7} {'sign s':>7} {'read s':>7} "
              f"{'depth s':>8}")
        for events in sizes:
            data = snapshot(events)
            save = median(lambda data=data: (_session_file.forget(),
                                             _snapshot.save_snapshot(data, path)))
            text = path.read_text()
            body = text[:text.rindex('{"signature"')].encode()
            sign = median(lambda body=body: _trust.signature_line(_mac(body)))
            read = median(lambda: _snapshot.read_session_file(path))
            depth = median(lambda data=data: _snapshot._depth(data))
            assert _snapshot.read_session_file(path)[1]
            print(f"{events:>8,} {len(text.encode()) / 1e6:>6.1f} {save:>7.3f} {sign:>7.3f} "
                  f"{read:>7.3f} {depth:>8.3f}")


if __name__ == "__main__":
    main()
