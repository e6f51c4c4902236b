"""Markdown-lite for the static copy (as js/src/markdown.js reads it): headings, paragraphs,
lists, code fences; bold, code and emphasis inline; every piece escaped.

    >>> markdown_html("# Hi\\n**<b>**")
    '<div class="dial-md-h dial-md-h1">Hi</div><p class="dial-md-p"><strong>&lt;b&gt;</strong></p>'
"""

from __future__ import annotations

import re

from ._static_text import TEXT_CHARS, clip, clipped_note, esc


def markdown_html(text: str) -> str:
    """Markdown-lite (js/src/markdown.js): headings, paragraphs, lists, code fences; bold,
    code and emphasis inline; every piece escaped."""
    blocks: list[str] = []
    paragraph: list[str] = []
    listed: tuple[str, list[str]] | None = None
    code: list[str] | None = None

    def flush() -> None:
        nonlocal listed
        if paragraph:
            blocks.append(f'<p class="dial-md-p">{inline_markdown(chr(10).join(paragraph))}</p>')
            paragraph.clear()
        if listed is not None:
            tag, entries = listed
            blocks.append(f'<{tag} class="dial-md-list">'
                          + "".join(f"<li>{inline_markdown(e)}</li>" for e in entries)
                          + f"</{tag}>")
            listed = None

    for line in clip(text, TEXT_CHARS).replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if code is not None:
            if line.lstrip().startswith("```"):
                blocks.append(f'<pre class="dial-code"><code>{esc(chr(10).join(code))}'
                              "</code></pre>")
                code = None
            else:
                code.append(line)
            continue
        if line.lstrip().startswith("```"):
            flush()
            code = []
            continue
        heading = re.match(r"\s{0,3}(#{1,6})\s+(.*)$", line)
        bullet = re.match(r"\s*[-*+]\s+(.*)$", line)
        numbered = re.match(r"\s*\d{1,4}[.)]\s+(.*)$", line)
        if not line.strip():
            flush()
        elif heading:
            flush()
            level = min(len(heading.group(1)), 3)
            blocks.append(f'<div class="dial-md-h dial-md-h{level}">'
                          f"{inline_markdown(heading.group(2).strip())}</div>")
        elif bullet or numbered:
            tag = "ul" if bullet else "ol"
            if paragraph:
                flush()
            if listed is None or listed[0] != tag:
                flush()
                listed = (tag, [])
            listed[1].append((bullet or numbered).group(1))  # type: ignore[union-attr]
        elif listed is not None and re.match(r"\s{2,}\S", line):
            listed[1][-1] += " " + line.strip()
        else:
            if listed is not None:
                flush()
            paragraph.append(line.strip())
    flush()
    if code is not None:
        blocks.append(f'<pre class="dial-code"><code>{esc(chr(10).join(code))}</code></pre>')
    if len(text) > TEXT_CHARS:
        blocks.append(clipped_note(len(text) - TEXT_CHARS))
    return "".join(blocks)


_INLINE = re.compile(r"\*\*([^*\n]+)\*\*|`([^`\n]+)`|\*([^*\n]+)\*")


def inline_markdown(text: str) -> str:
    out, last = [], 0
    for match in _INLINE.finditer(text):
        out.append(esc(text[last:match.start()]))
        bold, code, emphasis = match.groups()
        if bold is not None:
            out.append(f"<strong>{esc(bold)}</strong>")
        elif code is not None:
            out.append(f'<code class="dial-md-code">{esc(code)}</code>')
        else:
            out.append(f"<em>{esc(emphasis)}</em>")
        last = match.end()
    out.append(esc(text[last:]))
    return "".join(out)
