"""Benchmark: the size of ``system_prompt(domain)`` for the ready domains, in characters and
approximate tokens.

Run: ``python tests/bench/bench_prompt.py`` (``--quick`` prints the same figures; measuring is
already fast). Asserts nothing. Tokens are counted two ways:

- ``chars/4``: the usual rule of thumb for English text and JSON (always printed);
- ``o200k`` / ``cl100k``: real BPE counts for OpenAI's tokenizers, when the optional package
  ``bpe-openai`` is installed (it embeds the vocabularies: nothing is downloaded). Other
  models' tokenizers (Claude, Llama) differ by some percent; the figure is an approximation.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from dial_notebook.agents import system_prompt
from dial_notebook.domains.notes import NotesDomain


def domains() -> dict[str, Any]:
    found: dict[str, Any] = {"(DIAL only)": None, "notes": NotesDomain()}
    try:
        from dial_notebook.domains.dataframes import DataFramesDomain
    except ImportError:  # pandas missing: the dataframes domain is an extra
        return found
    found["dataframes"] = DataFramesDomain({})
    return found


def counters() -> dict[str, Callable[[str], int]]:
    counting: dict[str, Callable[[str], int]] = {"chars/4": lambda text: round(len(text) / 4)}
    try:
        import bpe_openai
    except ImportError:
        return counting
    for name in ("o200k_base", "cl100k_base"):
        encoding = bpe_openai.get_encoding(name)
        counting[name.removesuffix("_base")] = lambda text, e=encoding: len(e.encode(text))
    return counting


def main() -> None:
    quick = "--quick" in sys.argv
    counting = counters()
    header = f"{'domain':<14}{'chars':>8}" + "".join(f"{name:>10}" for name in counting)
    print("system_prompt(domain) size" + (" (quick)" if quick else ""))
    print(header)
    for name, domain in domains().items():
        prompt = system_prompt(domain)
        figures = "".join(f"{count(prompt):>10}" for count in counting.values())
        print(f"{name:<14}{len(prompt):>8}{figures}")


if __name__ == "__main__":
    main()
