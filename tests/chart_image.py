"""A real PNG of a bar chart, made with zlib and struct only, that weighs what a chart drawn
by vl-convert does: the chart images of the generated long conversation
(tests/long_conversation.py, which exports ``png`` too) and of the static copy's tests."""

from __future__ import annotations

import random
import struct
import zlib

__all__ = ["png"]


def png(width: int, height: int, rng: random.Random, *, noise: float = 0.3) -> bytes:
    """A real PNG (RGB, 8 bits) of a bar chart ``width`` × ``height`` pixels: bars with a
    grain (``noise``: the share of rows that carry it), so it weighs what a drawn
    chart does (about 20-60 KB at 640 × 400). zlib and struct only.

        >>> png(64, 40, random.Random(0)).startswith(bytes([137]) + b"PNG")
        True
    """
    white = bytes((255, 255, 255))
    bars = max(3, min(12, width // 48))
    slot = width // bars
    heights = [rng.randint(height // 6, height - 4) for _ in range(bars)]
    colours = [bytes((rng.randint(30, 200), rng.randint(60, 200), rng.randint(120, 240)))
               for _ in range(bars)]
    rows = []
    for y in range(height):
        line = bytearray()
        for n in range(bars):
            bar = max(1, slot - 6)
            inside = height - y <= heights[n]
            line += (colours[n] if inside else white) * bar + white * (slot - bar)
        line += white * (width - len(line) // 3)
        if y % 20 == 0:  # a grid line
            line = bytearray(b if b != 255 else 230 for b in line)
        if rng.random() < noise:  # grain over part of the row: anti-aliasing, texture
            start = rng.randrange(0, max(1, len(line) - 30))
            span = rng.randrange(30, max(31, len(line) // 3))
            grain = rng.randbytes(min(span, len(line) - start))
            line[start:start + len(grain)] = bytes(
                (a & 0xF0) | (g & 0x0F) for a, g in zip(line[start:], grain, strict=False))
        rows.append(b"\x00" + bytes(line))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))
