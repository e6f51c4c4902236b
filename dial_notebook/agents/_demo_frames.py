"""The demo brain for the dataframes domain: plain EDA requests become DIAL suggestions.

    "list frames"                            ─▶ list-frames      (read-only: runs at once)
    "describe sales"                         ─▶ describe         (read-only)
    "show sales" / "head of sales"           ─▶ head             (read-only)
    "count region in sales"                  ─▶ value-counts     (read-only)
    "correlation in sales"                   ─▶ correlation      (read-only)
    "plot price against size"                ─▶ plot             (read-only; scatter, line by
    "histogram of price"                                          date, bar or hist if named;
                                                                  "… as vega-lite": a spec)
    "filter sales where region is north"     ─▶ filter-rows      (conditions joined by 'and')
    "add a column revenue = price * units"   ─▶ add-column
    "sort sales by price descending"         ─▶ sort
    "drop column size from sales"            ─▶ drop-columns     (destructive)
    "total units by region"                  ─▶ group-aggregate  (into a new frame)

A frame not named is the one last used, or the only one; with several it asks which. A value
is matched to the column's own spelling ("north" → "North"). Read-only results come back as
done outcomes and are shown as tables or the chart (a chart the kernel cannot draw, its result
``"drawn": false``, is said to be missing and why, never "above"); a change is reported with
the frame's new shape and how to undo it (``frames.undo_last()``, named as the notebook has it).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ..dial import Inform
from . import _saved
from ._demo_base import Arg, Brain, Elements, Then, ack
from ._demo_columns import rows_said as _rows
from ._demo_columns import text_values, type_of
from ._reachable import undo_hint

_OPS = (  # longest first: "is not" before "is"
    (r">=|at least|no less than", ">="), (r"<=|at most|no more than", "<="),
    (r"!=|is not|isn't|not equal to", "!="),
    (r">|above|over|greater than|more than|after", ">"),
    (r"<|below|under|less than|fewer than|before", "<"),
    (r"contains|includes|has", "contains"), (r"==|=|is|equals|equal to", "=="),
)
_FUNCS = {"total": "sum", "sum": "sum", "average": "mean", "mean": "mean", "median": "median",
          "count": "count", "number": "count", "max": "max", "maximum": "max", "min": "min",
          "minimum": "min"}


class FramesBrain(Brain):
    """Understands plain EDA requests about the frames of a ``DataFramesDomain``."""

    prefix = "frame"
    kind = "frames"
    continuations: ClassVar[dict[str, tuple[Arg, ...]]] = {
        "_frame_chosen": (str,), "_column_for_plot": (str, str, str),
        "_column_for_histogram": (str,), "_column_for_filter": (str, str, str),
        "_column_for_counts": (str,)}
    state_keys = (*Brain.state_keys, "current")
    examples = (
        "describe sales",
        "filter sales where region is north",
        "add a column revenue = price * units",
        "plot price against size (or: histogram of price)",
        "total units by region",
        "sort sales by price descending · show sales · list frames",
    )

    def __init__(self, domain: Any) -> None:
        super().__init__(domain)
        self.current: str | None = None

    # -- saving ---------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """``Brain.state()`` and ``current``: the frame last used (or None)."""
        return {**super().state(), "current": self.current}

    def read_state(self, saved: _saved.Saved) -> dict[str, Any]:
        return {**super().read_state(saved),
                "current": saved.string("current", null=True, most=1000)}

    def load_state(self, state: dict[str, Any]) -> None:
        super().load_state(state)
        self.current = state["current"]

    # -- frames and columns ---------------------------------------------------------------

    def _frames(self) -> dict[str, Any]:
        return dict(self.domain.frames())

    def _columns(self, frame: str) -> list[str]:
        found = self._frames().get(frame)
        return [] if found is None else [str(c) for c in found.columns]

    def _named_frame(self, words: str) -> str | None:
        frames = self._frames()
        for name in sorted(frames, key=len, reverse=True):
            if re.search(rf"\b{re.escape(name)}\b", words, re.IGNORECASE):
                return name
        return None

    def _with_frame(self, words: str, go: Any) -> Elements:
        """``go(frame)`` for the frame the words name, or the current / only one; else ask
        (the answer becomes the current frame, and the words are read again)."""
        frames = self._frames()
        name = self._named_frame(words)
        if name is None and self.current in frames:
            name = self.current
        if name is None and len(frames) == 1:
            name = next(iter(frames))
        if name is not None:
            self.current = name
            return go(name)
        if not frames:
            return [Inform(text="There are no DataFrames in the notebook yet: create one "
                                "(e.g. sales = pd.read_csv(...)) and ask again.")]
        options = [(f, f) for f in frames]
        return [self.ask("Which data frame?", options, Then("_frame_chosen", (words,)))]

    def _frame_chosen(self, chosen: str, words: str) -> Elements:
        """The answer to "which data frame?": ``words`` again, on that frame."""
        if chosen in self._frames():
            self.current = chosen
        return self.respond(words)

    def _column(self, frame: str, said: str) -> str | None:
        said = said.strip().strip("\"'`").lower()
        for column in self._columns(frame):
            if column.lower() == said:
                return column
        return None

    def _value(self, frame: str, column: str, said: str) -> Any:
        said = said.strip().strip("\"'`")
        try:
            number = float(said)
        except ValueError:
            pass
        else:
            return int(number) if number.is_integer() and "." not in said else number
        for value in self._texts(frame, column):
            if str(value).lower() == said.lower():
                return str(value)
        return said

    def _texts(self, frame: str, column: str) -> list[Any]:
        return text_values(self.domain, frame, column, self._frames()[frame][column])

    def _ask_column(self, frame: str, said: str, then: Then) -> Elements:
        options = [(c, c) for c in self._columns(frame)]
        return [self.ask(f"{frame} has no column '{said}'. Which column did you mean?",
                         options, then)]

    # the answers to _ask_column: the column meant, then what the request was

    def _column_for_plot(self, column: str, frame: str, low: str, said: str) -> Elements:
        return self._plot(frame, low.replace(said, column.lower()))

    def _column_for_histogram(self, column: str, frame: str) -> Elements:
        return self._plot(frame, f"histogram of {column}")

    def _column_for_filter(self, column: str, frame: str, text: str, said: str) -> Elements:
        return self._filter(frame, re.sub(rf"\b{re.escape(said)}\b", column, text, count=1))

    def _column_for_counts(self, column: str, frame: str) -> Elements:
        return self._counts(frame, column)

    # -- requests -------------------------------------------------------------------------

    def respond(self, words: str) -> Elements:
        text = words.strip()
        low = text.lower()
        if not text:
            return []
        if re.match(r"^(hi|hello|hey|help|what can you do)\b", low):
            return self.help("Hello!")
        if re.search(r"\bundo\b", low):
            return [Inform(text="I can't undo from here: click Undo on the change's card, or "
                                f"run {undo_hint(self.domain)} in a cell to take back the "
                                "latest change.")]
        if re.search(r"\b(list|which|what)\b.*\b(frames|data ?sets|dataframes|data)\b", low):
            return [self.suggest("list-frames", {}, "Let me list the data frames.")]
        plot = re.search(r"\b(plot|chart|graph|scatter|histogram|hist)\b", low)
        if plot:
            return self._with_frame(text, lambda frame: self._plot(frame, text))
        if re.search(r"\b(filter|keep|only|where)\b", low):
            return self._with_frame(text, lambda frame: self._filter(frame, text))
        added = re.search(r"\b(?:add|create|compute|new)\b.*?\bcolumn\s+[`\"']?(\w+)[`\"']?\s*"
                          r"(?:=|as|:)\s*(.+)$", text, re.IGNORECASE)
        if added:
            column, expression = added.group(1), added.group(2).strip().rstrip(".")
            expression = re.sub(rf"\s+(?:in|to)\s+{re.escape(self._named_frame(text) or '~')}$",
                                "", expression)
            return self._with_frame(text, lambda frame: [self.suggest(
                "add-column", {"frame": frame, "column": column, "expression": expression},
                f"Add the column {column} = {expression} to {frame}?")])
        if re.search(r"\bsort|order\b", low):
            return self._with_frame(text, lambda frame: self._sort(frame, text))
        if re.search(r"\b(drop|remove|delete)\b.*\bcolumns?\b", low):
            return self._with_frame(text, lambda frame: self._drop(frame, text))
        if re.search(r"\bby\b", low) and re.search("|".join(_FUNCS), low):
            return self._with_frame(text, lambda frame: self._group(frame, text))
        if re.search(r"\b(correlat\w*)\b", low):
            return self._with_frame(text, lambda frame: [self.suggest(
                "correlation", {"frame": frame}, f"Correlate the numeric columns of {frame}.")])
        counts = re.search(r"\b(?:count|counts|value counts of|how many)\s+(?:of\s+)?(?:each\s+)?"
                           r"(\w+)", low)
        if counts:
            return self._with_frame(text, lambda frame: self._counts(frame, counts.group(1)))
        if re.search(r"\b(describe|summar\w*|stats|statistics|overview)\b", low):
            return self._with_frame(text, lambda frame: [self.suggest(
                "describe", {"frame": frame}, f"Summary statistics of {frame}.")])
        if re.search(r"\b(show|head|first|peek|look at)\b", low):
            number = re.search(r"\b(\d+)\b", low)
            n = min(int(number.group(1)), 50) if number else 5
            return self._with_frame(text, lambda frame: [self.suggest(
                "head", {"frame": frame, "n": max(n, 1)}, f"The first rows of {frame}.")])
        return self.help("I didn't catch that.")

    def _plot(self, frame: str, text: str) -> Elements:
        low = text.lower()
        pair = re.search(r"(?:plot|chart|graph|scatter)\s+(?:of\s+)?(\w+)\s+(?:against|vs\.?|"
                         r"versus|by|over)\s+(\w+)", low)
        single = re.search(r"(?:histogram|hist|distribution)\s+(?:of\s+)?(\w+)", low)
        if pair:
            y, x = pair.group(1), pair.group(2)
            for said in (y, x):
                if self._column(frame, said) is None:
                    return self._ask_column(frame, said, Then("_column_for_plot",
                                                              (frame, low, said)))
            y, x = self._column(frame, y), self._column(frame, x)
            kind = "bar" if "bar" in low else "line" if "line" in low else "scatter"
            over = type_of(self._frames()[frame][x]).lower()
            if kind == "scatter" and ("date" in over or "timestamp" in over):
                kind = "line"
            spec = {"frame": frame, "kind": kind, "x": x, "y": y}
            if "vega" in low:  # "… as vega-lite": a spec the widget draws
                spec["format"] = "vega-lite"
            return [self.suggest("plot", spec, f"A {kind} chart of {y} against {x}.")]
        if single:
            said = single.group(1)
            column = self._column(frame, said)
            if column is None:
                return self._ask_column(frame, said, Then("_column_for_histogram", (frame,)))
            return [self.suggest("plot", {"frame": frame, "kind": "hist", "x": column},
                                 f"A histogram of {column}.")]
        return [Inform(text="Tell me what to plot, e.g. 'plot price against size' or "
                            "'histogram of price'.")]

    def _filter(self, frame: str, text: str) -> Elements:
        match = re.search(r"\bwhere\b(.+)$", text, re.IGNORECASE) or re.search(
            r"\b(?:keep|only)\b(?:\s+rows)?(?:\s+(?:of|in)\s+\w+)?\s+(?:with|where)?(.+)$",
            text, re.IGNORECASE)
        if not match:
            return [Inform(text="Say which rows to keep, e.g. 'filter sales where region is "
                                "north and units > 10'.")]
        clause = match.group(1)
        into = re.search(r"\s+into\s+(\w+)\s*$", clause, re.IGNORECASE)
        if into:
            clause = clause[:into.start()]
        ops = "|".join(rf"\s*(?:{pattern})\s*" if pattern[0] in "<>=!" else
                       rf"\s+(?:{pattern})\s+" for pattern, _ in _OPS)
        where = []
        for part in re.split(r"\s+and\s+", clause.strip().rstrip("."), flags=re.IGNORECASE):
            found = re.match(rf"^\s*(\w+)({ops})(.+)$", part, re.IGNORECASE)
            if not found:
                return [Inform(text=f"I couldn't read the condition '{part.strip()}': write "
                                    "it like 'region is North' or 'units > 10'.")]
            said, op_text, value = found.group(1), found.group(2).strip().lower(), found.group(3)
            column = self._column(frame, said)
            if column is None:
                return self._ask_column(frame, said, Then("_column_for_filter",
                                                          (frame, text, said)))
            op = next(o for pattern, o in _OPS if re.fullmatch(pattern, op_text))
            where.append({"column": column, "op": op, "value": self._value(frame, column, value)})
        payload: dict[str, Any] = {"frame": frame, "where": where}
        if into:
            payload["into"] = into.group(1)
        shown = " and ".join(f"{c['column']} {c['op']} {c['value']!r}" for c in where)
        return [self.suggest("filter-rows", payload, f"Keep the rows of {frame} where {shown}?")]

    def _sort(self, frame: str, text: str) -> Elements:
        match = re.search(r"\bby\s+([\w\s,]+?)(?:\s+(asc\w*|desc\w*|high\w*|low\w*))?\s*$",
                          text, re.IGNORECASE)
        said = [s for s in re.split(r"\s*,\s*|\s+and\s+", match.group(1)) if s] if match else []
        columns = [self._column(frame, s) for s in said]
        if not said or None in columns:
            return [Inform(text=f"Sort {frame} by which column? The columns are: "
                                f"{', '.join(self._columns(frame))}.")]
        descending = bool(match and match.group(2) and match.group(2).lower()[:4] in (
            "desc", "high"))
        payload = {"frame": frame, "by": columns, "ascending": not descending}
        return [self.suggest("sort", payload, f"Sort {frame} by {', '.join(map(str, columns))}"
                                              f"{' (descending)' if descending else ''}?")]

    def _drop(self, frame: str, text: str) -> Elements:
        match = re.search(r"\bcolumns?\s+([\w\s,]+?)(?:\s+(?:from|in)\s+\w+)?\s*$", text,
                          re.IGNORECASE)
        said = [s for s in re.split(r"\s*,\s*|\s+and\s+", match.group(1)) if s] if match else []
        columns = [self._column(frame, s) for s in said]
        if not said or None in columns:
            return [Inform(text=f"Drop which columns of {frame}? They are: "
                                f"{', '.join(self._columns(frame))}.")]
        return [self.suggest("drop-columns", {"frame": frame, "columns": columns},
                             f"Drop {', '.join(map(str, columns))} from {frame}?")]

    def _group(self, frame: str, text: str) -> Elements:
        low = text.lower()
        match = re.search(rf"\b({'|'.join(_FUNCS)})\s+(?:of\s+)?(\w+)\s+(?:per|by|for each)\s+"
                          r"(\w+)", low)
        if not match:
            return [Inform(text="Say it like 'total units by region' or 'average price by "
                                "product'.")]
        func, value, key = _FUNCS[match.group(1)], match.group(2), match.group(3)
        column, by = self._column(frame, value), self._column(frame, key)
        if column is None or by is None:
            return [Inform(text=f"I couldn't find those columns in {frame}: "
                                f"{', '.join(self._columns(frame))}.")]
        into = f"{frame}_by_{by}"
        payload = {"frame": frame, "by": [by], "aggregations": [{"column": column, "func": func}],
                   "into": into}
        return [self.suggest("group-aggregate", payload,
                             f"The {func} of {column} for each {by}, as a new frame {into}.")]

    def _counts(self, frame: str, said: str) -> Elements:
        column = self._column(frame, said)
        if column is None:
            return self._ask_column(frame, said, Then("_column_for_counts", (frame,)))
        return [self.suggest("value-counts", {"frame": frame, "column": column},
                             f"How often each {column} occurs in {frame}.")]

    # -- reactions ------------------------------------------------------------------------

    def on_done(self, outcome: dict[str, Any]) -> Elements:
        action, result = outcome.get("action"), outcome.get("result") or {}
        if "table" in result:
            table = result["table"]
            rows = table.get("rows", [])
            total = table.get("total_rows", len(rows))
            label = {"describe": f"Summary of {result.get('frame')}",
                     "head": f"The first {len(rows)} of {total} rows of {result.get('frame')}",
                     "value-counts": f"Counts of {result.get('column')} in {result.get('frame')}",
                     "correlation": f"Correlation ({result.get('method')}) in "
                                    f"{result.get('frame')}"}.get(str(action), "")
            if action == "group-aggregate":
                label = f"Made {result.get('frame')} ({_rows(result.get('rows'))})"
            # the table is on the card (the domain's own result): not repeated here
            return [ack(outcome, f"{label}: on the card above." if label else "Here it is.")]
        if action == "plot" and result.get("drawn") is False:  # never "above" when it is not
            why = str(result.get("why") or "the chart renderer could not draw it").rstrip(".")
            return [ack(outcome, f"The chart could not be drawn: {why}.")]
        if action == "plot" and result.get("vega_lite"):
            return [ack(outcome, "Here is the chart above, drawn from its Vega-Lite spec.")]
        if action == "plot" and result.get("media"):
            # the chart is on the card: the agent's copy of it is only a placeholder
            alt = result["media"][0].get("alt", "the chart")
            return [ack(outcome, f"Here is the chart above: {alt[:1].lower() + alt[1:]}.")]
        if action == "list-frames":
            frames = result.get("frames") or []
            lines = "\n".join(f"{f['name']}: {_rows(f['rows'])}, columns "
                              f"{', '.join(f['columns'])}" for f in frames)
            return [ack(outcome, f"{len(frames)} data frame(s):\n{lines}" if frames else
                         "There are no DataFrames in the notebook yet.")]
        if "rows" in result:
            edited = " (with your edits)" if outcome.get("edited") else ""
            before = result.get("rows_before")
            change = f", from {before}" if before is not None else ""
            column = f" It has the new column {result['column']} ({result.get('dtype')})." \
                if action == "add-column" else ""
            return [ack(outcome, f"Done{edited}: {result.get('frame')} now has "
                                 f"{_rows(result.get('rows'))}{change}.{column} "
                                 f"Undo on its card (or {undo_hint(self.domain)}) takes it "
                                 "back.")]
        return [ack(outcome, "Done.")]

    def on_invalid(self, outcome: dict[str, Any]) -> Elements:
        action, payload = self.proposed.get(str(outcome.get("id")), (None, {}))
        frame = payload.get("frame")
        if outcome.get("code") == "unknown-column" and frame in self._frames():
            return [Inform(text=f"{outcome.get('hint')}. The columns of {frame} are: "
                                f"{', '.join(self._columns(frame))}. Which did you mean?")]
        if outcome.get("code") == "invalid-expression" and action == "add-column":
            return [Inform(text=f"I can't compute that column: {outcome.get('hint')}. Column "
                                "arithmetic only, e.g. price * units.")]
        return super().on_invalid(outcome)
