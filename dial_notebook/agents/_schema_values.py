"""Making one value for a JSON Schema, for the payload maker: deterministic, checked as it is made.

``Maker(schemas, full=True)`` makes a value with every property, ``full=False`` one with the
required properties only (``PayloadMaker`` tries both). It reads ``type``, ``const``,
``enum``, ``default`` and ``examples`` (preferred when they fit), ``properties`` /
``required`` / ``additionalProperties`` / ``patternProperties`` / ``minProperties`` /
``maxProperties`` / ``dependentRequired``, ``items`` / ``prefixItems`` / ``contains`` /
``minItems`` / ``maxItems`` / ``uniqueItems``, ``minLength`` / ``maxLength``, ``pattern``
(strings from ``_pattern_strings.py``; a pattern it cannot read falls back to the other
candidates), ``format`` (date, date-time, time, email, uri, uuid, ipv4 …), ``minimum`` /
``maximum`` / ``exclusive*`` / ``multipleOf``, ``allOf`` (merged), ``anyOf`` / ``oneOf``
(the first branch that fits), ``if`` / ``then`` / ``else`` and ``$ref`` (read with
``_schema_read.py``: within the domain's own schemas, nothing is fetched). Each value is
checked against its subschema with jsonschema as it is made; a part no value fits raises
``Cannot``. Nothing is random: the same schema always gives the same value.

    >>> schema = {"type": "object", "required": ["size"], "properties": {
    ...     "size": {"enum": ["S", "M"]}, "tags": {"type": "array", "items": {"type": "string"}}}}
    >>> Maker(Schemas(schema, []), full=True).top(), Maker(Schemas(schema, []), full=False).top()
    ({'size': 'S', 'tags': ['Example tag']}, {'size': 'S'})
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable, Iterator
from typing import Any

from ._pattern_strings import from_pattern
from ._schema_read import (
    Cannot,
    Schemas,
    bounds,
    flatten,
    is_number,
    property_schema,
    schema_types,
)

#: How deep a generated payload nests before only required parts are made.
FULL_DEPTH = 4
#: How deep a schema is followed at all (a schema that refers to itself stops here).
MAX_DEPTH = 12
#: A value of each ``format``, numbered by ``variant`` (so that the items of a list differ).
_FORMATS: dict[str, Callable[[int], str]] = {
    "date": lambda v: f"2030-01-{15 + v % 14:02d}",
    "date-time": lambda v: f"2030-01-{15 + v % 14:02d}T09:30:00Z",
    "time": lambda v: f"09:{30 + v % 30:02d}:00Z",
    "duration": lambda v: f"P{1 + v}D",
    "email": lambda v: f"person{v + 1 if v else ''}@example.org",
    "idn-email": lambda v: f"person{v + 1 if v else ''}@example.org",
    "hostname": lambda v: f"host{v + 1 if v else ''}.example.org",
    "idn-hostname": lambda v: f"host{v + 1 if v else ''}.example.org",
    "ipv4": lambda v: f"192.0.2.{1 + v % 254}",
    "ipv6": lambda v: f"2001:db8::{1 + v:x}",
    "uri": lambda v: f"https://example.org/{v + 1 if v else ''}",
    "iri": lambda v: f"https://example.org/{v + 1 if v else ''}",
    "uri-reference": lambda v: f"https://example.org/{v + 1 if v else ''}",
    "iri-reference": lambda v: f"https://example.org/{v + 1 if v else ''}",
    "uri-template": lambda v: "https://example.org/{id}" + (f"/{v + 1}" if v else ""),
    "uuid": lambda v: f"123e4567-e89b-12d3-a456-{426614174000 + v:012d}",
    "regex": lambda v: "^example$",
    "json-pointer": lambda v: "/example" + (f"/{v}" if v else ""),
    "relative-json-pointer": lambda v: f"{v}/example",
}


class Maker:
    """Makes one value for a schema: every property (``full``) or the required ones only.

    A type's value comes from the method named after it (``_object``, ``_array``, ``_string``,
    ``_integer``, ``_number``, ``_boolean``, ``_null``), looked up by that name.
    """

    def __init__(self, schemas: Schemas, *, full: bool) -> None:
        self.schemas = schemas
        self.full = full

    def top(self) -> Any:
        """The payload: the root schema's value, an object when the schema does not say."""
        return self.value(self.schemas.root, self.schemas.resolver, "", 0, 0, top=True)

    def value(self, schema: Any, resolver: Any, name: str, variant: int, depth: int,
              *, top: bool = False) -> Any:
        if depth > MAX_DEPTH:
            raise Cannot("the schema nests too deeply")
        if schema is True:
            return {} if top else _natural(name, variant)
        original, original_resolver = schema, resolver
        flat, resolver, conditionals = flatten(self.schemas, schema, resolver)
        value = self._plain(flat, resolver, name, variant, depth, top)
        for _ in range(3):  # a conditional's branch may change the value, and so the branch
            extra = []
            for condition, then, otherwise in conditionals:
                branch = then if self.schemas.ok(condition, resolver, value) else otherwise
                if branch is not None:
                    extra.append(branch)
            if self.schemas.ok(original, original_resolver, value):
                return value
            if not extra:
                break
            combined, resolver, _ = flatten(self.schemas, {"allOf": [flat, *extra]}, resolver)
            value = self._plain(combined, resolver, name, variant, depth, top)
        if self.schemas.ok(original, original_resolver, value):
            return value
        raise Cannot(f"no value made here fits {name or 'the payload'}")

    def _plain(self, schema: dict[str, Any], resolver: Any, name: str, variant: int,
               depth: int, top: bool) -> Any:
        ok = self.schemas.ok
        for candidate in _preferred(schema, variant):
            if ok(schema, resolver, candidate):
                return copy.deepcopy(candidate)
        if "const" in schema or "enum" in schema:
            raise Cannot(f"no value of the enum fits {name or 'the payload'}")
        branches = schema.get("anyOf") or schema.get("oneOf")
        if isinstance(branches, list):
            rest = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
            for branch in branches:
                try:
                    merged, inner, _ = flatten(self.schemas, {"allOf": [rest, branch]},
                                                resolver)
                    value = self._plain(merged, inner, name, variant, depth, top)
                except Cannot:
                    continue
                if ok(schema, resolver, value):
                    return value
            raise Cannot(f"no branch of {name or 'the payload'} could be filled")
        for kind in schema_types(schema, top):
            try:
                value = getattr(self, f"_{kind}")(schema, resolver, name, variant, depth)
            except Cannot:
                continue
            if ok(schema, resolver, value):
                return value
        raise Cannot(f"no value made here fits {name or 'the payload'}")

    def _object(self, schema: dict[str, Any], resolver: Any, name: str, variant: int,
                depth: int) -> dict[str, Any]:
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) \
            else {}
        required = [r for r in schema.get("required") or [] if isinstance(r, str)]
        full = self.full and depth < FULL_DEPTH
        wanted = [*properties] if full else [p for p in properties if p in required]
        wanted += [r for r in required if r not in wanted]
        result: dict[str, Any] = {}

        def add(key: str) -> bool:
            sub = property_schema(schema, key)
            if sub is False:
                return False
            try:
                result[key] = self.value(sub, resolver, key, variant, depth + 1)
            except Cannot:
                if key in required:
                    raise
                return False
            return True

        for key in wanted:
            add(key)
        dependent = schema.get("dependentRequired") or {}
        for _ in range(len(dependent) + 1):
            missing = [d for key, deps in dependent.items() if key in result
                       for d in deps if d not in result]
            if not missing:
                break
            for key in missing:
                add(key)
        least = schema.get("minProperties", 0)
        if is_number(least) and len(result) < least:
            extra = [p for p in properties if p not in result]
            extra += list(self._new_keys(schema, resolver, int(least)))
            for key in extra:
                if len(result) >= least:
                    break
                add(key)
        most = schema.get("maxProperties")
        if is_number(most):
            for key in reversed([k for k in result if k not in required]):
                if len(result) <= most:
                    break
                del result[key]
        return result

    def _new_keys(self, schema: dict[str, Any], resolver: Any, count: int) -> Iterator[str]:
        names = schema.get("propertyNames", True)
        made = 0
        for pattern in schema.get("patternProperties") or {}:
            for stretch in range(3):
                key = from_pattern(pattern, stretch)
                if key is not None and self.schemas.ok(names, resolver, key):
                    made += 1
                    yield key
                    break
        if schema.get("additionalProperties", True) is False:
            return
        for number in range(1, count + 3):
            key = "example" if number == 1 else f"example{number}"
            if made < count + 2 and self.schemas.ok(names, resolver, key):
                made += 1
                yield key

    def _array(self, schema: dict[str, Any], resolver: Any, name: str, variant: int,
               depth: int) -> list[Any]:
        prefix = schema.get("prefixItems")
        items = schema.get("items", True)
        if isinstance(items, list):  # drafts before 2020-12: items as a tuple
            prefix, items = items, schema.get("additionalItems", True)
        prefix = prefix if isinstance(prefix, list) else []
        least = int(schema.get("minItems", 0) or 0)
        contains = schema.get("contains")
        if contains is not None:
            least = max(least, int(schema.get("minContains", 1) or 0))
        count = max(least, 1 if self.full and depth < FULL_DEPTH else 0, len(prefix) if
                    self.full else 0)
        most = schema.get("maxItems")
        if is_number(most):
            count = min(count, int(most))
        if items is False:
            count = min(count, len(prefix))
        singular = _singular(name)
        result: list[Any] = []
        for index in range(count):
            sub = prefix[index] if index < len(prefix) else items
            if contains is not None and index == len(prefix):
                sub = {"allOf": [sub, contains]}
            try:
                result.append(self.value(sub, resolver, singular, variant + index, depth + 1))
            except Cannot:
                if index < least:
                    raise
                break
        return result

    def _string(self, schema: dict[str, Any], resolver: Any, name: str, variant: int,
                depth: int) -> str:
        least = schema.get("minLength", 0)
        most = schema.get("maxLength")
        candidates = []
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in _FORMATS:
            candidates.append(_FORMATS[fmt](variant))
        natural = _natural(name, variant)
        candidates += [natural, re.sub(r"\W+", "_", natural.lower()), "example"]
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            candidates += [s for s in (from_pattern(pattern, n) for n in range(4)) if s]
        for candidate in candidates:
            fitted = fit(candidate, least, most)
            if self.schemas.ok(schema, resolver, fitted):
                return fitted
        raise Cannot(f"no text made here fits {name or 'the payload'}")

    def _integer(self, schema: dict[str, Any], resolver: Any, name: str, variant: int,
                 depth: int) -> int:
        value = self._number(schema, resolver, name, variant, depth, integer=True)
        return int(value)

    def _number(self, schema: dict[str, Any], resolver: Any, name: str, variant: int,
                depth: int, *, integer: bool = False) -> int | float:
        """1 (plus ``variant``), moved inside the bounds and onto a multiple of
        ``multipleOf``."""
        low, high, low_open, high_open = bounds(schema)
        if integer:
            start = None if low is None else math.floor(low) + 1 if low_open else math.ceil(low)
            end = None if high is None else math.ceil(high) - 1 if high_open else \
                math.floor(high)
        else:
            wide = low is None or high is None or high - low > 2
            middle = None if wide else (low + high) / 2
            start = None if low is None else low if not low_open else \
                low + 1 if middle is None else middle
            end = None if high is None else high if not high_open else \
                high - 1 if middle is None else middle
        target: float = (1 if start is None else start) + variant
        if end is not None and target > end:
            target = end
        step = schema.get("multipleOf")
        if is_number(step) and step > 0:
            target = math.ceil(target / step) * step
            if end is not None and target > end:
                target = math.floor(end / step) * step
            target = round(target, 10)
        if isinstance(target, float) and target.is_integer():
            target = int(target)
        return target

    def _boolean(self, schema: dict[str, Any], resolver: Any, name: str, variant: int,
                 depth: int) -> bool:
        return variant % 2 == 0

    def _null(self, schema: dict[str, Any], resolver: Any, name: str, variant: int,
              depth: int) -> None:
        return None


