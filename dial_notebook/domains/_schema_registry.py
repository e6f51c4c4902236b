"""The schemas one ``SchemaDomain``'s ``$ref`` may reach, and its compiled validators.

Only the domain's shared schemas and its actions' schemas that carry an ``$id`` are in the
registry: nothing else is ever resolved, and nothing is fetched. Each action's validator is
compiled on first use and dropped whenever the registry changes.

    >>> schemas = SchemaRegistry()
    >>> schemas.add({"$id": "urn:colour", "enum": ["red", "blue"]}, required=True)
    >>> schemas.validator("paint", {"$ref": "urn:colour"}).validate("green")["ok"]
    False
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import referencing.jsonschema
from referencing import Registry, Resource

if TYPE_CHECKING:
    from ._validation import PayloadValidator

# ._validation is imported when first needed (see _action_table): jsonschema is slow to import.


class SchemaRegistry:
    """The schemas ``$ref`` may reach (by ``$id``), and a validator per action name."""

    def __init__(self) -> None:
        self._resources: dict[str, Resource[Any]] = {}
        # Compiled validators by action name, dropped whenever the registry changes.
        self._validators: dict[str, PayloadValidator] = {}

    def add(self, schema: dict[str, Any], *, required: bool) -> None:
        """Let ``$ref`` reach ``schema`` by its ``$id``; without one, ``ValueError`` when
        ``required`` (a shared schema), else nothing (an action's schema)."""
        resource = Resource.from_contents(
            schema, default_specification=referencing.jsonschema.DRAFT202012
        )
        uri = resource.id()
        if uri is None:
            if required:
                raise ValueError("each shared schema needs an $id for $ref to name it")
            return
        self._resources[uri] = resource
        self._validators.clear()

    def registry(self) -> Registry:
        """The schemas as a ``referencing`` registry."""
        return Registry().with_resources(self._resources.items())

    def validator(self, name: str, schema: dict[str, Any]) -> PayloadValidator:
        """The bounded validator of the action ``name``, whose schema is ``schema``."""
        from ._validation import PayloadValidator

        validator = self._validators.get(name)
        if validator is None:
            validator = PayloadValidator(schema, registry=self.registry())
            self._validators[name] = validator
        return validator

    def verify(self, schema: dict[str, Any]) -> None:
        """``ValueError`` when ``schema`` (an action's) is not a valid JSON Schema here, its
        refs included; it is then taken out of the registry again."""
        from ._validation import check_schema

        try:
            check_schema(schema, self.registry())
        except ValueError:
            for uri, resource in list(self._resources.items()):
                if resource.contents is schema:
                    del self._resources[uri]
            self._validators.clear()
            raise
