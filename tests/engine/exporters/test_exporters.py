from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from engine.core.domain import Document, SpanStatus
from engine.core.errors import ExportError, ExportVerificationError
from engine.exporters import (
    verify_pdf,
    write_brat,
    write_csv_summary,
    write_json_sidecar,
    write_jsonl_record,
    write_redacted_pdf,
    write_text,
)
from engine.exporters.verify import normalize
from engine.ingest import load_document
from tests.fixtures_docs import (
    PATIENT,
    PHI,
    PageSpec,
    TextLine,
    planted_spans,
    render_pages,
    simple_deid,
    write_image_pdf,
    write_text_pdf,
)


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_text_pdf(tmp_path_factory.mktemp("pdf") / "letter.pdf")


def _extract(path: Path) -> tuple[str, dict[str, str], int, int]:
    pdf = pdfium.PdfDocument(path)
    try:
        texts, annots = [], 0
        for i in range(len(pdf)):
            page = pdf[i]
            texts.append(page.get_textpage().get_text_range())
            annots += pdfium_c.FPDFPage_GetAnnotCount(page.raw)
        return ("\n".join(texts), pdf.get_metadata_dict(), annots,
                pdf.count_attachments() + (pdf.get_formtype() != pdfium_c.FORMTYPE_NONE))
    finally:
        pdf.close()


def _assert_no_phi(text: str) -> None:
    flat = normalize(text)
    for value in PHI:
        assert normalize(value) not in flat, "planted PHI still extractable"


def test_source_fixture_really_carries_phi_everywhere(letter: Path) -> None:
    text, meta, annots, extras = _extract(letter)
    assert PATIENT in text and PATIENT in meta["Title"] and annots == 2 and extras >= 1


@pytest.mark.parametrize("mode", ["redacted", "surrogate-text"])
def test_redacted_text_pdf_removes_phi(tmp_path: Path, letter: Path, mode: str) -> None:
    doc = load_document(letter)
    spans = planted_spans(doc)
    deid = simple_deid(doc, spans, "Léa Côté")
    out = write_redacted_pdf(letter, doc, spans, tmp_path / "out.pdf", surrogate=deid,
                             mode=mode)  # type: ignore[arg-type]
    text, meta, annots, extras = _extract(out)
    _assert_no_phi(text)
    _assert_no_phi(" ".join(meta.values()))
    assert annots == 0 and extras == 0
    # Non-PHI text stays real text; the surrogate is drawn in surrogate-text mode.
    assert "Bruce protocol stress test" in text and "Troponin negative" in text
    assert ("Léa Côté" in text) == (mode == "surrogate-text")  # accents drawn as they are
    # Lines that touched a span became pictures; their other words stay searchable.
    for kept in ("Re: DOB PHN", "Address: Calgary AB T2N 1N4", "Page 1 of 2",
                 "directly to arrange an appointment."):
        assert kept in text
    assert [p.name for p in tmp_path.iterdir()] == ["out.pdf"]  # no temp leftovers


def test_redacted_encrypted_pdf(tmp_path: Path) -> None:
    src = write_text_pdf(tmp_path / "locked.pdf", encrypt=("pw", "owner"))
    doc = load_document(src, password="pw")
    out = write_redacted_pdf(src, doc, planted_spans(doc), tmp_path / "out.pdf", password="pw")
    text, meta, _, _ = _extract(out)  # opens without a password
    _assert_no_phi(text + " ".join(meta.values()))


def test_redacted_scan_burns_pixels(tmp_path: Path, letter: Path) -> None:
    from engine.ingest.ocr import TesseractEngine, layout_words

    scan = write_image_pdf(tmp_path / "scan.pdf", render_pages(letter)[:1])
    doc = load_document(scan)
    spans = planted_spans(doc)
    assert len(spans) >= 8
    out = write_redacted_pdf(scan, doc, spans, tmp_path / "out.pdf")
    text, _, _, _ = _extract(out)
    # The OCR text comes along as an invisible layer: searchable, less what was redacted.
    assert "Bruce protocol stress test" in text and "Calgary AB" in text
    found = [doc.slice(s) for s in spans]
    assert not any(normalize(v) in normalize(text) for v in found)
    # Re-read the redacted pixels: the planted strings found by OCR are gone.
    image = render_pages(out)[0]
    reread, _, _ = layout_words(TesseractEngine().recognize(image), lambda b: None)
    found = [doc.slice(s) for s in spans]
    assert found and not any(v in reread for v in found)
    assert "Bruce protocol" in reread


