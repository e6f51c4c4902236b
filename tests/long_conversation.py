"""A long analysis conversation, generated: what a ChatWidget's ``transcript`` holds after a
long exploratory-data-analysis session, for the long-conversation benchmark and browser test
(issue 29). Deterministic: the same ``events`` and ``seed`` give the same list, byte for byte.

    long_transcript(2000) ─▶ 2,000 events: about 400 suggestion cards each with its outcome,
        100 tables (an outcome's result: a list of row dicts or the frames domain's
        {columns, rows, total_rows}; or an inform with render="table"), up to 50 rows each,
        20 charts (an outcome's result {"vega_lite": spec, "chart": {src: a real PNG as a
        data: URL at twice the CSS pixels, 20-60 KB, copy: one at one pixel per CSS pixel,
        about 0.4 of its size as vl-convert's are, width, height, alt}}: as the widget
        holds it once drawn), and prose of every kind: the person's words, sent messages
        and replies, informs with markdown, asks with their answers, acknowledgements,
        declares, phatic signals
    long_session_file(path, 2000) ─▶ the same conversation as a session file
        (``ChatWidget(..., session=path)`` opens it): the runtime's snapshot, the widget's own
        entries in its surface, no chart images (the widget draws them again, off the loop,
        from their specs, as for every session), signed with this user's Jupyter secret
        (``save_snapshot``, runtime/_trust.py) so it opens trusted
    chart_sources(transcript) ─▶ the PNG data: URLs of its charts (to count them in a file)
    copy_sources(transcript)  ─▶ their copies' (one pixel per CSS pixel: the static copy's)
    item_needles(transcript)  ─▶ per item the widget draws, a text find-in-page must find
    widget_cells(2000)        ─▶ the notebook cells that show it (after widget_scenario.py's)

Proportions are kept at every length (a card every 5 events, a table every 20, a chart every
100), and the conversation is made of whole requests (every card has its outcome), topped up
with prose to exactly ``events``.

    >>> events = long_transcript(200)
    >>> len(events), sum(e["type"] == "suggestion" for e in events)
    (200, 40)
    >>> len(chart_sources(events)), len(copy_sources(events)), long_transcript(200) == events
    (2, 2, True)
"""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path
from typing import Any
from unittest import mock

from .chart_image import png  # (exported here too)

__all__ = ["chart_sources", "copy_sources", "item_needles", "long_session_file",
           "long_transcript", "png", "widget_cells"]

#: One in how many events is a card, a table, a chart.
CARD_EVERY, TABLE_EVERY, CHART_EVERY = 5, 20, 100
#: A chart's size in CSS pixels (the PNG has twice as many, as the widget draws them).
CHART_WIDTH, CHART_HEIGHT = 320, 200
#: A chart copy's grain, per its image's: it then weighs about 0.4 of it, as vl-convert's do
#: (measured: a line chart 37 KB at twice the CSS pixels, 15.5 KB at one per CSS pixel).
COPY_NOISE = 1.6

_FRAMES = ["sales", "customers", "orders", "returns", "stores", "web_visits"]
_COLUMNS = ["region", "price", "units", "discount", "channel", "month", "margin", "rating",
            "age", "basket", "city", "segment"]
_READ_ONLY = ["describe", "head", "value-counts", "correlation", "missing-values", "group-by"]
_MUTATING = ["filter-rows", "drop-column", "fill-missing", "add-column", "rename-column",
             "sort-rows", "cast-column", "dedupe-rows"]
_PROSE = ("the median basket is higher in the north, and discounts above 20% barely move "
          "units; returns cluster in two stores, mostly on weekends; the price column has a "
          "long right tail so I would look at it on a log scale before comparing channels; "
          "missing ratings are not random: they come from the web channel in spring")
_WORDS = _PROSE.split(" ")


