"""The one error tree. Messages name files and problems, never PHI text."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path


def shown(value: object, limit: int = 80, *, keep: str = "") -> str:
    """``value`` as it may appear in a message on a terminal: control and other unprintable
    characters escaped (an id from a file could carry terminal escape codes or newlines),
    except those in ``keep``; cut in the middle past ``limit`` characters."""
    text = "".join(c if c.isprintable() or c in keep
                   else c.encode("unicode_escape").decode("ascii") for c in str(value))
    if len(text) > limit:
        half = (limit - 1) // 2
        text = f"{text[:half]}\u2026{text[-half:]}"
    return text


class ClearNoteError(Exception):
    """Base of every error ClearNote raises on purpose."""


class UsageError(ClearNoteError):
    """The caller asked for something impossible (bad option, bad path)."""


class ConfigError(ClearNoteError):
    pass


class CancelledError(ClearNoteError):
    """Work was cancelled through a CancelToken."""


class InputError(ClearNoteError):
    """A document could not be read. Carries the file and a human-readable problem."""

    def __init__(self, path: str | Path | None, problem: str) -> None:
        self.path = str(path) if path is not None else None
        self.problem = problem
        where = f"{self.path}: " if self.path else ""
        super().__init__(f"{where}{problem}")


class UnsupportedFormatError(InputError):
    pass


class EncryptedDocumentError(InputError):
    """The PDF is password protected; retry with a password."""


class CorruptDocumentError(InputError):
    pass


class EmptyDocumentError(InputError):
    pass


class DocumentTooLargeError(InputError):
    """The text is longer than the configured maximum document size."""


class DetectorError(ClearNoteError):
    """A detector failed; the document fails closed."""

    def __init__(self, detector: str, problem: str) -> None:
        self.detector = detector
        super().__init__(f"detector {detector} failed: {problem}")


class ModelError(ClearNoteError):
    pass


class ModelIntegrityError(ModelError):
    """A model file is missing or its sha256 does not match the manifest."""


class ExportError(ClearNoteError):
    pass


class ExportVerificationError(ExportError):
    """An exported file still exposes an accepted original string; it was deleted."""


class ProjectError(ClearNoteError):
    pass


class PassphraseRequiredError(ProjectError):
    """The project is encrypted and no passphrase was given."""


class WrongPassphraseError(ProjectError):
    """The passphrase does not open this encrypted project; the file was only read."""


class DiskFullError(ClearNoteError):
    """The disk under a project (or another file being written) ran out of space, or
    failed a write: the project itself is intact (SQLite rolled the transaction back)."""

    def __init__(self, path: str | Path, *, full: bool = True) -> None:
        self.path = str(path)
        if full:
            message = (f"The disk holding {shown(path, 240)} is full: free space and run "
                       "the same command again")
        else:
            message = (f"The disk holding {shown(path, 240)} reported an I/O error: check "
                       "the disk and its free space, then run the same command again")
        super().__init__(message)


_FULL_ERRNOS = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
_FULL_BELOW_BYTES = 4 * 1024 * 1024  # "disk I/O error" with less free than this: full


def disk_problem(exc: BaseException, path: str | Path) -> DiskFullError | None:
    """The clear error for ``exc`` when it is a full disk or a failed disk write met while
    working on ``path`` (SQLite's "database or disk is full" and "disk I/O error", through
    any driver or SQLAlchemy wrapper, or an OSError ENOSPC/EDQUOT); None otherwise."""
    if isinstance(exc, DiskFullError):
        return exc
    if isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS:
        return DiskFullError(path)
    text = str(getattr(exc, "orig", None) or exc)
    if "database or disk is full" in text:
        return DiskFullError(path)
    if "disk I/O error" in text:
        try:
            free = shutil.disk_usage(Path(path).resolve().parent).free
        except OSError:
            free = 0
        return DiskFullError(path, full=free < _FULL_BELOW_BYTES)
    return None
