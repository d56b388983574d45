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

_TOKEN = re.compile(r"[^\W\d_]+|\d+")  # letter runs and digit runs ("MRN0090075": 2)
MIN_NAME_TOKEN = 3  # shorter words of a file name ("Li", "v") are not checked alone
MIN_DIGITS = 4  # shorter numbers ("v2", "01", "250") are page numbers and versions
MIN_UNLISTED_NAME = 5  # an unlisted, non-dictionary word shorter than this is an
#                        abbreviation ("MRN", "fax", "Hx"), not a name


def source_name_parts(source: str | Path, *, phi: Iterable[str] = ()) -> tuple[str, ...]:
    """The strings of a source file's name that can identify someone, which no exported
    record may contain: the name, its stem, every run of 4+ digits, and the name-like
    words: those inside the document's PHI (``phi``: the original strings detected in it),
    and those that are no dictionary or clinical word (a listed first or last name, or an
    unlisted word of 5+ letters). ``Smith_John_0090075.pdf`` gives the name, the stem,
    ``John`` and ``0090075``, and ``Smith`` too when the document's PHI holds it; the
    ordinary words of ``guess_referral.txt`` block nothing."""
    from engine.detectors.dictionary.context import is_english
    from engine.detectors.dictionary.names import all_name_lists

    path = Path(source)
    phi_words = {w.casefold() for value in phi for w in _TOKEN.findall(value)}
    first, last = all_name_lists()
    parts = [path.name, path.stem]
    for token in _TOKEN.findall(path.stem):
        key = token.casefold()
        if token.isdigit():
            if len(token) >= MIN_DIGITS:
                parts.append(token)
        elif len(token) >= MIN_NAME_TOKEN and (
                key in phi_words
                or not is_english(key) and (key in first or key in last
                                            or len(key) >= MIN_UNLISTED_NAME)):
            parts.append(token)
    return tuple(dict.fromkeys(parts))


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
