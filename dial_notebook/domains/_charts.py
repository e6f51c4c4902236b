"""Charts for the dataframes domain's ``plot``: a PNG the widget can show, as a data URL, or a
Vega-Lite spec with its data inline, which the widget draws in the kernel.

``chart`` draws with matplotlib's object API on the Agg canvas (``Figure`` +
``FigureCanvasAgg``): no pyplot, so the notebook's own backend and figures are left alone. The
result is

    {"media": [{"src": "data:image/png;base64,…", "alt": "Scatter of units against price"}]}

(matplotlib is part of the ``data`` extra; without it ``plot`` fails with a hint to install it.)

``vegalite_spec`` needs nothing but pandas: the chart as a Vega-Lite spec whose rows are inline
``values`` (at most ``MAX_SPEC_ROWS``, sampled, and the subtitle says so), with the columns
named ``x`` and ``y`` in the data (a column name with a dot or bracket is a path to Vega-Lite)
and their real names as the axis titles. A result ``{"vega_lite": spec}`` is drawn on the card
(``dial_notebook/widget/_vegalite.py``). When this kernel cannot draw it (``not_drawn``: the
renderer is not installed), the result says so, ``"drawn": false`` and ``"why"``, so that the
agent is never told of a chart that is not there. A chart that is merely late (drawn off the
loop, "Drawing the chart…") claims nothing either way; when its drawing then fails, the agent
is told with the next message (``Conversation.chart_not_drawn``, runtime/_told_later.py).
"""

from __future__ import annotations

import base64
import importlib.util
import io
import json
from typing import Any

from ._errors import ActionError
from ._frames import INSTALL

#: Chart kinds, and the largest number of points drawn (a scatter beyond it is sampled).
KINDS = ("line", "bar", "scatter", "hist")
MAX_POINTS = 20_000
MAX_BARS = 50
#: Rows a Vega-Lite spec carries inline (the widget draws no more).
MAX_SPEC_ROWS = 5_000
VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
#: What installs the Vega-Lite renderer (it is in the ``data`` extra too).
RENDERER_INSTALL = 'pip install "dial-notebook[data]"'


def not_drawn() -> dict[str, Any]:
    """What a Vega-Lite result adds when this kernel cannot draw it: ``{"drawn": False,
    "why": …}``; ``{}`` when it can (it may still be drawn late, off the loop).

        >>> sorted(not_drawn()) in ([], ["drawn", "why"])
        True
    """
    try:
        found = importlib.util.find_spec("vl_convert") is not None
    except (ImportError, ValueError):  # a module entry that is None, or a broken one
        found = False
    if found:
        return {}
    return {"drawn": False,
            "why": f"vl-convert-python is not installed ({RENDERER_INSTALL} draws it)"}


def chart(frame: Any, *, kind: str, x: str, y: str | None, title: str, bins: int) -> dict[str, Any]:
    """The chart of ``frame`` as ``{"media": [{"src", "alt"}]}``."""
    if kind == "hist":
        import numpy

        try:
            values = frame[x].dropna().to_numpy(dtype=float)
        except (TypeError, ValueError):  # dates, text: matplotlib's own bins of them, below
            values = None
        if values is not None:
            counts, edges = numpy.histogram(values, bins=bins) if values.size else ([], [])
            return histogram(list(edges), list(counts), x=x, title=title)
    if kind == "scatter" and len(frame) > MAX_POINTS:
        frame = frame.sample(n=MAX_POINTS, random_state=0)
    figure, axes = _figure()
    if kind == "hist":
        axes.hist(frame[x].dropna(), bins=bins)
        axes.set_ylabel("count")
        return _png(figure, axes, x, title or f"Histogram of {x}")
    if kind == "bar":
        axes.bar(frame[x].astype(str), frame[y])
        axes.tick_params(axis="x", labelrotation=45)
        alt = f"Bar chart of {y} by {x}"
    elif kind == "scatter":
        axes.scatter(frame[x], frame[y], s=12, alpha=0.7)
        alt = f"Scatter of {y} against {x}"
    else:
        axes.plot(frame[x], frame[y])
        alt = f"Line chart of {y} against {x}"
    axes.set_ylabel(str(y))
    return _png(figure, axes, x, title or alt)


