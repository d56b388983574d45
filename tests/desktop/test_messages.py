"""Messages in words: no exception class names in the window."""

from __future__ import annotations

from desktop.messages import UNEXPECTED, exception_in_words, in_words
from engine.core.errors import CorruptDocumentError, ExportError


def test_stored_reasons_and_exceptions_read_as_sentences() -> None:
    assert in_words("CorruptDocumentError: PDF is damaged and cannot be opened") == \
        "PDF is damaged and cannot be opened"
    assert in_words("MemoryError") == "The computer ran out of memory"
    assert in_words("KeyError") == UNEXPECTED
    assert in_words("2 failed, 1 imported; first: EmptyDocumentError: file is empty "
                    "(0 bytes)") == "2 failed, 1 imported; first: File is empty (0 bytes)"
    assert exception_in_words(CorruptDocumentError("a.pdf", "PDF is truncated")) == \
        "PDF is truncated"
    assert exception_in_words(ExportError("out.pdf: 2 span(s) have no position")) == \
        "out.pdf: 2 span(s) have no position"
    assert exception_in_words(ValueError("Jane Doe")) == UNEXPECTED  # no text, no class
    for text in (in_words("CorruptDocumentError: x"), exception_in_words(KeyError("k"))):
        assert "Error" not in text