def test_invisible_words_sit_where_the_ocr_found_them_and_add_no_ink(
        tmp_path: Path, letter: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.exporters.pdf as pdfexp

    scan = write_image_pdf(tmp_path / "scan.pdf", render_pages(letter)[:1])
    doc = load_document(scan)
    spans = planted_spans(doc)
    out = write_redacted_pdf(scan, doc, spans, tmp_path / "out.pdf")
    start = doc.text.index("Bruce")
    box = doc.boxes[start]
    pdf = pdfium.PdfDocument(out)
    try:
        searcher = pdf[0].get_textpage().search("Bruce")
        first = searcher.get_next()
        assert first is not None
        found = pdf[0].get_textpage().get_charbox(first[0])
        assert abs(found[0] - box.x0) < 2 and abs(found[1] - box.y0) < 3
        with_layer = pdf[0].render(scale=1).to_pil()
    finally:
        pdf.close()
    monkeypatch.setattr(pdfexp, "insert_words", lambda *a, **k: 0)
    bare = write_redacted_pdf(scan, doc, spans, tmp_path / "bare.pdf")
    pdf = pdfium.PdfDocument(bare)
    try:
        assert pdf[0].get_textpage().get_text_range().strip() == ""
        without_layer = pdf[0].render(scale=1).to_pil()
    finally:
        pdf.close()
    assert with_layer.tobytes() == without_layer.tobytes()
    # Same on a text-layer page, where the words replace the text objects that became images.
    monkeypatch.undo()
    text_doc = load_document(letter)
    renders = []
    for name, patch in (("layer.pdf", False), ("plain.pdf", True)):
        if patch:
            monkeypatch.setattr(pdfexp, "insert_words", lambda *a, **k: 0)
        path = write_redacted_pdf(letter, text_doc, planted_spans(text_doc), tmp_path / name)
        pdf = pdfium.PdfDocument(path)
        renders.append(pdf[0].render(scale=2).to_pil().tobytes())
        pdf.close()
    assert renders[0] == renders[1]


def test_invisible_words_follow_a_rotated_scan(tmp_path: Path, letter: Path) -> None:
    # A fax stored sideways with /Rotate 90: the words run up the page in user space.
    sideways = write_image_pdf(tmp_path / "side.pdf",
                               [render_pages(letter)[0].rotate(90, expand=True)])
    pdf = pdfium.PdfDocument(sideways)
    pdf[0].set_rotation(90)
    pdf.save(tmp_path / "rot.pdf")
    pdf.close()
    doc = load_document(tmp_path / "rot.pdf")
    spans = planted_spans(doc)
    out = write_redacted_pdf(tmp_path / "rot.pdf", doc, spans, tmp_path / "out.pdf")
    text, _, _, _ = _extract(out)
    assert "Bruce protocol stress test" in text and "Address: Calgary AB T2N 1N4" in text
    _assert_no_phi(text)
    pdf = pdfium.PdfDocument(out)
    try:
        textpage = pdf[0].get_textpage()
        first = textpage.search("Bruce").get_next()
        assert first is not None
        left, bottom, right, top = textpage.get_charbox(first[0])
        box = doc.boxes[doc.text.index("Bruce")]
        # The invisible "B" lies on the scanned "B" (within a couple of points).
        assert box.x0 - 2 <= left and right <= box.x1 + 2
        assert box.y0 - 2 <= bottom and top <= box.y1 + 2
    finally:
        pdf.close()


def test_invisible_words_that_rebuild_a_redacted_string_are_dropped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.exporters.pdf as pdfexp

    # "Quinlan" is redacted in the first line only, "Jane Doe" in the second: the first
    # line's remaining words read "Jane Doe" once the middle name is gone.
    pages = [PageSpec(lines=[TextLine(72, 700, "Seen today: Jane Quinlan Doe, stable."),
                             TextLine(72, 680, "Signed for Jane Doe by the nurse."),
                             TextLine(72, 640, "Unrelated line about ramipril dosing.")])]
    src = write_text_pdf(tmp_path / "note.pdf", pages, extras=False)
    doc = load_document(src)
    spans = planted_spans(doc, ["Quinlan", "Jane Doe"])
    builds: list[bool] = []
    build = pdfexp._build_from_pdf

    def counted(*args):  # type: ignore[no-untyped-def]
        builds.append(True)
        return build(*args)

    monkeypatch.setattr(pdfexp, "_build_from_pdf", counted)
    out = write_redacted_pdf(src, doc, spans, tmp_path / "out.pdf")
    text, _, _, _ = _extract(out)
    assert len(builds) == 2  # the first build leaked through its invisible words
    assert "jane doe" not in normalize(text) and "janedoe" not in normalize(text)
    assert verify_pdf(out, doc, spans, "out.pdf") == []
    # The page lost its invisible words only: untouched lines are still real text.
    assert "Unrelated line about ramipril dosing." in text


def test_redacted_image_source(tmp_path: Path, letter: Path) -> None:
    png = tmp_path / "letter.png"
    render_pages(letter, dpi=200)[0].crop((0, 0, 1700, 700)).save(png, dpi=(200, 200))
    doc = load_document(png)
    spans = planted_spans(doc)
    assert spans
    out = write_redacted_pdf(png, doc, spans, tmp_path / "out.pdf", mode="surrogate-text",
                             surrogate=simple_deid(doc, spans, "[REDACTED]"))
    pdf = pdfium.PdfDocument(out)
    assert len(pdf) == 1 and abs(pdf[0].get_width() - 1700 * 72 / 200) < 1
    pdf.close()
    text, _, _, _ = _extract(out)
    _assert_no_phi(text)
    assert "[REDACTED]" in text and "REFERRAL LETTER" in text


def test_leak_is_detected_file_deleted_message_has_no_phi(
        tmp_path: Path, letter: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.exporters.pdf as pdfexp

    with pytest.raises(ExportVerificationError, match="attachments"):
        verify_pdf(letter, load_document(letter), [], "letter.pdf")
    plain = write_text_pdf(tmp_path / "plain.pdf", extras=False)
    doc = load_document(plain)
    spans = planted_spans(doc)
    assert {page for _, page in verify_pdf(plain, doc, spans, "plain.pdf")} == {1, 2}

    def sabotaged(source, password, marks, doc, raster, mode, dpi, ctx):  # type: ignore[no-untyped-def]
        out = pdfium.PdfDocument.new()
        src = pdfium.PdfDocument(source)
        out.import_pages(src)
        src.close()
        return out, {1, 2}

    monkeypatch.setattr(pdfexp, "_build_from_pdf", sabotaged)
    outdir = tmp_path / "out"
    target = outdir / "out.pdf"
    with pytest.raises(ExportVerificationError) as err:
        write_redacted_pdf(plain, doc, spans, target)
    assert not target.exists() and list(outdir.iterdir()) == []
    message = str(err.value)
    assert "span " in message and "OTHER" in message and "page 1" in message
    for value in PHI:
        assert value not in message


def test_span_without_position_is_refused(tmp_path: Path, letter: Path) -> None:
    doc = load_document(letter)
    bare = Document(text=doc.text, id=doc.id, pages=doc.pages, media_type=doc.media_type)
    with pytest.raises(ExportError, match="no position"):
        write_redacted_pdf(letter, bare, planted_spans(bare), tmp_path / "out.pdf")


def test_text_json_brat_csv(tmp_path: Path, letter: Path) -> None:
    doc = load_document(letter)
    spans = planted_spans(doc)
    bruce = doc.text.index("Bruce")  # a reviewer rejected this false positive
    spans.append(replace(spans[0], start=bruce, end=bruce + 5, id="rejected1",
                         status=SpanStatus.REJECTED))
    live = [s for s in spans if s.status is not SpanStatus.REJECTED]
    deid = simple_deid(doc, live, "Sam Smith")

    write_text(deid, tmp_path / "doc.txt", doc=doc, spans=live)
    _assert_no_phi((tmp_path / "doc.txt").read_text())

    sidecar = write_json_sidecar(doc, spans, deid, tmp_path / "doc.json", extra={"run": 1})
    data = json.loads(sidecar.read_text())
    assert len(data["spans"]) == len(spans) and data["replacements"] and data["run"] == 1
    assert data["spans"][0]["page"] == 1
    _assert_no_phi(sidecar.read_text())
    jsonl = tmp_path / "batch.jsonl"
    write_jsonl_record(doc, spans, deid, jsonl)
    write_jsonl_record(doc, spans, deid, jsonl)
    assert len(jsonl.read_text().splitlines()) == 2

    txt, ann = write_brat(doc, spans, tmp_path / "doc.brat.txt", tmp_path / "doc.ann")
    lines = [line for line in ann.read_text().splitlines() if line.startswith("T")]
    assert len(lines) == len(live)
    with txt.open(encoding="utf-8", newline="") as fh:
        assert fh.read() == doc.text

    rows = [{"document_id": doc.id, "spans": len(spans), "note": "=HYPERLINK(1)"}]
    summary = write_csv_summary(rows, tmp_path / "summary.csv")
    row = next(csv.DictReader(summary.open()))
    assert row["note"].startswith("'=") and row["spans"] == str(len(spans))


def test_text_export_verification_deletes_leaky_output(tmp_path: Path, letter: Path) -> None:
    doc = load_document(letter)
    spans = planted_spans(doc)
    leaky = simple_deid(doc, spans[:1], "Sam Smith")  # only the first span replaced
    target = tmp_path / "doc.txt"
    with pytest.raises(ExportVerificationError) as err:
        write_text(leaky, target, doc=doc, spans=spans)
    assert not target.exists() and list(tmp_path.iterdir()) == []
    assert all(value not in str(err.value) for value in PHI)


def test_json_sidecar_numbers_are_not_mistaken_for_leaked_ages(tmp_path: Path) -> None:
    """An age "45" must not be reported leaked because a span offset happens to be 45."""
    import json

    from engine.core.domain import DeidentifiedText, Document, Replacement, Span, SurrogateMode
    from engine.core.labels import Label
    from engine.exporters import write_json_sidecar

    text = "x" * 45 + " aged 45 years"
    doc = Document.from_text(text, id="d1")
    age = Span(51, 53, Label.AGE, id="s1")
    out = text[:51] + "47" + text[53:]
    deid = DeidentifiedText("d1", out, (Replacement("s1", 51, 53, Label.AGE, 51, 53),),
                            SurrogateMode.SURROGATE)
    spans = [age, Span(0, 45, Label.OTHER, id="s2")]
    path = write_json_sidecar(doc, spans, deid, tmp_path / "d1.json")
    assert json.loads(path.read_text(encoding="utf-8"))["spans"][0]["end"] == 53
