"""CIRE flags in words a reviewer can act on: the term the replacement took, its category
and what it became ("“Venous Doppler” — procedure, replaced by “Greg Russell”"). Built in
the worker from the engine's flags; shown only in the window (never logged)."""

from __future__ import annotations

from typing import Any

from desktop.records import DiffFlag
from engine.core.domain import DeidentifiedText, Document

MAX_QUOTE = 40  # characters of a quoted term or replacement


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return f"“{text[:MAX_QUOTE]}{'…' if len(text) > MAX_QUOTE else ''}”"


def flag_entry(flag: Any, doc: Document, deid: DeidentifiedText) -> DiffFlag:
    """One engine CIRE flag (``engine.cire.CireFlag``) as the diff lists it."""
    out_start = flag.output_start if flag.output_start is not None else 0
    out_end = flag.output_end if flag.output_end is not None else out_start
    src_start = flag.start if flag.start is not None else -1
    src_end = flag.end if flag.end is not None else src_start
    reason = str(getattr(flag.reason, "value", flag.reason)).replace("_", " ")
    category = flag.detail or reason
    source = str(getattr(flag.source, "value", flag.source))
    term = _quote(doc.text[src_start:src_end]) if 0 <= src_start < src_end else ""
    became = _quote(deid.text[out_start:out_end]) if out_start < out_end else "nothing"
    if term:
        words = f"{term} — {category}, replaced by {became}"
    else:
        words = f"{category}: text changed to {became}"
    return DiffFlag(flag.replacement_span_id, out_start, out_end,
                    str(getattr(flag.severity, "value", flag.severity)).lower(),
                    f"{words} · {reason} · {source}", src_start, src_end)
