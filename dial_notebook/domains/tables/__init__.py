"""Tables of any size: the analysis domain on Ibis (an in-process DuckDB by default).

``TablesDomain`` speaks the vocabulary of ``DataFramesDomain`` (the same actions, payloads and
result shapes) over Ibis table expressions: Parquet and CSV files read lazily by the engine,
pandas or polars frames, or tables of any Ibis backend. Nothing here imports Ibis until a
domain is made (``pip install "dial-notebook[tables]"``).

Inside: the domain (``domain``), its sources (``_sources``), the engine's side of reading rows
(``_engine``), column expressions as Ibis (``_ibis_expressions``), each change and its Ibis code
(``_changes``), the checks (``_checks``), the read-only actions (``_reads``), the dry runs
(``_review``), the kept script (``_script``), the way to the engine and its row counts
(``_rows``), time-bounded queries (``_bounded``) and charts
from engine-side aggregates (``_engine_charts``).
"""

from .domain import TablesDomain

__all__ = ["TablesDomain"]
