from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from engine.core.context import CancelToken, RunContext
from engine.core.errors import (
    CancelledError,
    ConfigError,
    CorruptDocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    UnsupportedFormatError,
)
from engine.ingest import PAGE_SEPARATOR, load_document
from engine.ingest.text import normalize_newlines
from tests.fixtures_docs import (
    BODY_1,
    DOB,
    DOCTOR,
    EMAIL,
    MRN,
    NOK,
    PATIENT,
    PHI,
    PHONE,
    render_pages,
    write_docx,
    write_image_pdf,
    write_text_pdf,
)


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_text_pdf(tmp_path_factory.mktemp("pdf") / "letter.pdf")


@pytest.fixture(scope="module")
def page_images(letter: Path):  # type: ignore[no-untyped-def]
    return render_pages(letter)


def test_text_pdf_uses_text_layer_with_boxes(letter: Path) -> None:
    doc = load_document(letter)
    assert doc.media_type == "application/pdf"
    assert [p.number for p in doc.pages] == [1, 2] and not any(p.ocr for p in doc.pages)
    assert doc.warnings == ()
    for value in PHI:  # header, footer, body and table cells
        assert value in doc.text
    assert doc.text[doc.pages[0].end:doc.pages[1].start] == PAGE_SEPARATOR
    assert len(doc.boxes) == len(doc.text)
    start = doc.text.index(PATIENT)
    boxes = [b for b in doc.boxes[start:start + len(PATIENT)] if b is not None]
    assert len(boxes) == len(PATIENT.replace(" ", ""))
    assert all(b.page == 1 and 0 < b.x0 < b.x1 < 612 and 0 < b.y0 < b.y1 < 792 for b in boxes)
    sep = doc.pages[0].end
    assert doc.boxes[sep:sep + len(PAGE_SEPARATOR)] == (None,) * len(PAGE_SEPARATOR)


def test_progress_and_cancel(letter: Path) -> None:
    seen: list[tuple[str, int, int]] = []
    load_document(letter, ctx=RunContext(progress=lambda s, d, t, m: seen.append((s, d, t))))
    assert ("ingest", 2, 2) in seen
    token = CancelToken()
    token.cancel()
    with pytest.raises(CancelledError):
        load_document(letter, ctx=RunContext(cancel=token))


def test_encrypted_pdf(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "locked.pdf", encrypt=("s3cret", "owner"))
    with pytest.raises(EncryptedDocumentError) as err:
        load_document(path)
    assert "locked.pdf" in str(err.value) and "password" in str(err.value)
    with pytest.raises(EncryptedDocumentError, match="wrong"):
        load_document(path, password="nope")
    doc = load_document(path, password="s3cret")
    assert PATIENT in doc.text


def test_bad_inputs_name_the_file(tmp_path: Path, letter: Path) -> None:
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(EmptyDocumentError, match="empty.pdf"):
        load_document(empty)
    data = letter.read_bytes()
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptDocumentError, match="truncated.pdf"):
        load_document(truncated)
    garbage = tmp_path / "garbage.pdf"
    garbage.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 20 + b"\n%%EOF\n")
    with pytest.raises(CorruptDocumentError, match="garbage.pdf"):
        load_document(garbage)
    ole = tmp_path / "old.doc"
    ole.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    with pytest.raises(UnsupportedFormatError, match="old.doc"):
        load_document(ole)
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.txt", "hello")
    with pytest.raises(UnsupportedFormatError, match="bundle.zip"):
        load_document(archive)
    binary = tmp_path / "blob.txt"
    binary.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(UnsupportedFormatError, match="blob.txt"):
        load_document(binary)
    blank = tmp_path / "blank.txt"
    blank.write_text(" \n\n ")
    with pytest.raises(EmptyDocumentError, match="blank.txt"):
        load_document(blank)


@pytest.mark.parametrize(("payload", "expected"), [
    ("Patient: Zoë Müller\r\nDOB 1961-03-14\r\n".encode(), "Patient: Zoë Müller\nDOB 1961-03-14\n"),
    ("Patient: Zoë Müller\nSeen by Dr. Côté\n".encode("cp1252"),
     "Patient: Zoë Müller\nSeen by Dr. Côté\n"),
    ("Patient: Zoë Müller\n".encode("utf-16"), "Patient: Zoë Müller\n"),
    (b"\xef\xbb\xbfPatient: Jane\rDOB x\r", "Patient: Jane\nDOB x\n"),
])
def test_text_encodings(tmp_path: Path, payload: bytes, expected: str) -> None:
    path = tmp_path / "note.txt"
    path.write_bytes(payload)
    assert load_document(path).text == expected


