"""A cheaper PySide6 import hook: the desktop's cold start imports SQLAlchemy, pypdfium2 and
the engine after Qt, and PySide6 inspects every one of those modules.

Importing PySide6 replaces ``__import__``; after each import of a Python module it asks
whether the module uses PySide6 (for its opt-in ``__feature__`` switches) by calling
``inspect.getsource`` and searching the text for "PySide6". ``inspect`` goes through
``linecache``, which splits and keeps every file's lines: about a tenth of the time until
the first highlights of a 10-page PDF (measured with py-spy; the napari project reported
the same cost, napari#8584). Reading the file's bytes and searching them gives the same
answer for every ``.py`` file (the needle is ASCII, and Python source is ASCII-compatible);
anything else keeps PySide6's own check.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any


def _source_mentions_pyside(original: Callable[[ModuleType], bool]
                            ) -> Callable[[ModuleType], bool]:
    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return original(module)
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return original(module)

    uses_pyside.__wrapped__ = original  # type: ignore[attr-defined]
    return uses_pyside


def install() -> bool:
    """Swap in the byte search; False (and nothing changed) when this PySide6 has no such
    check, so a future PySide6 that drops or renames it costs nothing."""
    import PySide6.QtCore  # noqa: F401 - installs shiboken's import hook

    feature: Any = sys.modules.get("shibokensupport.feature")  # PySide6 internals
    original = getattr(feature, "_mod_uses_pyside", None)
    if not callable(original):
        return False
    if hasattr(original, "__wrapped__"):  # already installed
        return True
    feature._mod_uses_pyside = _source_mentions_pyside(original)
    return True
