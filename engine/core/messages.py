"""What the person at the terminal or window is told about a failure: the file, named
relative to the input folder they gave, and the problem in words, never an exception class.
(Logs and report.csv keep ids and the error type: ``engine.parallel.error_reason``.)"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Sequence
from pathlib import Path

from engine.core.errors import ClearNoteError, ExportError, InputError
from engine.core.files import os_reason, short_name

UNEXPECTED = "an unexpected error occurred (the log has its type)"
DISK_FULL = os.strerror(errno.ENOSPC).lower()  # "no space left on device"

_TYPE_PREFIX = re.compile(r"^[A-Z]\w*(?:Error|Exception|Warning)(?::\s*|$)")


def problem_in_words(exc: BaseException) -> str:
    """The problem alone: no class, no path (an InputError's message starts with the full
    path, which a report names once, relative)."""
    if isinstance(exc, InputError):
        return exc.problem
    if isinstance(exc, OSError):
        return os_reason(exc)
    if isinstance(exc, ExportError) and isinstance(exc.__cause__, OSError):
        return f"cannot write the output ({os_reason(exc.__cause__)})"  # not its temp path
    if isinstance(exc, ClearNoteError):
        return str(exc)
    return UNEXPECTED


def reason_in_words(reason: str | None) -> str:
    """A stored reason ("CorruptDocumentError: image cannot be decoded") in words."""
    words = _TYPE_PREFIX.sub("", reason or "").strip()
    return words or UNEXPECTED


def display_name(path: Path, roots: Sequence[Path]) -> str:
    """An input named relative to the input folder it was found under (``2024/scan.pdf``
    for ``clearnote deid letters``), else by its own name: never the folders above what
    the user gave, which often name the patient."""
    for absolute, bases in ((Path(os.path.abspath(path)),
                             [Path(os.path.abspath(r)) for r in roots]),
                            (Path(os.path.realpath(path)),  # never raises on a loop
                             [Path(os.path.realpath(r)) for r in roots])):
        for base in bases:
            if base in absolute.parents:
                return str(absolute.relative_to(base))
    return short_name(path)