def test_newline_offset_map() -> None:
    text, offsets = normalize_newlines("a\r\nb\rc")
    assert text == "a\nb\nc"
    assert offsets == [0, 1, 3, 4, 5, 6]


def test_docx_reads_header_footer_table_comment(tmp_path: Path) -> None:
    doc = load_document(write_docx(tmp_path / "letter.docx"))
    assert doc.media_type.endswith("wordprocessingml.document")
    for value in (PATIENT, DOB, MRN, PHONE, DOCTOR, NOK, EMAIL):
        assert value in doc.text, value
    # Renamed DOCX is still a DOCX: content decides.
    renamed = tmp_path / "letter.txt"
    renamed.write_bytes((tmp_path / "letter.docx").read_bytes())
    assert load_document(renamed).text == doc.text


# ------------------------------------------------------------------ OCR (few, small pages)


def _accuracy(truth: str, found: str) -> float:
    from rapidfuzz.distance import Levenshtein

    norm = lambda s: " ".join(s.split())  # noqa: E731
    return 1 - Levenshtein.normalized_distance(norm(truth), norm(found))


def _page1_truth() -> str:
    from tests.fixtures_docs import letter_pages

    return "\n".join(line.text for line in letter_pages()[0].lines)


def test_mixed_pdf_ocr_only_where_needed_and_accuracy(tmp_path: Path, page_images,  # type: ignore[no-untyped-def]
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from tests.fixtures_docs import degrade

    # Page 1 clean scan, page 2 noisy & skewed scan, then the text PDF's own page 2.
    scan = write_image_pdf(tmp_path / "scan.pdf", [page_images[0], degrade(page_images[0])])
    doc = load_document(scan)
    assert [p.ocr for p in doc.pages] == [True, True]
    assert any("page 1 had no text layer: OCR used" in w for w in doc.warnings)
    clean = doc.text[doc.pages[0].start:doc.pages[0].end]
    noisy = doc.text[doc.pages[1].start:doc.pages[1].end]
    acc_clean, acc_noisy = _accuracy(_page1_truth(), clean), _accuracy(_page1_truth(), noisy)
    with capsys.disabled():
        print(f"\nOCR character accuracy (1-CER): clean {acc_clean:.4f}, "
              f"noisy+skew {acc_noisy:.4f}")
    assert acc_clean > 0.98
    assert acc_noisy > 0.90
    assert PATIENT in clean and BODY_1[4] in clean
    # OCR boxes live in PDF points like text-layer boxes, and confidences are kept.
    start = clean.index(PATIENT) + doc.pages[0].start
    box = doc.boxes[start]
    assert box is not None and 60 < box.x0 < 200 and 600 < box.y0 < 700
    assert doc.confidences and all(0 <= c <= 1 for _, _, c in doc.confidences)


def test_image_inputs_png_renamed_pdf_and_multipage_tiff(tmp_path: Path, page_images) -> None:  # type: ignore[no-untyped-def]
    top = page_images[0].crop((0, 0, page_images[0].width, 700))  # header + first lines
    fake_pdf = tmp_path / "photo.pdf"
    top.save(fake_pdf, "PNG")
    doc = load_document(fake_pdf)
    assert doc.media_type == "image/png" and doc.pages[0].ocr
    assert PHONE in doc.text and DOCTOR in doc.text
    tiff = tmp_path / "fax.tiff"
    top.save(tiff, save_all=True, append_images=[top.rotate(180)], compression="tiff_lzw")
    doc = load_document(tiff)
    assert doc.media_type == "image/tiff" and len(doc.pages) == 2
    second = doc.text[doc.pages[1].start:doc.pages[1].end]
    assert PHONE in second  # the upside-down page was turned by orientation detection
    assert doc.boxes[doc.pages[1].start] is not None


def test_doctr_missing_gives_install_hint() -> None:
    try:
        import doctr  # noqa: F401
    except ImportError:
        from engine.ingest import DoctrEngine

        with pytest.raises(ConfigError, match="pip install"):
            DoctrEngine(pretrained=False)
    else:  # pragma: no cover
        pytest.skip("python-doctr is installed")
