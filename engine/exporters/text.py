"""De-identified plain text (UTF-8, LF)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import DeidentifiedText, Document, Span
from engine.core.files import write_atomic
from engine.exporters.verify import verify_text_output


def write_text(deid: DeidentifiedText, path: str | Path, *, doc: Document | None = None,
               spans: Sequence[Span] | None = None, ctx: RunContext | None = None) -> Path:
    """Write ``deid.text``. Given the source ``doc`` and its ``spans`` the written file is
    re-read and checked for any original PHI string (ExportVerificationError, file deleted).
    ``ctx`` is polled for cancellation; a cancelled write leaves no file."""
    path = Path(path)
    if ctx is not None:
        ctx.check()

    def verify(tmp: Path) -> None:
        if doc is not None and spans is not None:
            verify_text_output(tmp.read_text(encoding="utf-8"), doc, spans, path.name,
                               ctx=ctx)

    return write_atomic(path, deid.text.encode("utf-8"), verify)