def _preferred(schema: dict[str, Any], variant: int) -> list[Any]:
    """The values a schema names itself: const, default, examples, enum (rotated by
    ``variant``, so that the items of a list differ)."""
    if "const" in schema:
        return [schema["const"]]
    found: list[Any] = []
    examples = schema.get("examples") if isinstance(schema.get("examples"), list) else []
    enum = schema.get("enum") if isinstance(schema.get("enum"), list) else []
    if variant == 0 and "default" in schema:
        found.append(schema["default"])
    for values in (examples, enum):
        if values:
            shift = variant % len(values)
            found += values[shift:] + values[:shift]
    return found


def _natural(name: str, variant: int) -> str:
    """``Example title``: a readable value for a field, numbered for list items."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    words = re.sub(r"[\W_]+", " ", words).strip().lower()
    text = f"Example {words}" if words else "Example"
    return f"{text} {variant + 1}" if variant else text


def _singular(name: str) -> str:
    """``tags`` → ``tag``: the name of one item of a list field."""
    if name.endswith("ies") and len(name) > 4:
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss") and len(name) > 3:
        return name[:-1]
    return name


def fit(text: str, least: Any, most: Any) -> str:
    """``text`` padded with ``x`` to ``least`` characters, cut to ``most`` (when numbers)."""
    if is_number(least) and len(text) < least:
        text += "x" * (int(least) - len(text))
    if is_number(most) and len(text) > most:
        text = text[:int(most)]
    return text
