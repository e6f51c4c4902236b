"""The kept script of a tables domain: one plain Ibis program of every kept change, in order.

It opens the sources the changes read as the domain opened them (``_sources``: the same
files, a frame passed in, a table of the same connection), then runs each change's code
(``_changes``). Run on a fresh connection, it gives expressions whose rows are the domain's.

    >>> sort = Step("t", "t", "Sort t by a", 't = t.order_by([ibis.asc("a", nulls_first=False)])')
    >>> print(script([sort], {"t": 't = con.read_parquet("t.parquet", table_name="t")'},
    ...              "duckdb", own=True))
    # The kept changes of the conversation, in Ibis (pip install "ibis-framework[duckdb]").
    import ibis
    <BLANKLINE>
    con = ibis.duckdb.connect()
    t = con.read_parquet("t.parquet", table_name="t")
    <BLANKLINE>
    # 1. Sort t by a
    t = t.order_by([ibis.asc("a", nulls_first=False)])
    <BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .._pandas_code import comment


@dataclass(frozen=True)
class Step:
    """A change kept: the table it read, the name it bound, its preview, its code; or (with
    ``replaced``) the person's new source for ``into``, its code opening it."""

    source: str
    into: str
    description: str
    code: str
    replaced: bool = False  # the person replaced the source of ``into`` (not undoable)


def script(steps: Sequence[Step], opens: Mapping[str, str], backend_name: str, *,
           own: bool) -> str:
    """The script of the ``steps`` kept, in order, after the lines that open the sources
    they read (``opens``: each source's name and line). A replaced source is opened where
    the replace came, when a change touched its table; ``own``: the tables are on the
    domain's own in-process DuckDB (the script makes one)."""
    written, made, starts = [], set(), []
    changed = {n for step in steps if not step.replaced for n in (step.source, step.into)}
    for step in steps:
        if step.replaced:
            if step.into in changed:
                made.add(step.into)
                written.append((step.description, step.code))
            continue
        if step.source not in made and step.source not in starts:
            starts.append(step.source)
        made.add(step.into)
        written.append((step.description, step.code))
    return _lines(written, [opens[name] for name in starts if name in opens], backend_name,
                  own=own)


def _lines(steps: Sequence[tuple[str, str]], opens: Sequence[str], backend_name: str, *,
           own: bool) -> str:
    """The script of (description, code) steps after the ``opens`` lines of their sources."""
    name = comment(backend_name)
    lines = [f'# The kept changes of the conversation, in Ibis (pip install "ibis-framework'
             f'[{name}]").', "import ibis", ""]
    if own:
        lines.append("con = ibis.duckdb.connect()")
    else:
        lines.append(f"# con: the {name} connection the tables are on "
                     f"(ibis.{name}.connect(...)): pass it in")
    lines += list(opens)
    if not steps:
        lines += ["", "# (no changes were kept)"]
    for number, (description, code) in enumerate(steps, 1):
        lines += ["", comment(f"# {number}. {description}"), code]
    return "\n".join(lines) + "\n"
