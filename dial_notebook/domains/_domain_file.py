"""A ``SchemaDomain`` as a file: JSON or YAML, read (``read_domain_file``) and written
(``write_domain_file``), functions left out (they are bound in Python).

A domain file holds ``{name, description, context, schemas, actions}``; each action as
``SchemaDomain.from_dict`` reads it, without ``run`` or any other function. YAML needs
PyYAML (the ``yaml`` extra).

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "d.json"
    >>> _ = write_domain_file(path, {"name": "d", "actions": {}})
    >>> read_domain_file(path)
    {'name': 'd', 'actions': {}}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ._action_spec import FUNCTION_KEYS
from ._phrasing import did_you_mean

#: The keys a domain file may hold.
FILE_KEYS = ("name", "description", "context", "schemas", "actions")


def _yaml(doing: str) -> Any:
    try:
        import yaml
    except ImportError:
        raise ImportError(
            f'{doing} needs PyYAML: pip install "dial-notebook[yaml]"'
        ) from None
    return yaml


def _is_yaml(path: Path) -> bool:
    return path.suffix.lower() in (".yaml", ".yml")


def read_domain_file(path: Path) -> dict[str, Any]:
    """The object in the domain file at ``path``: ``ValueError`` for a file that is no object,
    holds an unknown key, or names a function."""
    source = path.read_text(encoding="utf-8")
    if _is_yaml(path):
        data = _yaml("reading a domain from YAML").safe_load(source)
    else:
        data = json.loads(source)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a domain file holds an object with 'actions'")
    unknown = [key for key in data if key not in FILE_KEYS]
    if unknown:
        hint = did_you_mean(unknown[0], FILE_KEYS)
        raise ValueError(f"{path}: unknown key {unknown[0]!r}{hint}")
    for action, spec in (data.get("actions") or {}).items():
        for key in FUNCTION_KEYS:
            if isinstance(spec, dict) and key in spec:
                raise ValueError(
                    f"{path}: action {action!r}: bind {key} in Python, not in the file"
                )
    return data


def write_domain_file(path: Path, data: dict[str, Any]) -> Path:
    """Write ``data`` at ``path``: YAML for ``.yaml`` / ``.yml``, else JSON; returns the path."""
    if _is_yaml(path):
        text = _yaml("writing a domain as YAML").safe_dump(
            data, sort_keys=False, allow_unicode=True)
    else:
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")
    return path