def histogram(edges: list[float], counts: list[int], *, x: str, title: str) -> dict[str, Any]:
    """The PNG of a histogram from its bins, ready (``edges``: one more than ``counts``; none
    for a column without values): the frames' numpy bins, or the bins an engine counted
    (``tables/_engine_charts.py``).

        >>> histogram([0.0, 1.0, 2.0], [3, 5], x="units", title="")["media"][0]["alt"]
        'Histogram of units'
    """
    figure, axes = _figure()
    if len(counts):
        axes.hist(list(edges[:-1]), bins=list(edges), weights=list(counts))
    axes.set_ylabel("count")
    return _png(figure, axes, x, title or f"Histogram of {x}")


def _figure() -> tuple[Any, Any]:
    """A figure on the Agg canvas (no pyplot) and its axes."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ActionError(
            "plotting needs matplotlib", code="missing-dependency", hint=INSTALL
        ) from None
    figure = Figure(figsize=(6.4, 4.0), dpi=80, layout="constrained")
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot()


def _png(figure: Any, axes: Any, x: str, alt: str) -> dict[str, Any]:
    """The figure, its x axis named and ``alt`` its title, as a PNG data URL."""
    axes.set_xlabel(str(x))
    axes.set_title(alt)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return {"media": [{"src": f"data:image/png;base64,{encoded}", "alt": alt}]}


def vegalite_spec(frame: Any, x: str, y: str | None = None, kind: str = "line", *,
                  title: str = "", bins: int = 20) -> dict[str, Any]:
    """The chart of ``frame``'s columns ``x`` (and ``y``) as a Vega-Lite spec with its data
    inline: a line, bar or scatter chart of at most ``MAX_SPEC_ROWS`` rows (a sample, in the
    frame's order, past that), or a histogram of ``x`` counted over every row.

        >>> import pandas as pd
        >>> spec = vegalite_spec(pd.DataFrame({"day": [1, 2], "units": [3, 5]}), "day", "units")
        >>> spec["mark"], spec["data"]["values"]
        ('line', [{'x': 1, 'y': 3}, {'x': 2, 'y': 5}])
        >>> spec["encoding"]["y"]["title"]
        'units'
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if kind != "hist" and y is None:
        raise ValueError(f"a {kind} chart needs y")
    total = len(frame)
    if kind == "hist":
        values = _histogram(frame[x], bins)
        shown = total
    else:
        data = frame[[x, y]].copy()
        data.columns = ["x", "y"]
        if total > MAX_SPEC_ROWS:
            data = data.sample(n=MAX_SPEC_ROWS, random_state=0).sort_index()
        shown = len(data)
        values = json.loads(data.to_json(orient="records", date_format="iso"))
    alt = {"hist": f"Histogram of {x}", "bar": f"Bar chart of {y} by {x}",
           "scatter": f"Scatter of {y} against {x}"}.get(kind, f"Line chart of {y} against {x}")
    heading: dict[str, Any] = {"text": title or alt}
    if shown < total:
        heading["subtitle"] = f"a sample of {shown:,} of {total:,} rows"
    spec: dict[str, Any] = {"$schema": VEGA_LITE_SCHEMA, "description": title or alt,
                            "title": heading, "width": 480, "height": 300,
                            "data": {"values": values}}
    if kind == "hist":
        spec["mark"] = "bar"
        spec["encoding"] = {
            "x": {"field": "start", "type": "quantitative", "bin": {"binned": True},
                  "title": str(x)},
            "x2": {"field": "end"},
            "y": {"field": "count", "type": "quantitative", "title": "count"}}
        return spec
    spec["mark"] = kind if kind != "scatter" else {"type": "point", "filled": True, "size": 20,
                                                   "opacity": 0.7}
    spec["encoding"] = {"x": {"field": "x", "type": _type_of(frame[x], kind), "title": str(x)},
                        "y": {"field": "y", "type": "quantitative", "title": str(y)}}
    return spec


def _type_of(column: Any, kind: str) -> str:
    """Vega-Lite's type for an x column: temporal for dates, nominal for a bar chart's labels
    and for text, quantitative for numbers."""
    kind_code = getattr(getattr(column, "dtype", None), "kind", "O")
    if kind_code == "M":
        return "temporal"
    if kind == "bar" or kind_code not in "iufb":
        return "nominal"
    return "quantitative"


def _histogram(column: Any, bins: int) -> list[dict[str, Any]]:
    """The counts of ``column`` in ``bins`` equal bins over every row (not a sample)."""
    import numpy

    numbers = column.dropna().to_numpy(dtype=float)
    if numbers.size == 0:
        return []
    counts, edges = numpy.histogram(numbers, bins=bins)
    return [{"start": float(edges[n]), "end": float(edges[n + 1]), "count": int(counts[n])}
            for n in range(len(counts))]
