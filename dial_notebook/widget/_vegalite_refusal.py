"""What a Vega-Lite spec is, and which specs are refused before anything draws them.

Only inline ``values`` are drawn: nothing a spec names is fetched or read. ``refusal(spec)``
walks the spec once (iteratively: its depth is bounded, not the interpreter's stack) and says,
in a sentence for the person, the first thing that is not drawn:

    a url anywhere (data, a lookup's data, a dataset, an image's url channel) ─▶ "it names …"
    an image mark, a link (href), a loader                                   ─▶ "… loads nothing"
    more than MAX_ROWS rows (inline values, datasets, a sequence's count)   ─▶ "more than … rows"
    over MAX_SPEC_CHARS characters, MAX_DEPTH levels, MAX_NODES objects    ─▶ "… at most …"
    a width or height over MAX_ASKED px; ticks, bins or steps by the million

``_vegalite.py`` asks before anything is drawn (a saved session's charts: when they are drawn,
off the loop); the renderer is also told to load no URL at all (``allowed_base_urls=[]``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_ASKED", "MAX_DEPTH", "MAX_NODES", "MAX_ROWS", "MAX_SPEC_CHARS", "NOT_DRAWN",
           "is_vega_lite", "refusal"]

#: Rows of inline values (all datasets together) and generated rows (a sequence) drawn.
MAX_ROWS = 5_000
#: Characters of a spec as JSON, nesting depth, and objects and lists walked (values aside).
MAX_SPEC_CHARS = 1_000_000
MAX_DEPTH = 64
MAX_NODES = 100_000
#: Largest width or height a spec may ask for (CSS px).
MAX_ASKED = 2_000
#: Caps of settings that make work out of nothing (ticks, bins, density steps).
_COUNTS = {"tickCount": 1_000, "maxbins": 1_000, "steps": MAX_ROWS, "minsteps": MAX_ROWS,
           "maxsteps": MAX_ROWS}
#: How every note of a chart that was not drawn begins.
NOT_DRAWN = "The chart was not drawn: "


class _Refused(Exception):
    pass


def is_vega_lite(value: Any) -> bool:
    """Whether ``value`` reads as a Vega-Lite spec: its ``$schema`` names Vega-Lite, or it
    has a ``mark`` (or layers, concatenations, a facet or a repeat of a spec) and no
    ``$schema`` naming something else.

        >>> is_vega_lite({"mark": "bar", "encoding": {}})
        True
        >>> is_vega_lite({"$schema": "https://vega.github.io/schema/vega/v5.json", "marks": []})
        False
        >>> is_vega_lite([1, 2])
        False
    """
    if not isinstance(value, Mapping):
        return False
    schema = value.get("$schema")
    if isinstance(schema, str) and schema:
        return "/schema/vega-lite/" in schema
    return any(key in value for key in ("mark", "layer", "concat", "hconcat", "vconcat")) or (
        "spec" in value and ("facet" in value or "repeat" in value))


def refusal(spec: Any) -> str | None:
    """Why ``spec`` is not drawn (a sentence for the person), or None when it may be.

    Only inline ``values`` are drawn: a ``url`` anywhere (data, a lookup's data, a dataset, an
    image's ``url`` channel), an ``image`` mark, an ``href`` (a link), a ``loader``; more than
    MAX_ROWS rows; a spec over MAX_SPEC_CHARS characters or MAX_DEPTH levels; a width or
    height over MAX_ASKED px; ticks, bins or steps by the million are all refused.

        >>> refusal({"mark": "bar", "data": {"values": [{"a": 1}]}}) is None
        True
        >>> refusal({"mark": "bar", "data": {"url": "http://example.com/x.csv"}})
        "The chart was not drawn: it names data.url 'http://example.com/x.csv'; only inline values are drawn."
        >>> refusal({"layer": [{"mark": "image"}]})
        'The chart was not drawn: it has an image mark (at layer[0].mark); a chart loads no images.'
    """
    try:
        _check(spec)
        size = len(json.dumps(spec))
    except _Refused as why:
        return NOT_DRAWN + f"{why}."
    except (TypeError, ValueError, RecursionError) as error:
        return NOT_DRAWN + f"it is not plain JSON ({type(error).__name__})."
    if size > MAX_SPEC_CHARS:
        return (NOT_DRAWN + f"the spec is {size:,} characters long; at most "
                f"{MAX_SPEC_CHARS:,} are drawn.")
    return None


def _check(spec: Any) -> None:
    if not isinstance(spec, Mapping):
        raise _Refused("a Vega-Lite spec is a JSON object")
    rows = 0
    nodes = 0
    stack: list[tuple[Any, str, int]] = [(spec, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise _Refused(f"it has more than {MAX_NODES:,} objects and lists")
        if depth > MAX_DEPTH:
            raise _Refused(f"it nests deeper than {MAX_DEPTH} levels")
        if isinstance(value, list):
            stack.extend((item, f"{where}[{n}]", depth + 1) for n, item in enumerate(value))
            continue
        if not isinstance(value, Mapping):
            continue
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            _check_key(str(key), item, path)
            if key == "values" and isinstance(item, list):
                rows += len(item)  # data rows: field names, not spec (nothing in them loads)
            elif key == "datasets" and isinstance(item, Mapping):
                for name, dataset in item.items():
                    if isinstance(dataset, list):
                        rows += len(dataset)
                    else:
                        stack.append((dataset, f"{path}.{name}", depth + 2))
            elif key in ("sequence", "keyvals") and isinstance(item, Mapping):
                rows += _sequence_rows(item, path)
            elif isinstance(item, Mapping | list):
                stack.append((item, path, depth + 1))
            if rows > MAX_ROWS:
                raise _Refused(f"it has more than {MAX_ROWS:,} rows of data (at {path}); at "
                               f"most {MAX_ROWS:,} are drawn")


def _check_key(key: str, item: Any, path: str) -> None:
    if key == "url":
        shown = _short(item)
        if path.endswith("data.url") and path.count(".") == 1:
            raise _Refused(f"it names data.url {shown}; only inline values are drawn")
        if path.endswith("data.url"):
            raise _Refused(f"it names data.url {shown} (at {path}); only inline values are "
                           "drawn")
        raise _Refused(f"it names a url {shown} (at {path}); a chart loads nothing")
    if key == "href":
        raise _Refused(f"it has a link (href at {path}); links are not drawn")
    if key == "loader":
        raise _Refused(f"it sets a loader (at {path}); a chart loads nothing")
    if key == "mark" and (item == "image" or (isinstance(item, Mapping)
                                              and item.get("type") == "image")):
        raise _Refused(f"it has an image mark (at {path}); a chart loads no images")
    if key in ("width", "height") and _number(item) and item > MAX_ASKED:
        raise _Refused(f"it asks for {key} {item:,} px (at {path}); at most {MAX_ASKED:,} px "
                       "are drawn")
    if key in _COUNTS and _number(item) and item > _COUNTS[key]:
        raise _Refused(f"{key} is {item:,} (at {path}); at most {_COUNTS[key]:,}")


def _sequence_rows(sequence: Mapping[str, Any], path: str) -> int:
    start, stop, step = sequence.get("start", 0), sequence.get("stop"), sequence.get("step", 1)
    if not (_number(start) and _number(stop) and _number(step)) or step == 0:
        return 0  # not a sequence vl-convert can make: its own error says so
    count = (stop - start) / step
    return max(0, int(count) + 1) if count < 10 * MAX_ROWS else 10 * MAX_ROWS


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return repr(text if len(text) <= 80 else text[:79] + "…")

