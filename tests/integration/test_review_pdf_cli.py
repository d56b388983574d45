"""`clearnote project review-export P --format pdf`: one review copy per PDF or scan, the
detected identifiers boxed in place on the born-digital letter and on its rasterised twin
(plain-text documents have no pages and get none)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from engine.cli import main
from tests.fixtures_docs import (
    DOB,
    MRN,
    PHN,
    PHONE,
    letter_pages,
    word_rects,
    write_scan_twin,
    write_text_pdf,
)

# What the rules-only pipeline finds (names need the NER model). The e-mail address is left
# out: Tesseract reads it as "jane.doe @example.org" on the scan, an OCR miss, not a box.
IDENTIFIERS = (DOB, MRN, PHONE, PHN)


def _boxes(path: Path, index: int) -> list[tuple[float, float, float, float]]:
    pdf = pdfium.PdfDocument(path)
    try:
        page = pdf[index]
        return [tuple(o.get_bounds()) for o in page.get_objects(
            filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=0)]
    finally:
        pdf.close()


def test_review_export_pdf_boxes_identifiers_in_place(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    original = write_text_pdf(inbox / "letter.pdf", letter_pages()[:1], extras=False)
    write_scan_twin(original, inbox / "letter_scan.pdf")
    (inbox / "note.txt").write_text(f"Seen {DOB}, MRN {MRN}.\n", encoding="utf-8")
    project, out = tmp_path / "p.clearnote", tmp_path / "review"
    assert main(["project", "create", str(project), "--ner", "off", "--no-encryption"]) == 0
    assert main(["project", "import", str(project), str(inbox), "-q", "--workers", "1"]) == 0
    assert main(["project", "detect", str(project), "-q", "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["project", "review-export", str(project), "--format", "pdf",
                 "--output-dir", str(out)]) == 0
    assert "wrote 2 file(s)" in capsys.readouterr().out
    copies = sorted(out.glob("*.review.pdf"))
    assert len(copies) == 2
    printed = [w for value in IDENTIFIERS for w in word_rects(original, value)]
    assert len(printed) >= 5
    for copy in copies:
        boxes = _boxes(copy, 0)
        boxed = [w for w in printed if any(
            b[0] <= w[0] + 2 and b[1] <= w[1] + 2 and b[2] >= w[2] - 2 and b[3] >= w[3] - 2
            for b in boxes)]
        print(f"{copy.name}: {len(boxed)} of {len(printed)} printed identifiers boxed")
        # In place: every printed occurrence (text and scan alike) lies inside a drawn box.
        assert len(boxed) / len(printed) >= 0.98, (copy.name, len(boxed), len(printed))
