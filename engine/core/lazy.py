"""Package attributes imported on first read (PEP 562), for packages whose members pull in
heavy dependencies (SQLAlchemy, the compiled rules) that many importers never use: the
desktop shows its window before any project is opened, ``clearnote detect`` needs no store.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(
    package: str, table: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: ``table`` maps each lazy name to the
    module defining it (``"module:attr"`` where the package renames it)."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        target = table.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attr = target.partition(":")
        value = getattr(importlib.import_module(module), attr or name)
        namespace[name] = value  # later reads skip __getattr__
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__
