"""Charts for the dataframes domain's ``plot``: a PNG the widget can show, as a data URL.

Drawn with matplotlib's object API on the Agg canvas (``Figure`` + ``FigureCanvasAgg``): no
pyplot, so the notebook's own backend and figures are left alone. The result is

    {"media": [{"src": "data:image/png;base64,…", "alt": "Scatter of units against price"}]}

(matplotlib is part of the ``data`` extra; without it ``plot`` fails with a hint to install it.)
"""

from __future__ import annotations

import base64
import io
from typing import Any

from ._errors import ActionError
from ._frames import INSTALL

#: Chart kinds, and the largest number of points drawn (a scatter beyond it is sampled).
KINDS = ("line", "bar", "scatter", "hist")
MAX_POINTS = 20_000
MAX_BARS = 50


def chart(frame: Any, *, kind: str, x: str, y: str | None, title: str, bins: int) -> dict[str, Any]:
    """The chart of ``frame`` as ``{"media": [{"src", "alt"}]}``."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ActionError(
            "plotting needs matplotlib", code="missing-dependency", hint=INSTALL
        ) from None
    if kind == "scatter" and len(frame) > MAX_POINTS:
        frame = frame.sample(n=MAX_POINTS, random_state=0)
    figure = Figure(figsize=(6.4, 4.0), dpi=80, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    if kind == "hist":
        axes.hist(frame[x].dropna(), bins=bins)
        axes.set_ylabel("count")
        alt = f"Histogram of {x}"
    elif kind == "bar":
        axes.bar(frame[x].astype(str), frame[y])
        axes.tick_params(axis="x", labelrotation=45)
        axes.set_ylabel(str(y))
        alt = f"Bar chart of {y} by {x}"
    elif kind == "scatter":
        axes.scatter(frame[x], frame[y], s=12, alpha=0.7)
        axes.set_ylabel(str(y))
        alt = f"Scatter of {y} against {x}"
    else:
        axes.plot(frame[x], frame[y])
        axes.set_ylabel(str(y))
        alt = f"Line chart of {y} against {x}"
    axes.set_xlabel(str(x))
    axes.set_title(title or alt)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return {"media": [{"src": f"data:image/png;base64,{encoded}", "alt": title or alt}]}
