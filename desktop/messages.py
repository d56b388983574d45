"""Messages in words: the engine stores a failure as "<ErrorClass>: <problem>" (its reason
column, report.csv); the window shows the problem, and for an unexpected error a sentence,
never a class name."""

from __future__ import annotations

from engine.core.errors import ClearNoteError, InputError

UNEXPECTED = "Something went wrong that ClearNote did not expect (details are in the log)"
_BARE: dict[str, str] = {
    "MemoryError": "The computer ran out of memory",
    "PermissionError": "ClearNote is not allowed to read or write this file",
    "FileNotFoundError": "The file is no longer there",
    "IsADirectoryError": "A folder was given where a file is needed",
    "OSError": "The file could not be read or written",
    "TimeoutError": "The work took too long and was stopped",
}


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] if text else UNEXPECTED


def _is_class_name(word: str) -> bool:
    return word.isidentifier() and word[:1].isupper() and word.endswith(("Error", "Exception"))


def in_words(reason: str) -> str:
    """A stored reason as the reader sees it: "CorruptDocumentError: PDF is damaged and
    cannot be opened" → "PDF is damaged and cannot be opened"."""
    name, sep, rest = reason.partition(": ")
    if sep and _is_class_name(name):
        return _sentence(rest)
    if _is_class_name(reason.strip()):
        return _BARE.get(reason.strip(), UNEXPECTED)
    # "2 failed, 1 imported; first: CorruptDocumentError: ..." and the like.
    head, sep, tail = reason.rpartition("first: ")
    if sep:
        return f"{head}first: {in_words(tail)}"
    return _sentence(reason)


def exception_in_words(exc: BaseException) -> str:
    """What a user (and a log) may see of an exception: engine messages name files and
    problems, never PHI; anything else is a sentence by its kind."""
    if isinstance(exc, InputError):
        return _sentence(exc.problem)
    if isinstance(exc, ClearNoteError):  # often starts with a file name: left as written
        return str(exc).strip() or UNEXPECTED
    return _BARE.get(type(exc).__name__, UNEXPECTED)
