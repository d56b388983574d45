"""The re-identification key and the export report: one schema each, for ``clearnote
deid``, project exports and batches.

The key (document id → source path, file name, patient) re-links outputs to originals: it
never goes into an export folder. The report (``report.csv``) is what the export folder
may hold about its documents: ids, outcome, counts and output names, re-checked for every
string of the source file names before it is written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from engine.core.errors import ExportVerificationError, UsageError
from engine.exporters.csv import write_csv_summary
from engine.exporters.verify import verify_no_strings

KEY_FILE_NAME = "clearnote-key.csv"
KEY_COLUMNS = ("document_id", "source", "file_name", "patient")
REPORT_FILE_NAME = "report.csv"
REPORT_COLUMNS = ("document_id", "status", "spans", "cire_high", "outputs", "error")
KEY_WARNING = "it re-links the outputs to the originals: keep it with them, never share it"

_TOKEN = re.compile(r"[^\W_]+")
MIN_NAME_TOKEN = 3  # shorter pieces of a file name ("v2", "01") are not identifying


def source_name_parts(source: str | Path) -> tuple[str, ...]:
    """The strings of a source file's name that may identify someone: the name, its stem
    and each word or number of at least three characters (``Smith_John_0090075.pdf`` →
    the name, ``Smith_John_0090075``, ``Smith``, ``John``, ``0090075``)."""
    path = Path(source)
    tokens = [t for t in _TOKEN.findall(path.stem) if len(t) >= MIN_NAME_TOKEN]
    return tuple(dict.fromkeys([path.name, path.stem, *tokens]))


def check_key_location(key_file: Path, output_dir: Path) -> None:
    """The key never lands in (or under) the export folder."""
    key, out = key_file.resolve(), output_dir.resolve()
    if out == key.parent or out in key.parents:
        raise UsageError(f"{key_file}: the key file must not be inside the output folder "
                         f"({output_dir}); it re-links outputs to the originals")


def default_key_file(inputs: Sequence[Path]) -> Path:
    """Beside the (first) input: ``<folder>.clearnote-key.csv`` next to an input folder
    (not inside it, where a later run would read it as a document), or
    ``clearnote-key.csv`` next to an input file."""
    first = inputs[0].resolve()
    if first.is_dir():
        return first.parent / f"{first.name}.{KEY_FILE_NAME}"
    return first.parent / KEY_FILE_NAME


def is_key_file(path: Path) -> bool:
    return path.name.endswith(KEY_FILE_NAME)


def key_row(document_id: str, source: str | Path | None, patient: str | None
            ) -> dict[str, object]:
    return {"document_id": document_id, "source": str(source or ""),
            "file_name": Path(source).name if source else "", "patient": patient or ""}


def write_key(rows: Iterable[Mapping[str, object]], path: Path) -> Path:
    """The key file (owner-only, like every file ClearNote writes)."""
    return write_csv_summary(list(rows), path, columns=KEY_COLUMNS)


def report_row(document_id: str, *, status: str, spans: int | str = "",
               cire_high: int | str = "", outputs: Sequence[str] = (),
               error: str | None = None, forbidden: Sequence[str] = ()) -> dict[str, object]:
    """One row of ``report.csv``. An error (``engine.parallel.error_reason``: "Type:
    problem") that names any of ``forbidden`` (the source's name) keeps only its type."""
    reason = error or ""
    if reason and forbidden:
        try:
            verify_no_strings(reason, forbidden, "error")
        except ExportVerificationError:
            reason = reason.split(":", 1)[0]
    return {"document_id": document_id, "status": status, "spans": spans,
            "cire_high": cire_high, "outputs": ";".join(outputs), "error": reason}


def write_report(rows: Sequence[Mapping[str, object]], path: Path, *,
                 forbidden: Iterable[str] = ()) -> Path:
    """``report.csv`` in the export folder, checked like a document: none of the source
    names (``forbidden``) may appear in a cell that did not come from ClearNote itself."""
    written = write_csv_summary(rows, path, columns=REPORT_COLUMNS)
    free_text = "\n".join(str(r.get("error", "")) for r in rows)
    try:
        verify_no_strings(free_text, forbidden, path.name)
    except ExportVerificationError:
        written.unlink(missing_ok=True)
        raise
    return written
