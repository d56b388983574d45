"""Text files in the encodings clinics produce: with and without a BOM, 8-bit Western code
pages, and bytes that are not text at all (issue 17, item 4). Synthetic PHI only."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.errors import UnsupportedFormatError
from engine.ingest import load_document
from engine.ingest.text import decode_bytes, wide_encoding

NOTE = ("Patient : Zoë Lefèvre-Côté, née le 14/03/1961 à Montréal.\n"
        "Référée par Dr Élise Bérubé pour suivi cardiaque ; tél. 514-555-0199.\n")
FRENCH = ("Madame Hélène Gagné, âgée de 72 ans, a été vue à l'hôpital Sainte-Thérèse le "
          "3 février. Elle présente une dyspnée à l'effort. Très bon état général ; "
          "à revoir dans deux semaines.\n")


def _load(tmp_path: Path, payload: bytes):  # type: ignore[no-untyped-def]
    path = tmp_path / "note.txt"
    path.write_bytes(payload)
    return load_document(path)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_wide_encodings_without_bom(tmp_path: Path, codec: str) -> None:
    payload = NOTE.encode(codec)
    assert wide_encoding(payload) == codec
    doc = _load(tmp_path, payload)
    assert doc.text == NOTE
    assert "\ufffd" not in doc.text and not doc.needs_review


@pytest.mark.parametrize("codec", ["utf-16", "utf-32", "utf-8-sig"])
def test_byte_order_marks(tmp_path: Path, codec: str) -> None:
    doc = _load(tmp_path, NOTE.encode(codec))
    assert doc.text == NOTE and not doc.needs_review


def test_utf8_with_bom_is_not_flagged(tmp_path: Path) -> None:
    doc = _load(tmp_path, b"\xef\xbb\xbf" + NOTE.encode())
    assert doc.text == NOTE and doc.warnings == () and not doc.needs_review


def test_cp1252_punctuation(tmp_path: Path) -> None:
    text = "Dr O’Brien’s note – “stable”, 37.5 °C, cost €20… Zoë Müller.\n"
    doc = _load(tmp_path, text.encode("cp1252"))
    assert doc.text == text and not doc.needs_review
    assert doc.warnings == ("text decoded as cp1252",)


def test_latin1_french_stays_western(tmp_path: Path) -> None:
    """The reported case: latin-1 read as cp1250 turned à into ŕ."""
    doc = _load(tmp_path, (FRENCH * 3).encode("latin-1"))
    assert doc.text == FRENCH * 3
    assert "ŕ" not in doc.text and "à" in doc.text and not doc.needs_review


def test_other_code_page_is_a_flagged_guess() -> None:
    """Cyrillic cp1251 is not Western text read through cp1252: charset-normalizer decides,
    and the document is marked for review."""
    text = "Пациентка Иванова Мария Петровна, 1961 года рождения, осмотрена терапевтом. " * 4
    decoded = decode_bytes(text.encode("cp1251"))
    assert decoded.encoding != "cp1252" and not decoded.certain


def test_replaced_bytes_flag_the_document(tmp_path: Path) -> None:
    # Odd-length UTF-16: the last byte cannot be decoded.
    doc = _load(tmp_path, NOTE.encode("utf-16-le") + b"A")
    assert doc.text.startswith(NOTE) and doc.text.endswith("\ufffd")
    assert doc.needs_review
    assert "some bytes could not be decoded and were replaced" in doc.warnings


def test_undecodable_binary(tmp_path: Path) -> None:
    binary = bytes(range(256)) * 8
    with pytest.raises(UnsupportedFormatError, match="binary"):
        _load(tmp_path, binary)
    # Past the sniffed head, stray bytes still decode and are flagged, never a crash.
    decoded = decode_bytes(b"Patient Zoe " + bytes(range(128, 256)) + b"\x00\x01 end")
    assert not decoded.certain
