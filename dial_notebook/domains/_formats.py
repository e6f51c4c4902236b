"""The format checker of schema domains: every ``format`` asserted, and none slower than linear.

jsonschema asserts a format only when the library behind it is installed, and silently passes
the rest; ``FALLBACK_FORMATS`` stand in for the common ones when those libraries are absent.

Some of those libraries take time that grows much faster than the text (measured here, by
``tests/bench/bench_hostile.py``: an ``iri`` of 2,000 characters takes 0.9 s, of 20 KB half a
minute; ``uri-template`` is quadratic; ``regex`` compiles the agent's text). Past a length the
library is not called, and a linear check takes its place (``LONG_FORMATS``):

    format          library up to      past it
    iri             1,000 characters   a scheme, then only characters an IRI may hold
    iri-reference   1,000 characters   only characters an IRI may hold
    uri-template    2,000 characters   literals and well-formed {expressions} (RFC 6570)
    regex           1,000 characters   refused: agent text is not compiled past that length

    >>> checker = format_checker(FormatChecker())
    >>> checker.conforms("https://example.org/" + "é" * 5000, "iri")
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from jsonschema import FormatChecker

_RFC3339_TIME = r"(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))"
_DATE_TIME = re.compile(rf"^(\d{{4}})-(\d{{2}})-(\d{{2}})[Tt ]{_RFC3339_TIME}$", re.ASCII)
_TIME = re.compile(rf"^{_RFC3339_TIME}$", re.ASCII)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*$")
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def _is_time(
    hour: str, minute: str, second: str, off_hour: str | None, off_min: str | None
) -> bool:
    in_range = int(hour) < 24 and int(minute) < 60 and int(second) < 61
    return in_range and (off_hour is None or (int(off_hour) < 24 and int(off_min or 0) < 60))


def _date_time(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    match = _DATE_TIME.match(instance)
    if not match:
        return False
    year, month, day, hour, minute, second, _, _, off_hour, off_min = match.groups()
    try:
        datetime(int(year), int(month), int(day))
    except ValueError:
        return False
    return _is_time(hour, minute, second, off_hour, off_min)


def _time(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    match = _TIME.match(instance)
    if not match:
        return False
    hour, minute, second, _, _, off_hour, off_min = match.groups()
    return _is_time(hour, minute, second, off_hour, off_min)


def _uri(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    if any(char.isspace() or ord(char) < 32 for char in instance):
        return False
    try:
        parts = urlsplit(instance)
    except ValueError:
        return False
    return bool(_SCHEME.match(parts.scheme))


def _uri_reference(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    return not any(char.isspace() or ord(char) < 32 for char in instance)


def _hostname(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    labels = instance.rstrip(".").split(".")
    return len(instance) <= 253 and all(_LABEL.match(label) for label in labels)


#: Stand-ins for formats whose jsonschema checkers need optional libraries.
FALLBACK_FORMATS = {
    "date-time": _date_time,
    "time": _time,
    "uri": _uri,
    "uri-reference": _uri_reference,
    "hostname": _hostname,
}

# Linear stand-ins for long strings. Each is one regular expression whose alternatives never
# overlap, so Python's re matches it in one pass.
_IRI_CHAR = r"""(?:[^\x00-\x20<>"{}|\\^`%\x7f-\x9f]|%[0-9A-Fa-f]{2})"""
_IRI = re.compile(rf"[A-Za-z][A-Za-z0-9+.-]*:{_IRI_CHAR}*")
_IRI_REFERENCE = re.compile(rf"{_IRI_CHAR}*")
_VARCHAR = r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})"
_VARSPEC = rf"{_VARCHAR}(?:\.?{_VARCHAR})*(?::[1-9][0-9]{{0,3}}|\*)?"
_LITERAL = r"""(?:[^\x00-\x20"'%<>\\^`{|}\x7f]|%[0-9A-Fa-f]{2})"""
_URI_TEMPLATE = re.compile(rf"(?:{_LITERAL}|\{{[+#./;?&=,!@|]?{_VARSPEC}(?:,{_VARSPEC})*\}})*")


def _long_iri(instance: str) -> bool:
    return _IRI.fullmatch(instance) is not None


def _long_iri_reference(instance: str) -> bool:
    return _IRI_REFERENCE.fullmatch(instance) is not None


def _long_uri_template(instance: str) -> bool:
    return _URI_TEMPLATE.fullmatch(instance) is not None


def _long_regex(instance: str) -> bool:
    return False


#: format → (the longest string its library checks, the linear check past that length).
LONG_FORMATS: dict[str, tuple[int, Callable[[str], bool]]] = {
    "iri": (1_000, _long_iri),
    "iri-reference": (1_000, _long_iri_reference),
    "uri-template": (2_000, _long_uri_template),
    "regex": (1_000, _long_regex),
}


def _within(limit: int, library: Callable[[Any], bool],
            linear: Callable[[str], bool]) -> Callable[[Any], bool]:
    def check(instance: Any) -> bool:
        if isinstance(instance, str) and len(instance) > limit:
            return linear(instance)
        return library(instance)

    check.__name__ = getattr(library, "__name__", "check")
    return check


def format_checker(base: FormatChecker) -> FormatChecker:
    """``base``'s checkers, the fallbacks for the formats it cannot check, and linear checks
    past ``LONG_FORMATS``' lengths."""
    checker = FormatChecker(formats=())
    checker.checkers = dict(base.checkers)
    for name, function in FALLBACK_FORMATS.items():
        checker.checkers.setdefault(name, (function, ()))
    for name, (limit, linear) in LONG_FORMATS.items():
        if name in checker.checkers:
            library, raises = checker.checkers[name]
            checker.checkers[name] = (_within(limit, library, linear), raises)
    return checker
