"""The official JSON-Schema-Test-Suite (draft 2020-12, its optional and format cases too) run
through ``SchemaDomain.validate``: no case raises, and every verdict is plain jsonschema's.

The suite is vendored under tests/data/json-schema-test-suite (MIT; see its README). Three
things differ from plain jsonschema by design, and each is checked here rather than skipped:

- a schema that needs something from outside the domain — a remote or file ``$ref``, a custom
  ``$schema`` metaschema served from the suite's localhost:1234 — is refused when the action is
  defined (nothing is ever fetched);
- a ``pattern`` that Python's ``re`` cannot compile (ECMA-262's ``\\p{Letter}``, ``\\cC``) is
  refused when the action is defined, by jsonschema's own schema check; plain jsonschema raises
  ``re.error`` while validating instead;
- a ``None`` payload is read as ``{}`` (the runtime's rule for a suggestion without payload),
  so its verdict is plain jsonschema's on ``{}``.

A root schema that is ``true`` or ``false`` goes through the domain's validator directly
(an action's schema is an object).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry

from dial_notebook.domains import SchemaDomain
from dial_notebook.domains._validation import PayloadValidator

SUITE = Path(__file__).resolve().parents[1] / "data" / "json-schema-test-suite" / "draft2020-12"
FILES = sorted(SUITE.rglob("*.json"))
FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER
REFUSED_AT_DEFINITION = re.compile(
    r"is not one of this domain's schemas|is not a JSON Schema draft this package knows"
    r"|is not a 'regex'")


def test_the_suite_is_here_with_its_licence():
    assert len(FILES) >= 80
    assert (SUITE.parent / "LICENSE").read_text().startswith("Copyright (c) 2012 Julian Berman")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SUITE)))
def test_every_case_validates_without_raising_as_plain_jsonschema_does(path):
    checked = 0
    for group in json.loads(path.read_text(encoding="utf-8")):
        schema, where = group["schema"], f"{path.name}: {group['description']}"
        domain = None
        if isinstance(schema, bool):
            validator = PayloadValidator(schema, registry=Registry())
            ours = validator.validate
        else:
            domain = SchemaDomain("suite")
            try:
                domain.add_action("a", schema=schema)
            except ValueError as refused:
                assert REFUSED_AT_DEFINITION.search(str(refused)), f"{where}: {refused}"
                continue

            def ours(data: Any, domain: SchemaDomain = domain) -> dict[str, Any]:
                return domain.validate("a", data)

        plain = jsonschema.Draft202012Validator(schema, format_checker=FORMATS,
                                                registry=Registry())
        for case in group["tests"]:
            data = case["data"]
            verdict = ours(data)  # never raises
            expected = plain.is_valid({} if data is None and domain is not None else data)
            assert verdict["ok"] is expected, f"{where}: {case['description']}: {verdict}"
            if not verdict["ok"]:
                assert verdict["hint"] and verdict["code"], f"{where}: {case['description']}"
            checked += 1
    assert checked or path.name in {"refRemote.json", "cross-draft.json", "vocabulary.json",
                                    "format-assertion.json"}


def test_only_what_needs_the_outside_or_ecma_regex_is_refused():
    """The refusals are the suite's remote / file refs and metaschemas (every group of
    refRemote.json among them) and its ECMA-only patterns — nothing else."""
    refused = []
    for path in FILES:
        for group in json.loads(path.read_text(encoding="utf-8")):
            if isinstance(group["schema"], bool):
                continue
            try:
                SchemaDomain("suite").add_action("a", schema=group["schema"])
            except ValueError:
                refused.append(str(path.relative_to(SUITE)))
    remote = {"refRemote.json", "dynamicRef.json", "optional/cross-draft.json",
              "vocabulary.json", "optional/format-assertion.json"}
    ecma = {"optional/ecmascript-regex.json", "pattern.json", "patternProperties.json"}
    assert set(refused) <= remote | ecma
    groups = json.loads((SUITE / "refRemote.json").read_text(encoding="utf-8"))
    assert refused.count("refRemote.json") == len(groups)
