"""Benchmark of the ChatWidget's traffic: what the kernel sends the front end per event, early and
late in a long conversation, and how soon a streamed reply's first word is on screen.

    .venv/bin/python tests/bench/bench_traffic.py [--events 500] [--quick]

* bytes per event: a real kernel (jupyter_client, ipykernel 7.x) holds a ChatWidget (a view
  announced, as a browser's is) whose scripted agent answers each message with a sentence of
  prose and an inform (5 events a say: the person's words, the message sent, the reply, the
  prose, the inform). Every comm message of the widget
  on iopub is counted (its JSON content) and put on the events it carries (an append message) or
  on the latest event (a trait update: thinking, running …). Printed for events 1–50 and the
  last 50 of the conversation, and their ratio (goal ≤ 1.2: flat); beside them, what re-sending
  the whole transcript trait on each event (the widget before it sent appends) would cost.
* first visible word: JupyterLab 4 in headless Chromium, OpenAIAgent in the kernel streaming from
  the fake OpenAI-compatible server (tests/unit/fake_llm_server.py) on 127.0.0.1; the time from
  the server writing the first chunk to that chunk's word in the page (MutationObserver, wall
  clocks of one machine). Median of N replies (goal: under 100 ms).

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import platform
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.browser._harness import (  # noqa: E402 - after the sys.path line
    chromium,
    jupyter_server,
    open_notebook,
    write_notebook,
)
from tests.kernel._kernels import started_kernel  # noqa: E402
from tests.unit.fake_llm_server import FakeLLMServer, reply  # noqa: E402

EVENTS_PER_SAY = 5
WINDOW = 50

SETUP = """\
import json
from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.widget import ChatWidget

def answer(message):
    words = message.split("\\n\\n")[-1]
    return ("Here is what I found about " + words + ": the numbers look steady, nothing stands "
            "out, and the last three weeks follow the same pattern as before."
            '<dial version="0.1" actor="agent"><dial-inform>Nothing to change for ' + words
            + ' — tell me if you want a chart of it.</dial-inform></dial>')

chat = ChatWidget(agent=ScriptedAgent([answer] * {says}), domain=NotesDomain([]))
comm_id = chat.comm.comm_id
print(comm_id)
"""

CONVERSATION = """\
for i in range({says}):
    await chat.say(f"question {{i}}")
print(len(chat.transcript))
"""


def run_cell(client: Any, code: str, timeout: float = 300) -> tuple[str, list[dict[str, Any]]]:
    """Execute ``code``; its stdout, and every iopub message it caused, in order."""
    msg_id = client.execute(code)
    out: list[str] = []
    messages: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            msg = client.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty as empty:
            raise TimeoutError("the cell did not finish") from empty
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind = msg["msg_type"]
        if kind == "stream":
            out.append(msg["content"]["text"])
        elif kind == "error":
            raise RuntimeError("\n".join(msg["content"]["traceback"]))
        elif kind == "status" and msg["content"]["execution_state"] == "idle":
            return "".join(out), messages
        messages.append(msg)


def bytes_per_event(messages: list[dict[str, Any]], comm_id: str, events: int) -> list[float]:
    """Bytes of the widget's comm messages put on each event (index 0 is event 1)."""
    cost = [0.0] * events
    seen = 0
    for msg in messages:
        if msg["msg_type"] != "comm_msg" or msg["content"].get("comm_id") != comm_id:
            continue
        size = len(json.dumps(msg["content"])) + sum(len(b) for b in msg.get("buffers") or [])
        data = msg["content"]["data"]
        custom = data.get("content") if data.get("method") == "custom" else None
        if isinstance(custom, dict) and custom.get("type") == "append" and custom["events"]:
            start, count = custom["start"], len(custom["events"])
            for index in range(start, min(start + count, events)):
                cost[index] += size / count
            seen = max(seen, start + count)
        elif seen:
            cost[min(seen, events) - 1] += size
        else:
            cost[0] += size
    return cost


