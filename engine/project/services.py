"""What a project calls out to (sessions, loading, one writer per export format);
replaceable in tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.domain import Document
from engine.exporters.outputs import DEFAULT_WRITERS, ExportJob, Writer
from engine.session import Session

__all__ = ["DEFAULT_WRITERS", "ExportJob", "Services", "Writer", "default_loader",
           "default_session_factory"]


def default_session_factory(config: Any, mapping: Any | None) -> Any:
    return Session(config, mapping=mapping)


def default_loader(path: Path, *, password: str | None = None) -> Document:
    # Deferred: ingest loads the PDF and OCR libraries.
    from engine.ingest import load_document

    return load_document(path, password=password)


@dataclass(frozen=True)
class Services:
    """What a project calls out to; replaceable in tests. Picklable (module functions),
    because batch workers rebuild their session from it. ``writers`` replaces the default
    writer (``engine.exporters.outputs``) of some formats."""

    session_factory: Callable[[Any, Any | None], Any] = default_session_factory
    loader: Callable[..., Document] = default_loader
    writers: Mapping[str, Writer] = field(default_factory=lambda: dict(DEFAULT_WRITERS))
