"""Decide what a file is from its bytes (magic numbers), not its name."""

from __future__ import annotations

import zipfile
from enum import StrEnum
from pathlib import Path

from engine.core.errors import EmptyDocumentError, InputError, UnsupportedFormatError


class Kind(StrEnum):
    PDF = "application/pdf"
    PNG = "image/png"
    JPEG = "image/jpeg"
    TIFF = "image/tiff"
    BMP = "image/bmp"
    GIF = "image/gif"
    WEBP = "image/webp"
    DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    TEXT = "text/plain"


IMAGE_KINDS = frozenset({Kind.PNG, Kind.JPEG, Kind.TIFF, Kind.BMP, Kind.GIF, Kind.WEBP})

_MAGIC: tuple[tuple[bytes, Kind], ...] = (
    (b"\x89PNG\r\n\x1a\n", Kind.PNG),
    (b"\xff\xd8\xff", Kind.JPEG),
    (b"II*\x00", Kind.TIFF),
    (b"MM\x00*", Kind.TIFF),
    (b"GIF87a", Kind.GIF),
    (b"GIF89a", Kind.GIF),
    (b"BM", Kind.BMP),
)

# Binary formats people commonly drop into a folder of letters; named in the error message.
_KNOWN_UNSUPPORTED: tuple[tuple[bytes, str], ...] = (
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
     "legacy or password-protected Office file (.doc/.xls); save it unprotected as .docx or PDF"),
    (b"{\\rtf", "RTF file; save it as .docx, PDF or plain text"),
    (b"\x1f\x8b", "gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"Rar!", "RAR archive"),
)


def sniff(path: Path) -> Kind:
    """Return the document kind of ``path`` or raise an InputError naming the file."""
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(2048)
    except FileNotFoundError as exc:
        raise InputError(path, "file not found") from exc
    except IsADirectoryError as exc:
        raise InputError(path, "is a directory, not a file") from exc
    except OSError as exc:
        raise InputError(path, f"cannot be read ({exc.strerror or type(exc).__name__})") from exc
    if size == 0:
        raise EmptyDocumentError(path, "file is empty (0 bytes)")
    # The spec allows junk before %PDF-; readers search the first 1024 bytes.
    if b"%PDF-" in head[:1024]:
        return Kind.PDF
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return Kind.WEBP
    if head.startswith(b"PK\x03\x04"):
        return _sniff_zip(path)
    for magic, what in _KNOWN_UNSUPPORTED:
        if head.startswith(magic):
            raise UnsupportedFormatError(path, f"unsupported format: {what}")
    if _looks_binary(head):
        raise UnsupportedFormatError(path, "unsupported format: binary file of unknown type")
    return Kind.TEXT


def _sniff_zip(path: Path) -> Kind:
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        # ValueError: a member name flagged UTF-8 that is not (UnicodeDecodeError), or a
        # damaged directory record; NotImplementedError: a ZIP version it cannot read
        # (found by fuzzing, issue 15).
        raise UnsupportedFormatError(path, "unsupported format: damaged ZIP container") from exc
    if "word/document.xml" in names:
        return Kind.DOCX
    if "xl/workbook.xml" in names or "ppt/presentation.xml" in names:
        raise UnsupportedFormatError(path, "unsupported format: Excel/PowerPoint file")
    if "content.xml" in names:
        raise UnsupportedFormatError(path, "unsupported format: OpenDocument file; save as .docx")
    raise UnsupportedFormatError(path, "unsupported format: ZIP archive")


def _looks_binary(head: bytes) -> bool:
    """NUL bytes outside a UTF-16/32 pattern, or many control bytes, mean not text."""
    from engine.ingest.text import wide_encoding

    if head.startswith(b"\xef\xbb\xbf") or wide_encoding(head) is not None:
        return False
    if head.count(0):
        return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27))
    return controls > max(4, len(head) // 20)