def traffic(events: int) -> dict[str, float]:
    says = -(-events // EVENTS_PER_SAY)
    with tempfile.TemporaryDirectory() as tmp, started_kernel("ipykernel7", Path(tmp)) as client:
        comm_id = run_cell(client, SETUP.replace("{says}", str(says)))[0].strip()
        # a view is there, as in a browser (its first message): with none, each say's end
        # would also send the whole trait, for the widget state a headless run saves
        client.shell_channel.send(client.session.msg("comm_msg", {
            "comm_id": comm_id, "data": {"method": "custom",
                                         "content": {"type": "sync", "length": 0}}}))
        out, messages = run_cell(client, CONVERSATION.format(says=says))
        total = int(out.strip().splitlines()[-1])
        transcript = json.loads(run_cell(client, "print(json.dumps(chat.transcript))")[0])
    assert total == len(transcript) >= events, (total, events)
    cost = bytes_per_event(messages, comm_id, total)
    first = statistics.fmean(cost[:WINDOW])
    last = statistics.fmean(cost[total - WINDOW:total])
    # the widget before appends: each event re-sent the whole trait (every event so far)
    sizes = [len(json.dumps(event)) for event in transcript]
    resent, running = [], 0
    for size in sizes:
        running += size
        resent.append(running)
    return {
        "events": total, "first": first, "last": last, "ratio": last / first,
        "transcript_bytes": len(json.dumps(transcript)), "sent_bytes": sum(cost),
        "resent_first": statistics.fmean(resent[:WINDOW]),
        "resent_last": statistics.fmean(resent[total - WINDOW:total]),
        "resent_total": sum(resent),
    }


WATCH_FOR = """(word) => {
    // resolves with the wall-clock time (ms) at which `word` is first on screen, streamed
    const root = document.querySelector('[data-dial-root]');
    window.__firstWord = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
            const box = root.querySelector('[data-dial-streaming]');
            if (box && !box.hidden && box.textContent.includes(word)) {
                observer.disconnect();
                resolve(performance.timeOrigin + performance.now());
            }
        });
        observer.observe(root, {subtree: true, childList: true, characterData: true});
    });
}"""


def first_visible_word(replies: int) -> list[float]:
    """Milliseconds from the server writing a reply's first chunk to its word on screen."""
    with tempfile.TemporaryDirectory() as tmp, FakeLLMServer() as server:
        tmp_path = Path(tmp)
        with jupyter_server(tmp_path / "jupyter") as jupyter, \
                chromium(tmp_path / "profile") as context:
            name = write_notebook(jupyter["root"], "bench_stream.ipynb", (
                "from dial_notebook.agents import OpenAIAgent\n"
                "from dial_notebook.widget import ChatWidget\n"
                f"agent = OpenAIAgent(model='m', base_url={server.url + '/v1'!r}, "
                "api_key='sk-test')\n"
                "chat = ChatWidget(agent=agent, domain=notes_domain())\nchat"))
            notebook = open_notebook(context, jupyter["base"], name)
            times = []
            for number in range(replies):
                word = f"Firstword{number}"
                server.plan(reply(f"{word} and then the rest of the reply, written slowly, as "
                                  "a model writes it.", chunks=6, delay=0.15))
                notebook.page.evaluate(WATCH_FOR, word)
                notebook.say(f"question {number}")
                shown = notebook.page.evaluate("() => window.__firstWord")
                times.append(shown - server.first_chunk_at[-1] * 1000)
                notebook.root.locator("[data-dial-streaming]").wait_for(state="hidden")
            notebook.page.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--replies", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="200 events, 3 replies")
    args = parser.parse_args()
    if args.quick:
        args.events, args.replies = 200, 3
    print(f"python {platform.python_version()} on {platform.machine()}; ipykernel 7.x; "
          "headless Chromium")
    figures = traffic(args.events)
    total = figures["events"]
    print(f"bytes per event, events 1–{WINDOW}: {figures['first']:.0f} B; events "
          f"{total - WINDOW + 1}–{total}: {figures['last']:.0f} B; ratio "
          f"{figures['ratio']:.2f} (goal ≤ 1.2)")
    print(f"whole conversation: {figures['sent_bytes'] / 1024:.0f} KB sent for a "
          f"{figures['transcript_bytes'] / 1024:.0f} KB transcript of {total} events "
          f"({figures['sent_bytes'] / figures['transcript_bytes']:.2f}×)")
    print(f"re-sending the whole trait per event instead: {figures['resent_first']:.0f} B and "
          f"{figures['resent_last']:.0f} B per event (ratio "
          f"{figures['resent_last'] / figures['resent_first']:.0f}), "
          f"{figures['resent_total'] / 1024 / 1024:.1f} MB in all")
    times = first_visible_word(args.replies)
    print(f"first visible word after the server sends it: median {statistics.median(times):.1f}"
          f" ms over {len(times)} replies (min {min(times):.1f}, max {max(times):.1f}; "
          "goal < 100 ms)")
    print(json.dumps({**figures, "first_visible_word_ms": times}))


if __name__ == "__main__":
    main()
