"""One lock for PDFium in this process.

PDFium is not thread-safe: no two threads may call it at the same time, not even on
different documents (pypdfium2's documentation). The desktop runs ingest, page rendering,
box placement and exports on a thread pool, and two of them on PDFs at once crashed the
process (a segfault in ``get_page`` beside a ``render``). Every call into PDFium holds
``PDFIUM``; it is re-entrant, so a locked function may call another. Slow work that is not
PDFium (OCR of a rendered page) runs outside it. Worker processes each have their own.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

PDFIUM = threading.RLock()

P = ParamSpec("P")
R = TypeVar("R")


def serialized(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` runs holding ``PDFIUM``."""

    @functools.wraps(fn)
    def locked(*args: P.args, **kwargs: P.kwargs) -> R:
        with PDFIUM:
            return fn(*args, **kwargs)
    return locked