class _Session:
    """The conversation as it is generated: its events and how many of each kind so far."""

    def __init__(self, events: int, seed: int) -> None:
        self.target = events
        self.seed = seed
        self.rng = random.Random(seed)
        self.events: list[dict[str, Any]] = []
        self.cards = self.tables = self.charts = self.asks = self.rounds = 0

    def words(self, low: int, high: int) -> str:
        start = self.rng.randrange(len(_WORDS))
        count = self.rng.randint(low, high)
        return " ".join(_WORDS[(start + n) % len(_WORDS)] for n in range(count))

    def markdown(self) -> str:
        kind = self.rng.randrange(4)
        head = self.words(8, 20).capitalize() + "."
        if kind == 0:
            return head
        if kind == 1:
            return (f"**{self.words(2, 4).capitalize()}**: {head}\n\n"
                    + "\n".join(f"- {self.words(4, 10)}" for _ in range(self.rng.randint(2, 5))))
        if kind == 2:
            column = self.rng.choice(_COLUMNS)
            return f"{head} The column `{column}` is *skewed*; see [the docs](https://pandas.pydata.org)."
        return (f"## {self.words(2, 5).capitalize()}\n\n{head}\n\n1. {self.words(5, 9)}\n"
                f"2. {self.words(5, 9)}\n\n> {self.words(6, 12)}")

    def rows(self, count: int) -> list[dict[str, Any]]:
        columns = self.rng.sample(_COLUMNS, self.rng.randint(3, 7))
        return [{c: (round(self.rng.uniform(0, 1000), 3) if n % 2 else
                     f"{c}-{self.rng.randrange(40)}") for n, c in enumerate(columns)}
                for _ in range(count)]

    def frame(self) -> str:
        return self.rng.choice(_FRAMES)

    def add(self, event: dict[str, Any]) -> int:
        self.events.append(event)
        return len(self.events) - 1

    def due(self, every: int, made: int) -> bool:
        """Whether one more of a kind made once every ``every`` events is due by now."""
        return made < (len(self.events) + 12) / every

    def result(self, action: str) -> dict[str, Any]:
        """A done outcome's fields: a chart, a table or a few fields, as the kinds are due."""
        if self.due(CHART_EVERY, self.charts):
            self.charts += 1
            values = self.rows(self.rng.randint(12, 50))
            x, y = list(values[0])[:2]
            noise = self.rng.uniform(0.15, 0.45)
            image = png(CHART_WIDTH * 2, CHART_HEIGHT * 2, self.rng, noise=noise)
            # the copy's own generator (of the seed and the chart): the rest stays as it was
            own = random.Random(f"{self.seed}: chart copy {self.charts}")
            flat = png(CHART_WIDTH, CHART_HEIGHT, own, noise=noise * COPY_NOISE)
            alt = f"Bar chart of {y} by {x}"
            spec = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
                    "title": alt, "data": {"values": values}, "mark": "bar",
                    "encoding": {"x": {"field": x, "type": "nominal"},
                                 "y": {"field": y, "type": "quantitative"}}}
            src, copy = ("data:image/png;base64," + base64.b64encode(one).decode("ascii")
                         for one in (image, flat))
            return {"action": "plot", "result": {
                "vega_lite": spec, "alt": alt,
                "chart": {"src": src, "width": CHART_WIDTH, "height": CHART_HEIGHT, "alt": alt,
                          "copy": copy}}}
        if self.due(TABLE_EVERY, self.tables):
            self.tables += 1
            count = self.rng.randint(5, 50)
            if self.tables % 2:
                return {"result": self.rows(count)}
            rows = self.rows(count)
            return {"result": {"frame": self.frame(), "table": {
                "columns": list(rows[0]), "index": list(range(count)),
                "rows": [list(r.values()) for r in rows],
                "total_rows": count + self.rng.randrange(0, 5000)}}}
        if action in _MUTATING:
            return {"result": {"frame": self.frame(), "rows": self.rng.randrange(50, 90000),
                               "columns": self.rng.randint(3, 20)}}
        return {"result": {"frame": self.frame(), "summary": self.words(4, 12)}}

    def card(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """A suggestion and its outcome (done mostly; dismissed, edited, failed, superseded)."""
        self.cards += 1
        sid = f"sg-{self.cards}"
        action = self.rng.choice(_READ_ONLY + _MUTATING)
        frame = self.frame()
        payload = {"frame": frame, "column": self.rng.choice(_COLUMNS)}
        if action == "filter-rows":
            payload["where"] = [{"column": self.rng.choice(_COLUMNS), "op": ">",
                                 "value": self.rng.randrange(100)}]
        preview = f"{action.replace('-', ' ').capitalize()} on {frame}.{payload['column']}"
        suggestion = {"type": "suggestion", "id": sid, "action": action,
                      "text": self.words(6, 16).capitalize() + "?", "payload": payload,
                      "preview": preview, "destructive": action == "drop-column",
                      "mutates": action in _MUTATING}
        if action in _MUTATING:
            suggestion["allowable"] = True
        roll = self.rng.random()
        outcome: dict[str, Any] = {"type": "outcome", "id": sid, "action": action,
                                   "status": "done", "preview": preview}
        if roll < 0.08:
            outcome.update(status="dismissed", reason=self.words(4, 10))
        elif roll < 0.12:
            outcome.update(status="failed", error=f"{frame} has no column 'x{self.cards}'",
                           code="no-column", field="column", hint="choose one of the columns")
        elif roll < 0.15:
            outcome["status"] = "superseded"
        else:
            outcome.update(self.result(action))
            if outcome.get("action") == "plot":
                suggestion["action"] = "plot"
                suggestion["mutates"] = False
                suggestion.pop("allowable", None)
            if roll < 0.22:
                outcome["edited"] = True
        return suggestion, outcome

    def reply_text(self, shown: list[dict[str, Any]]) -> str:
        """The agent's reply that made ``shown``, as DIAL."""
        parts = []
        for event in shown:
            kind = event["type"]
            if kind == "inform":
                render = f' render="{event["render"]}"' if "render" in event else ""
                body = json.dumps(event["payload"]) if "payload" in event else ""
                parts.append(f"<dial-inform{render}>{event['text']}"
                             + (f"<dial-payload>{body}</dial-payload>" if body else "")
                             + "</dial-inform>")
            elif kind == "suggestion":
                parts.append(f'<dial-suggest id="{event["id"]}" action="{event["action"]}">'
                             f"{event['text']}<dial-payload>{json.dumps(event['payload'])}"
                             "</dial-payload></dial-suggest>")
            elif kind == "ask":
                parts.append(f'<dial-ask id="{event["id"]}" response-type="text">'
                             f"{event['text']}</dial-ask>")
        return '<dial version="0.1" actor="agent">' + "".join(parts) + "</dial>"

    def request(self) -> list[dict[str, Any]]:
        """One request of the person's, whole: their words, the agent's reply with prose and
        cards (or a question, answered), the outcomes sent back, the agent's answer."""
        self.rounds += 1
        out: list[dict[str, Any]] = [{"type": "person", "text": self.words(4, 14)}]
        out.append({"type": "sent", "turn": 1,
                    "message": f'<context frames="{len(_FRAMES)}"/>\n\n{out[0]["text"]}'})
        shown: list[dict[str, Any]] = [{"type": "inform", "text": self.markdown(),
                                        "act": "inform"}]
        if self.rounds % 9 == 0:
            shown.append({"type": "phatic", "signal": "thinking"})
        if self.rounds % 7 == 0:
            shown.append({"type": "declare", "id": None, "key": f"focus-{self.rounds}",
                          "value": {"frame": self.frame(), "column": self.rng.choice(_COLUMNS)}})
        if self.due(TABLE_EVERY, self.tables) and self.rounds % 3 == 0:
            self.tables += 1
            shown.append({"type": "inform", "text": self.words(3, 8).capitalize() + ":",
                          "act": "inform", "render": "table",
                          "payload": self.rows(self.rng.randint(5, 50))})
        outcomes = []
        for _ in range(2 if self.rounds % 3 == 0 else 3):
            suggestion, outcome = self.card()
            shown += [suggestion, outcome]
            outcomes.append(outcome)
        reply = {"type": "reply", "turn": 1, "text": self.reply_text(shown)}
        out += [reply, *shown]
        if self.rounds % 5 == 0:  # a question, answered
            self.asks += 1
            ask = {"type": "ask", "id": f"ask-{self.asks}", "text": self.words(5, 10) + "?",
                   "response_type": "text", "options": []}
            out.append(ask)
            out.append({"type": "person", "text": self.words(2, 8),
                        "answer_to": len(self.events) + len(out) - 1})
        from dial_notebook import outcome_reply

        # what the runtime reports: its own events, without the chart the widget drew
        out.append({"type": "sent", "turn": 2, "message": outcome_reply(
            [{k: v for k, v in _runtime_event(o).items() if k != "type"} for o in outcomes])})
        last = ({"type": "inform", "text": self.words(4, 10), "act": "acknowledge",
                 "of": outcomes[0]["id"]} if self.rounds % 4 == 0 else
                {"type": "inform", "text": self.markdown(), "act": "inform"})
        out += [{"type": "reply", "turn": 2, "text": self.reply_text([last])}, last]
        return out

    def prose(self) -> dict[str, Any]:
        if len(self.events) % 2:
            return {"type": "person", "text": self.words(3, 10)}
        return {"type": "inform", "text": self.markdown(), "act": "inform"}

    def make(self) -> list[dict[str, Any]]:
        while True:
            before = (len(self.events), self.cards, self.tables, self.charts, self.asks,
                      self.rounds, self.rng.getstate())
            request = self.request()
            if len(self.events) + len(request) > self.target:  # undo it: prose to the end
                (_, self.cards, self.tables, self.charts, self.asks, self.rounds,
                 state) = before
                self.rng.setstate(state)
                break
            self.events += request
        while len(self.events) < self.target:
            self.add(self.prose())
        return self.events


def long_transcript(events: int, *, seed: int = 0) -> list[dict[str, Any]]:
    """A ChatWidget's transcript of an analysis session of exactly ``events`` events (see the
    header); the same arguments give the same list.

        >>> [e["type"] for e in long_transcript(4)]
        ['inform', 'person', 'inform', 'person']
    """
    return _Session(events, seed).make()


def chart_sources(transcript: list[dict[str, Any]], key: str = "src") -> list[str]:
    """The data: URLs of the chart images in ``transcript`` (informs' and outcomes'); ``key``
    "copy": of their copies (``copy_sources``)."""
    found = []
    for event in transcript:
        result = event.get("result")
        chart = event.get("chart") or (result.get("chart") if isinstance(result, dict) else None)
        if isinstance(chart, dict) and isinstance(chart.get(key), str):
            found.append(chart[key])
    return found


def copy_sources(transcript: list[dict[str, Any]]) -> list[str]:
    """The data: URLs of the charts' copies in ``transcript``: one pixel per CSS pixel, what
    the notebook's static copy shows (``chart_sources``: the images, twice as many pixels).

        >>> len(copy_sources(long_transcript(200)))
        2
    """
    return chart_sources(transcript, "copy")


def _plain(text: str) -> str:
    """A stretch of ``text`` that reads the same once its markdown is drawn ('' if none)."""
    for line in text.splitlines():
        line = line.lstrip("#->0123456789. ")
        cut = min([line.index(c) for c in "*`[" if c in line] or [len(line)])
        found = line[:cut].strip(" :")[:30].strip()
        if len(found) >= 8:
            return found
    return ""


def item_needles(transcript: list[dict[str, Any]]) -> list[str]:
    """Per item the widget draws (``widget._items``, the kinds it draws as items), a piece of
    text find-in-page must find in its node ('' for items with no text of the agent's or the
    person's: a status line).

        >>> item_needles([{"type": "person", "text": "hi there, all good"}])
        ['hi there, all good']
    """
    from dial_notebook.widget._items import COPY_KINDS, transcript_items

    needles = []
    for item in transcript_items(transcript, {}):
        if item.kind in COPY_KINDS:
            continue
        text = item.event.get("text")
        needles.append(_plain(text) if isinstance(text, str) and item.kind != "status" else "")
    return needles


def widget_cells(events: int, *, seed: int = 0, session: str | None = None) -> list[str]:
    """Notebook cells (after tests/widget_scenario.py's): one that makes the transcript
    (``long_transcript(events)``), one that shows a ChatWidget holding it, or opening the
    session file ``session`` instead; ``chat`` is the widget."""
    root = str(Path(__file__).resolve().parents[1])
    made = f"session={session!r}" if session else "transcript=events"
    return [f"import sys\nsys.path.insert(0, {root!r})\n"
            "from dial_notebook.widget import ChatWidget\n"
            "from tests.long_conversation import long_transcript\n"
            f"events = long_transcript({events}, seed={seed})",
            "chat = ChatWidget(agent=RuleAgent(), domain=notes_domain(), title='A long "
            f"analysis', {made})\nchat"]


def _runtime_event(event: dict[str, Any]) -> dict[str, Any]:
    """The runtime's event of the widget's copy: without the chart the widget drew."""
    result = event.get("result")
    if event.get("type") == "outcome" and isinstance(result, dict) and "chart" in result:
        return {**event, "result": {k: v for k, v in result.items() if k != "chart"}}
    return {k: v for k, v in event.items() if k != "chart"}


def long_session_file(path: str | Path, events: int, *, seed: int = 0,
                      data_dir: str | Path | None = None) -> Path:
    """Write ``long_transcript(events, seed=seed)`` as a session file at ``path``, signed by
    this user (it opens trusted with ``ChatWidget(..., session=path)``); returns the path.
    ``data_dir``: sign with the secret of that Jupyter data folder (a test server's)."""
    if data_dir is not None:
        with mock.patch.dict("os.environ", {"JUPYTER_DATA_DIR": str(data_dir)}):
            return long_session_file(path, events, seed=seed)
    from dial_notebook.runtime import save_snapshot
    from dial_notebook.widget._contract import WIDGET_ENTRIES
    from dial_notebook.widget._session import surface_of

    transcript = long_transcript(events, seed=seed)
    runtime = [_runtime_event(e) for e in transcript if e["type"] not in WIDGET_ENTRIES]
    counts = {"suggestions": sum(e["type"] == "suggestion" for e in runtime),
              "asks": sum(e["type"] == "ask" for e in runtime), "executes": 0,
              "delegations": 0, "replies": sum(e["type"] == "reply" for e in runtime)}
    snapshot = {"format": "dial-notebook/conversation", "version": 1,
                "saved_at": "2026-12-01T17:00:00+00:00", "full_dial": True,
                "transcript": runtime, "owed": {"outcomes": [], "words": []}, "context": {},
                "presence": {}, "ids": counts, "running": [], "say": None, "pending": None,
                "surface": surface_of(transcript, title="A long analysis")}
    return save_snapshot(snapshot, Path(path))
