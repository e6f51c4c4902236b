"""Domains: what an agent may propose, described with JSON Schemas, and two ready domains.

- ``SchemaDomain``: actions whose payloads (the agent's, and the person's edits) are validated
  by jsonschema, with a readable hint for every refusal.
- ``NotesDomain``: notes in memory (the runtime spec's example vocabulary).
- ``DataFramesDomain``: EDA over pandas DataFrames (pandas is the ``data`` extra);
  ``load_sales()`` gives a small data set to explore.
- ``ActionError``: what a run function raises to fail with a code, a field and a hint.
- ``Rules``: the person's "always allow like this" rules, a JSON Schema each.
- ``PayloadValidator`` and ``check_schema``: the one bounded payload validator that the domains,
  the rules and the evaluation's scenarios share (within the reply's time budget, nothing
  fetched).
"""

from .. import _public
from ._errors import ActionError
from ._rules import Rule, Rules
from ._sales import load_sales
from ._schema_domain import ActionSpec, RunRecord, SchemaDomain
from ._validation import PayloadValidator, check_schema
from .dataframes import DataFramesDomain
from .mcp import McpDomain
from .notes import NotesDomain
from .tables import TablesDomain

# exported at the package's top too: shown there as dial_notebook.X
_public.shown_as_top_level(ActionError, DataFramesDomain, McpDomain, NotesDomain, Rule, Rules,
                          SchemaDomain, TablesDomain)

__all__ = [
    "ActionError",
    "ActionSpec",
    "DataFramesDomain",
    "McpDomain",
    "NotesDomain",
    "PayloadValidator",
    "Rule",
    "Rules",
    "RunRecord",
    "SchemaDomain",
    "TablesDomain",
    "check_schema",
    "load_sales",
]
