"""The kept script of a tables domain: one plain Ibis program of every kept change, in order.

It opens the sources the changes read as the domain opened them (``_sources``: the same
files, a frame passed in, a table of the same connection), then runs each change's code
(``_changes``). Run on a fresh connection, it gives expressions whose rows are the domain's.

    >>> print(script([("Sort t by a", 't = t.order_by([ibis.asc("a", nulls_first=False)])')],
    ...              ['t = con.read_parquet("t.parquet", table_name="t")'], "duckdb", own=True))
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

from collections.abc import Sequence

from .._pandas_code import comment


def script(steps: Sequence[tuple[str, str]], opens: Sequence[str], backend_name: str, *,
           own: bool) -> str:
    """The script of (description, code) steps after the ``opens`` lines of their sources;
    ``own``: the tables are on the domain's own in-process DuckDB (the script makes one)."""
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
