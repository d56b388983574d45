"""The one error tree. Messages name files and problems, never PHI text."""

from __future__ import annotations

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
