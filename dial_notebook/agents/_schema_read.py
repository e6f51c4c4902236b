"""Reading an action's JSON Schema for the payload maker: ``$ref``s, ``allOf``, and what it says.

``Schemas`` holds one action's schema with the domain's other schemas (for ``$ref``: nothing is
fetched) and checks any value against any subschema with jsonschema (formats asserted).
``flatten`` follows a subschema's ``$ref``s and merges its ``allOf`` (``merge``), keeping its
``if`` / ``then`` / ``else`` apart; ``property_schema``, ``schema_types`` and ``bounds`` read
what a flat schema says about a property, the types it allows and its numeric limits.
``Cannot`` is raised for a part of a schema that no value made here satisfies.

Used by ``_schema_values.py`` (making values) and ``_schema_breaks.py`` (breaking them); it
uses no other module of the package.

    >>> schemas = Schemas({"allOf": [{"type": "integer", "minimum": 1}, {"minimum": 5}]}, [])
    >>> flatten(schemas, schemas.root, schemas.resolver)[0]
    {'type': 'integer', 'minimum': 5}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any


class Cannot(Exception):
    """A part of the schema that no value made here satisfies."""


def is_number(value: Any) -> bool:
    """Whether ``value`` is a JSON number (an int or a float, not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


class Schemas:
    """One action's schema: ``$ref`` lookups within the domain's schemas, and a jsonschema
    check of any subschema (formats asserted), as the value being made is built."""

    def __init__(self, root: Any, others: list[Any]) -> None:
        import jsonschema
        import jsonschema.validators
        import referencing.jsonschema
        from jsonschema_specifications import REGISTRY
        from referencing import Registry, Resource

        self.root = root
        cls = jsonschema.validators.validator_for(root, default=jsonschema.Draft202012Validator)
        specification = referencing.jsonschema.specification_with(
            cls.META_SCHEMA.get("$schema", ""), default=referencing.jsonschema.DRAFT202012)
        resources = []
        for schema in others:
            if isinstance(schema, dict):
                resource = Resource.from_contents(
                    schema, default_specification=referencing.jsonschema.DRAFT202012)
                if resource.id():
                    resources.append((resource.id(), resource))
        registry = Registry().with_resources(resources)
        self.specification = specification
        self.validator = cls(root, registry=registry, format_checker=cls.FORMAT_CHECKER)
        self.resolver = REGISTRY.combine(registry).resolver_with_root(
            specification.create_resource(root))

    def ok(self, schema: Any, resolver: Any, value: Any) -> bool:
        """Whether ``value`` satisfies ``schema`` (``$ref``s read with ``resolver``)."""
        try:
            return bool(self.validator.evolve(schema=schema, _resolver=resolver).is_valid(value))
        except Exception:  # an unresolvable ref, a pattern re cannot read, a recursion
            return False

    def lookup(self, ref: str, resolver: Any) -> tuple[Any, Any]:
        """What ``ref`` names, and the resolver to read inside it (``Cannot`` if nothing)."""
        try:
            resolved = resolver.lookup(ref)
        except Exception:
            raise Cannot(f"$ref {ref!r} does not resolve") from None
        return resolved.contents, resolved.resolver

    def enter(self, schema: Any, resolver: Any) -> Any:
        """The resolver inside ``schema`` (a subschema with its own ``$id``)."""
        if isinstance(schema, dict) and isinstance(self.specification.id_of(schema), str):
            return resolver.in_subresource(self.specification.create_resource(schema))
        return resolver

    def flat_root_with_resolver(self) -> tuple[dict[str, Any], Any]:
        """The root schema flattened, and the resolver inside it ({} when it cannot be)."""
        try:
            flat, resolver, _ = flatten(self, self.root, self.resolver)
        except Cannot:
            return {}, self.resolver
        return flat, resolver

    def flat_root(self) -> dict[str, Any]:
        """The root schema flattened ({} when it cannot be)."""
        return self.flat_root_with_resolver()[0]


def flatten(schemas: Schemas, schema: Any, resolver: Any
            ) -> tuple[dict[str, Any], Any, list[tuple[Any, Any, Any]]]:
    """``schema`` with its ``$ref``s followed and its ``allOf`` merged in; its conditionals
    (``if`` / ``then`` / ``else``) apart."""
    result: dict[str, Any] = {}
    conditionals: list[tuple[Any, Any, Any]] = []
    parts = [schema]
    followed = 0
    while parts:
        part = parts.pop(0)
        if part is True:
            continue
        if part is False or not isinstance(part, dict):
            raise Cannot("the schema allows nothing here")
        followed += 1
        if followed > 50:
            raise Cannot("the schema refers to itself without end")
        resolver = schemas.enter(part, resolver)
        rest = dict(part)
        ref = rest.pop("$ref", None) or rest.pop("$dynamicRef", None)
        if isinstance(ref, str):
            target, resolver = schemas.lookup(ref, resolver)
            parts[:0] = [target, rest]
            continue
        parts.extend(rest.pop("allOf", None) or [])
        if "if" in rest:
            conditionals.append((rest.pop("if"), rest.pop("then", None), rest.pop("else", None)))
        rest.pop("then", None)
        rest.pop("else", None)
        result = merge(result, rest)
    return result, resolver, conditionals


_LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
_UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")


def merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two schemas a value must both satisfy, as one (what cannot be merged keeps ``a``'s:
    the check of the value made says whether it fits)."""
    merged = dict(a)
    for key, value in b.items():
        if key not in merged:
            merged[key] = value
        elif key == "properties" and isinstance(value, dict) and isinstance(merged[key], dict):
            properties = dict(merged[key])
            for name, sub in value.items():
                properties[name] = {"allOf": [properties[name], sub]} if name in properties \
                    else sub
            merged[key] = properties
        elif key == "required" and isinstance(value, list):
            merged[key] = [*merged[key], *(r for r in value if r not in merged[key])]
        elif key == "type":
            left = merged[key] if isinstance(merged[key], list) else [merged[key]]
            right = value if isinstance(value, list) else [value]
            both = [t for t in left if t in right or (t == "integer" and "number" in right)]
            both += [t for t in right if t == "integer" and "number" in left and t not in both]
            merged[key] = both or left
        elif key == "enum" and isinstance(value, list):
            merged[key] = [v for v in merged[key] if v in value]
        elif key in _LOWER and is_number(value) and is_number(merged[key]):
            merged[key] = max(merged[key], value)
        elif key in _UPPER and is_number(value) and is_number(merged[key]):
            merged[key] = min(merged[key], value)
        elif key in ("additionalProperties", "items", "unevaluatedProperties") and \
                merged[key] != value:
            merged[key] = False if False in (merged[key], value) else \
                {"allOf": [merged[key], value]}
    return merged


def property_schema(schema: Mapping[str, Any], key: str) -> Any:
    """The subschema an object schema gives the property ``key``: from ``properties``, a
    matching ``patternProperties``, else ``additionalProperties`` (True when absent).

        >>> property_schema({"additionalProperties": {"type": "integer"}}, "n")
        {'type': 'integer'}
    """
    properties = schema.get("properties") or {}
    if key in properties:
        return properties[key]
    for pattern, sub in (schema.get("patternProperties") or {}).items():
        try:
            if re.search(pattern, key):
                return sub
        except re.error:
            continue
    additional = schema.get("additionalProperties", True)
    return True if additional is None else additional


_OBJECT_WORDS = ("properties", "required", "additionalProperties", "patternProperties",
                 "minProperties", "maxProperties", "propertyNames", "dependentRequired",
                 "unevaluatedProperties")
_ARRAY_WORDS = ("items", "prefixItems", "minItems", "maxItems", "contains", "uniqueItems")
_STRING_WORDS = ("minLength", "maxLength", "pattern", "format")
_NUMBER_WORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def schema_types(schema: dict[str, Any], top: bool) -> list[str]:
    """The types a flat schema allows, in the order to try them: its ``type`` (null last),
    else the type its keywords imply (an object at the ``top``), else any."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        named = [k for k in kind if isinstance(k, str)]
        return [k for k in named if k != "null"] + [k for k in named if k == "null"]
    if any(word in schema for word in _OBJECT_WORDS) or top:
        return ["object"]
    if any(word in schema for word in _ARRAY_WORDS):
        return ["array"]
    if any(word in schema for word in _NUMBER_WORDS):
        return ["number"]
    if any(word in schema for word in _STRING_WORDS):
        return ["string"]
    return ["string", "number", "boolean", "object", "array", "null"]


def bounds(schema: dict[str, Any]) -> tuple[float | None, float | None, bool, bool]:
    """A flat schema's numeric limits: (low, high, whether low is exclusive, whether high is)."""
    low, high = schema.get("minimum"), schema.get("maximum")
    low = low if is_number(low) else None
    high = high if is_number(high) else None
    low_open = high_open = False
    exclusive_low, exclusive_high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if exclusive_low is True:  # draft 4: a flag on minimum
        low_open = low is not None
    elif is_number(exclusive_low) and (low is None or exclusive_low >= low):
        low, low_open = exclusive_low, True
    if exclusive_high is True:
        high_open = high is not None
    elif is_number(exclusive_high) and (high is None or exclusive_high <= high):
        high, high_open = exclusive_high, True
    return low, high, low_open, high_open
