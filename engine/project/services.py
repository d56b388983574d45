"""What a project calls out to (sessions, loading, one writer per export format);
replaceable in tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.domain import DeidentifiedText, Document, Span, SurrogateMode
from engine.session import Session


@dataclass(frozen=True)
class ExportJob:
    document: Document
    spans: tuple[Span, ...]
    deid: DeidentifiedText
    mode: SurrogateMode


Writer = Callable[[ExportJob, Path], None]


def default_session_factory(config: Any, mapping: Any | None) -> Any:
    return Session(config, mapping=mapping)


def default_loader(path: Path, *, password: str | None = None) -> Document:
    # Deferred: ingest loads the PDF and OCR libraries.
    from engine.ingest import load_document

    return load_document(path, password=password)


# The exporters import pypdfium2 and the PDF writer: deferred until a file is written.
def _write_txt(job: ExportJob, path: Path) -> None:
    from engine.exporters import write_text

    write_text(job.deid, path)


def _write_json(job: ExportJob, path: Path) -> None:
    from engine.exporters import write_json_sidecar

    write_json_sidecar(job.document, job.spans, job.deid, path)


def _write_pdf(job: ExportJob, path: Path) -> None:
    from engine.exporters import write_redacted_pdf

    source = Path(job.document.source_path or "")
    write_redacted_pdf(source, job.document, job.spans, path, surrogate=job.deid,
                       mode="redacted")


DEFAULT_WRITERS: dict[str, Writer] = {"txt": _write_txt, "json": _write_json,
                                      "pdf": _write_pdf}


@dataclass(frozen=True)
class Services:
    """What a project calls out to; replaceable in tests. Picklable (module functions),
    because batch workers rebuild their session from it."""

    session_factory: Callable[[Any, Any | None], Any] = default_session_factory
    loader: Callable[..., Document] = default_loader
    writers: Mapping[str, Writer] = field(default_factory=lambda: dict(DEFAULT_WRITERS))
