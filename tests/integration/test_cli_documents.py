"""`clearnote deid FILE_OR_DIR... --output-dir` on real documents: a typed PDF letter with
PHI in header, footer, table and metadata; a 500-page PDF; bad inputs beside them."""

from __future__ import annotations

import csv
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from engine.cli import main
from tests.fixtures_docs import (
    DOB,
    MRN,
    PATIENT,
    PHN,
    PHONE,
    PageSpec,
    TextLine,
    write_text_pdf,
)

PLANTED = [PATIENT, DOB, MRN, PHN, PHONE]


def _pdf_text(path: Path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
        meta = " ".join(str(v) for v in pdf.get_metadata_dict().values())
    finally:
        pdf.close()
    return "\n".join(pages) + meta


def _rows(out: Path) -> list[dict[str, str]]:
    """report.csv rows joined with the key (beside the input folder ``in``) by id."""
    with (out / "report.csv").open(encoding="utf-8") as handle:
        report = list(csv.DictReader(handle))
    key_file = next(f for f in (out.parent / "in.clearnote-key.csv",
                                out.parent / "in" / "clearnote-key.csv",
                                out.parent / "clearnote-key.csv") if f.is_file())
    with key_file.open(encoding="utf-8") as handle:
        key = {r["document_id"]: r for r in csv.DictReader(handle)}
    return [{**r, "source": key[r["document_id"]]["source"]} for r in report]


def test_deid_pdf_letter_and_bad_inputs(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    write_text_pdf(src / "Jane_Doe_referral.pdf")
    write_text_pdf(src / "locked.pdf", encrypt=("s3cret", "owner"))
    (src / "empty.pdf").write_bytes(b"")
    (src / "truncated.pdf").write_bytes((src / "Jane_Doe_referral.pdf").read_bytes()[:400])
    (src / "notes.xyz").write_bytes(b"\x00\x01binary")
    out = tmp_path / "out"
    assert main(["deid", str(src), "--output-dir", str(out), "--no-progress", "--no-ner"]) == 1

    rows = {Path(r["source"]).name: r for r in _rows(out)}
    assert rows["Jane_Doe_referral.pdf"]["status"] == "ok"
    for bad in ("locked.pdf", "empty.pdf", "truncated.pdf"):
        # The report names no source file: the key does.
        assert rows[bad]["status"] == "failed" and rows[bad]["error"]
        assert bad not in rows[bad]["error"]
    assert "password" in rows["locked.pdf"]["error"].lower()
    assert "notes.xyz" not in rows  # unsupported suffixes are not collected from folders

    doc_id = rows["Jane_Doe_referral.pdf"]["document_id"]
    redacted = out / f"{doc_id}.redacted.pdf"
    text = (out / f"{doc_id}.deid.txt").read_text(encoding="utf-8")
    extracted = _pdf_text(redacted)
    for phi in PLANTED:
        assert phi not in text
        assert phi not in extracted
    assert not any("Jane" in p.name for p in out.iterdir())
    assert not list(out.glob(".*.tmp"))


def test_encrypted_pdf_opens_with_password(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    write_text_pdf(src / "locked.pdf", encrypt=("s3cret", "owner"), extras=False)
    out = tmp_path / "out"
    with pytest.raises(SystemExit):  # never on the command line (ps shows it)
        main(["deid", str(src / "locked.pdf"), "--output-dir", str(out), "--password",
              "s3cret", "--no-progress", "--no-ner"])
    secret = tmp_path / "pdf-password.txt"
    secret.write_text("s3cret\n", encoding="utf-8")
    assert main(["deid", str(src / "locked.pdf"), "--output-dir", str(out),
                 "--password-file", str(secret), "--no-progress", "--no-ner"]) == 0
    (row,) = _rows(out)
    assert row["status"] == "ok"
    assert PATIENT not in _pdf_text(out / f"{row['document_id']}.redacted.pdf")


def test_five_hundred_page_pdf(tmp_path: Path) -> None:
    pages = [PageSpec(lines=[TextLine(72, 700, f"Page {n}: patient {PATIENT}, call {PHONE}."),
                             TextLine(72, 680, "Stable on metformin 500 mg twice daily.")])
             for n in range(1, 501)]
    big = write_text_pdf(tmp_path / "big.pdf", pages, extras=False)
    out = tmp_path / "out"
    assert main(["deid", str(big), "--output-dir", str(out), "--no-progress", "--no-ner"]) == 0
    (row,) = _rows(out)
    text = (out / f"{row['document_id']}.deid.txt").read_text(encoding="utf-8")
    assert text.count("metformin 500 mg") == 500
    assert PATIENT not in text and PHONE not in text
    pdf = pdfium.PdfDocument(str(out / f"{row['document_id']}.redacted.pdf"))
    try:
        assert len(pdf) == 500
    finally:
        pdf.close()
