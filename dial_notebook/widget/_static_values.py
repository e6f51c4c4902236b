"""An action's result and an inform's payload as the static copy shows them: tables, card
lists, images (inline only, checked), charts as the kernel drew them, readable results (as
js/src/items.js: resultShape and js/src/inform.js show them). Nothing here is fetched: an image
is a well-formed base64 PNG, JPEG, GIF or WebP data: URL, or a note saying why not.

    >>> table_html([{"a": 1}]).count("<td")
    1
    >>> "not shown" in image_html("https://example.org/x.png", Budget())
    True
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ._static_text import (
    CARD_ITEMS,
    NOTEBOOK_WIRE_CHARS,
    as_list,
    as_string,
    cell_text,
    clip,
    details_html,
    esc,
    humanise,
    js_string,
    json_block,
    result_text,
    summarise,
    text_html,
)

#: Rows and columns of a table; images of one inform or result.
TABLE_ROWS = 300
TABLE_COLUMNS = 60
MEDIA_ITEMS = 20
#: Characters of one inline image (its data: URL), and of all of them in one rendering.
IMAGE_CHARS = 4_000_000
IMAGES_CHARS = 16_000_000

_IMAGE_SIGNATURES = (
    ("png", b"\x89PNG\r\n\x1a\n"), ("jpeg", b"\xff\xd8\xff"), ("gif", b"GIF87a"),
    ("gif", b"GIF89a"),
)
_DATA_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,", re.IGNORECASE)
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


@dataclass
class Budget:
    """What one rendering may still spend: characters of inline images; how much of each wire
    text it shows (the notebook's copy: ``NOTEBOOK_WIRE_CHARS``; an export: more), and of how
    many more turns (None: all); and whether a chart is shown by its sharp image (an export)
    or by its ``copy``, one pixel per CSS pixel (the notebook's copy, saved with it)."""

    images: int = IMAGES_CHARS
    wire: int = NOTEBOOK_WIRE_CHARS
    wire_turns: int | None = None
    sharp_charts: bool = False


def result_nodes(result: Any, budget: Budget) -> list[str]:
    """An action's result on its card: its image, table or list, readable."""
    if result is None or result == "":
        return []
    if not isinstance(result, Mapping | list):
        return [f'<span class="dial-result"> — {text_html(js_string(result), 2000)}</span>']
    if isinstance(result, list):
        return list_nodes(result, "", "")
    scalars = [(k, v) for k, v in result.items() if not isinstance(v, Mapping | list)]
    said = result.get("summary")  # the result says itself: its other fields are bookkeeping
    summary = said if isinstance(said, str) and said.strip() else None
    caption = summary or ", ".join(f"{k}: {js_string(v)}" for k, v in scalars)

    def captioned(text: str) -> list[str]:
        return [f'<div class="dial-result-caption">{text_html(text, 2000)}</div>'] if text else []

    spec = result.get("vega_lite")
    if isinstance(spec, Mapping):
        chart = result.get("chart")
        return [drawn_chart_html(chart if isinstance(chart, Mapping) else None, spec, budget)]
    media = result.get("media")
    if isinstance(media, list) and media:
        return [*captioned(caption), images_html(media, budget)]
    table = result.get("table")
    if isinstance(table, Mapping) and isinstance(table.get("columns"), list) \
            and isinstance(table.get("rows"), list):
        total = table.get("total_rows")
        note = (f"The first {len(table['rows'])} of {js_string(total)} rows"
                if isinstance(total, int | float) and not isinstance(total, bool)
                and total > len(table["rows"]) else "")
        drawn = table_html({"columns": table["columns"], "data": table["rows"]})
        return [*captioned(" · ".join(p for p in (caption, note) if p)), drawn or ""]
    lists = [(k, v) for k, v in result.items() if isinstance(v, list)]
    if len(lists) == 1 and len(result) - len(scalars) == 1:
        name, items = lists[0]
        plain = all(not isinstance(i, Mapping | list) for i in items)
        inline = ", ".join(js_string(i) for i in items) if plain else ""
        if plain and len(inline) <= 200:
            text = summary or ", ".join(p for p in (caption, f"{name}: {inline}") if p)
            return [f'<span class="dial-result"> — {text_html(text, 2000)}</span>']
        return list_nodes(items, humanise(name), caption)
    if len(scalars) == len(result):
        return [f'<span class="dial-result"> — {esc(summary or result_text(result))}</span>']
    return [f'<span class="dial-result"> — {esc(summary or summarise(result, 240))}</span>']


def list_nodes(items: list[Any], caption: str, extra: str) -> list[str]:
    objects = any(isinstance(i, Mapping) for i in items)
    if caption:
        head = f"{caption} ({len(items)})" if items else f"{caption}: none"
    else:
        head = f"{len(items)} items" if items else "none"
    head = " · ".join(p for p in (head, extra) if p)
    parts = [f'<div class="dial-result-caption">{text_html(head, 2000)}</div>']
    if not items:
        return parts
    if objects:
        parts.append(table_html(items) or "")
    else:
        parts.append('<ul class="dial-result-list">' + "".join(
            f"<li>{text_html(cell_text(i), 2000)}</li>" for i in items[:CARD_ITEMS]) + "</ul>")
        if len(items) > CARD_ITEMS:
            parts.append(f'<div class="dial-more">+{len(items) - CARD_ITEMS:,} more</div>')
    return parts


def table_html(payload: Any) -> str | None:
    """A table (its first rows, then "+N more rows"), or None if ``payload`` is not one:
    pandas' split orient ``{columns, data, index?}``, a list of records, or a list of rows."""
    columns: list[str] = []
    rows: list[Any]
    if isinstance(payload, Mapping) and isinstance(payload.get("data"), list):
        columns = [js_string(c) for c in as_list(payload.get("columns"))]
        rows = payload["data"]
        index = payload.get("index")
        if isinstance(index, list) and len(index) == len(rows):
            columns = ["", *columns]
            rows = [[index[i], *(row if isinstance(row, list) else [row])]
                    for i, row in enumerate(rows[:TABLE_ROWS])] + rows[TABLE_ROWS:]
    elif isinstance(payload, list):
        rows = payload
        if any(isinstance(r, Mapping) for r in rows):
            seen: dict[str, None] = {}
            for row in rows[:TABLE_ROWS]:
                if isinstance(row, Mapping):
                    for key in row:
                        seen.setdefault(str(key), None)
            columns = list(seen)
            rows = [[row.get(c) for c in columns] if isinstance(row, Mapping) else [row]
                    for row in rows[:TABLE_ROWS]] + rows[TABLE_ROWS:]
    else:
        return None
    shown = rows[:TABLE_ROWS]
    width = max([len(columns), *(len(r) if isinstance(r, list) else 1 for r in shown)])
    parts = ['<div class="dial-table-wrap"><table class="dial-table">']
    if columns:
        parts.append("<thead><tr>" + "".join(f'<th scope="col">{text_html(c, 200)}</th>'
                                             for c in columns[:TABLE_COLUMNS]) + "</tr></thead>")
    parts.append("<tbody>")
    for row in shown:
        cells = row if isinstance(row, list) else [row]
        parts.append("<tr>" + "".join(
            f'<td class="dial-num">{esc(cell_text(v))}</td>'
            if isinstance(v, int | float) and not isinstance(v, bool)
            else f"<td>{text_html(cell_text(v), 2000)}</td>"
            for v in cells[:TABLE_COLUMNS]) + "</tr>")
    parts.append("</tbody></table></div>")
    more = len(rows) - len(shown)
    notes = []
    if more > 0:
        notes.append(f"+{more:,} more rows")
    if width > TABLE_COLUMNS:
        notes.append(f"+{width - TABLE_COLUMNS:,} more columns")
    if notes:
        parts.append(f'<div class="dial-more">{" · ".join(notes)}</div>')
    return "".join(parts)


def card_list_html(payload: Any) -> str | None:
    """A card list: title and up to 8 fields per card; a URL is shown as its host, not a link."""
    items = payload if isinstance(payload, list) else payload.get("items") \
        if isinstance(payload, Mapping) and isinstance(payload.get("items"), list) else None
    if items is None:
        return None
    cards = []
    for item in items[:CARD_ITEMS]:
        if not isinstance(item, Mapping):
            cards.append(f'<li class="dial-mini-card">{text_html(cell_text(item), 2000)}</li>')
            continue
        title = next((item[k] for k in ("title", "name", "label", "id") if item.get(k)
                      is not None), None)
        rest = [(k, v) for k, v in item.items()
                if k not in ("title", "name", "label", "url", "image")][:8]
        fields = "".join(f"<dt>{text_html(k, 200)}</dt><dd>{text_html(cell_text(v), 2000)}</dd>"
                         for k, v in rest)
        url = item.get("url")
        host = urlsplit(url.strip()).hostname if isinstance(url, str) and is_web_url(url) else None
        cards.append('<li class="dial-mini-card">'
                     + (f'<div class="dial-mini-title">{text_html(cell_text(title), 400)}</div>'
                        if title is not None else "")
                     + f"<dl>{fields}</dl>"
                     + (f'<div class="dial-note">Link to {text_html(host, 200)} (not followed '
                        "here)</div>" if host else "") + "</li>")
    more = len(items) - min(len(items), CARD_ITEMS)
    return (f'<ul class="dial-card-list">{"".join(cards)}</ul>'
            + (f'<div class="dial-more">+{more:,} more</div>' if more > 0 else ""))


def images_html(items: list[Any], budget: Budget) -> str:
    shown = "".join(image_html(item, budget) for item in items[:MEDIA_ITEMS])
    more = len(items) - MEDIA_ITEMS
    return shown + (f'<div class="dial-more">+{more:,} more images</div>' if more > 0 else "")


def image_html(item: Any, budget: Budget, *, size: tuple[int | None, ...] = (None, None),
           chart: bool = False) -> str:
    """An image, inline only: a well-formed base64 PNG, JPEG, GIF or WebP data: URL. Anything
    else (http(s), javascript:, data:text/html, SVG …) becomes a note: nothing is fetched."""
    src = item if isinstance(item, str) else (
        (item.get("src") or item.get("url")) if isinstance(item, Mapping) else None)
    alt = as_string((item.get("alt") or item.get("title")) if isinstance(item, Mapping) else "")
    if not isinstance(src, str) or not src.strip():
        return blocked_note("missing URL", src)
    src = src.strip()
    if is_web_url(src):
        host = urlsplit(src).hostname or "another server"
        named = f" ({text_html(alt, 200)})" if alt else ""
        return ('<div class="dial-remote">Image from '
                f"{text_html(host, 200)}{named} — not shown: this "
                "copy loads nothing from the network.</div>")
    if _DATA_IMAGE.match(src) and (len(src) > IMAGE_CHARS or len(src) > budget.images):
        return (f'<div class="dial-blocked">Image not shown: too large for this copy '
                f"({len(src) / 1e6:.1f} MB){f' ({text_html(alt, 200)})' if alt else ''}.</div>")
    kind = inline_image_kind(src)
    if kind is None:
        return blocked_note("not an inline PNG, JPEG, GIF or WebP image", src)
    budget.images -= len(src)
    data = src[src.index(",") + 1:]
    sized = "".join(f' {name}="{n}"' for name, n in zip(("width", "height"), size,
                                                         strict=False) if n is not None)
    classes = "dial-figure dial-chart" if chart else "dial-figure"
    figure = (f'<figure class="{classes}"><img src="data:image/{kind};base64,{data}" '
              f'alt="{esc(clip(alt, 400))}"{sized}>')
    if alt and not chart:  # a chart's alt is the inform's words, shown above it
        figure += f"<figcaption>{text_html(alt, 400)}</figcaption>"
    return figure + "</figure>"


def inline_image_kind(src: str) -> str | None:
    """The kind of a data: image URL whose data is well-formed base64 starting as that kind of
    image does ('png', 'jpeg', 'gif', 'webp'), else None."""
    head = _DATA_IMAGE.match(src)
    if head is None:
        return None
    data = src[head.end():]
    if not data or len(data) % 4 or _BASE64.fullmatch(data) is None:
        return None
    try:
        start = base64.b64decode(data[:16], validate=True)
    except (binascii.Error, ValueError):
        return None
    if start[:4] == b"RIFF" and start[8:12] == b"WEBP":
        return "webp"
    return next((kind for kind, magic in _IMAGE_SIGNATURES if start.startswith(magic)), None)


def is_web_url(text: str) -> bool:
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def blocked_note(why: str, src: Any) -> str:
    return (f'<div class="dial-blocked">Image not shown ({esc(why)}): '
            f"{esc(summarise(src, 80))}</div>")



def drawn_chart_html(chart: Mapping[str, Any] | None, spec: Any, budget: Budget) -> str:
    """A Vega-Lite chart as the kernel drew it (``_vegalite.py``): the PNG at its size (in a
    notebook's copy its ``copy``, one pixel per CSS pixel, when it has one), or why it was not
    drawn with the spec collapsed (js/src/inform.js: chartOf)."""
    if chart is not None and isinstance(chart.get("src"), str):
        size = tuple(min(int(n), 4000) if isinstance(n, int | float) and not isinstance(
            n, bool) and n > 0 else None for n in (chart.get("width"), chart.get("height")))
        flat = chart.get("copy")
        src = chart["src"] if budget.sharp_charts or not isinstance(flat, str) else flat
        return image_html({"src": src, "alt": as_string(chart.get("alt")) or "A chart"},
                          budget, size=size, chart=True)
    why = (as_string(chart.get("error")) if chart is not None else "") or \
        "Vega-Lite chart (not drawn here)"
    return (f'<div class="dial-note dial-chart-error">{text_html(why, 2000)}</div>'
            + details_html("Vega-Lite specification", json_block(spec), "dial-chart-spec"))


def chart_html(payload: Any, text: str, has_payload: bool, budget: Budget) -> str:
    if isinstance(payload, str) and payload.startswith("data:image/"):
        return image_html(payload, budget)
    if isinstance(payload, Mapping) and isinstance(payload.get("png"), str):
        return image_html({"src": f"data:image/png;base64,{payload['png']}",
                       "alt": payload.get("alt") or text or "chart"}, budget)
    if isinstance(payload, Mapping) and (payload.get("mark") is not None
                                         or "vega" in as_string(payload.get("$schema"))):
        return ('<div class="dial-note">Vega-Lite chart (shown as its specification)</div>'
                + json_block(payload))
    return json_block(payload) if has_payload else ""
