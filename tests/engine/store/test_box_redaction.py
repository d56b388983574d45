"""Box redaction: a rectangle drawn on a page is one undoable, audited decision, and the
redacted PDF has nothing under it: no text (born-digital page, text removed, not covered)
and black pixels (scanned page), checked by the verification after write."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from engine.core.errors import UsageError
from engine.pipeline import PipelineConfig
from engine.project import Project, export_review
from tests.fixtures_docs import DOCTOR, letter_pages, word_rects, write_scan_twin, write_text_pdf

PAGE_H = 792.0


def _box_over(original: Path, value: str, page_index: int) -> tuple[float, float, float, float]:
    """A view-space rectangle (top-left origin) around the first printing of ``value``."""
    x0, y0, x1, y1 = word_rects(original, value, page_index)[-1]
    return (x0 - 3, PAGE_H - y1 - 3, x1 + 3, PAGE_H - y0 + 3)


def test_drawn_box_is_undoable_and_burnt_into_the_redacted_pdf(tmp_path: Path) -> None:
    inbox = tmp_path / "in"
    inbox.mkdir()
    pages = letter_pages()
    original = write_text_pdf(inbox / "letter.pdf", pages, extras=False)
    write_scan_twin(original, inbox / "scan.pdf")
    signature = _box_over(original, DOCTOR, 1)  # "Dr. Alan Grantham" signing page 2
    with Project.create(tmp_path / "p.clearnote", pipeline=PipelineConfig(ner=False)) as p:
        p.import_paths([inbox])
        ids = list(p.detect().detected)
        for doc_id in ids:  # nothing but the box: what is under it must go all the same
            for span in p.spans(doc_id):
                p.set_span_status(span.id, "REJECTED")
        with pytest.raises(UsageError):
            p.add_box_redaction(ids[0], 3, signature)  # no such page
        with pytest.raises(UsageError):
            p.add_box_redaction(ids[0], 2, (10, 10, 10.5, 40))  # a click, not a drag
        drawn = [p.add_box_redaction(doc_id, 2, signature) for doc_id in ids]
        assert [b.page for b in p.box_redactions(ids[0])] == [2]
        # Undo removes the last box, redo brings it back; both are audited.
        assert p.undo() is not None and p.box_redactions(ids[-1]) == []
        assert p.redo() is not None and len(p.box_redactions(ids[-1])) == 1
        actions = [e.action for e in p.audit_log(document_id=ids[-1])]
        assert actions.count("box.drawn") == 2 and "box.removed" in actions
        out = tmp_path / "out"
        report = p.export(ids, out_dir=out, formats=["pdf"])
        assert not report.failed and len(report.exported) == 2, report.failed
        for doc_id in ids:
            pdf = pdfium.PdfDocument(out / f"{doc_id}.redacted.pdf")
            try:
                page = pdf[1]
                text = page.get_textpage().get_text_range()
                image = page.render(scale=2, grayscale=True).to_pil()
            finally:
                pdf.close()
            assert "Grantham" not in text.split("Kind regards")[-1]
            x0, y0, x1, y1 = (v * 2 for v in signature)
            area = image.crop((int(x0) + 4, int(y0) + 4, int(x1) - 4, int(y1) - 4))
            assert sum(area.histogram()[:60]) / (area.width * area.height) > 0.97
        # The review copy shows the box where it was drawn.
        copy = export_review(p, tmp_path / "review", fmt="pdf", document_ids=[ids[0]])[0]
        pdf = pdfium.PdfDocument(copy)
        try:
            drawn_rects = [o.get_bounds() for o in pdf[1].get_objects(
                filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=0)]
        finally:
            pdf.close()
        sx0, sy0, sx1, sy1 = signature
        assert any(abs(r[0] - sx0) < 2 and abs(r[1] - (PAGE_H - sy1)) < 2
                   and abs(r[2] - sx1) < 2 and abs(r[3] - (PAGE_H - sy0)) < 2
                   for r in drawn_rects)
        # Removed, the box no longer redacts.
        p.remove_box_redaction(drawn[0].id)
        assert p.box_redactions(ids[0]) == []
