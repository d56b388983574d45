"""The one export path: every format through ``write_outputs``, records that carry CIRE
flags and no hash of the original, and nothing of the source file's name in any file."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from engine.core.domain import DeidentifiedText, Document, Replacement, Span, SurrogateMode
from engine.core.errors import ExportVerificationError, UsageError
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.exporters import (
    ExportJob,
    export_job,
    formats_for,
    page_frames,
    span_page_boxes,
    write_outputs,
)
from engine.exporters.pdf import _marks
from engine.exporters.reports import (
    KEY_COLUMNS,
    REPORT_COLUMNS,
    check_key_location,
    report_row,
    source_name_parts,
    write_report,
)
from engine.ingest import load_document
from tests.fixtures_docs import PHONE, planted_spans, simple_deid, write_text_pdf

TEXT = "Patient Zed Quill seen on 2024-03-04. Started metformin 500 mg. Call 617-555-0142.\n"
SOURCE = "Smith_John_0090075.txt"


def _letter() -> tuple[Document, list[Span], DeidentifiedText]:
    doc = Document(text=TEXT, id="0123456789abcdef", source_path=f"/in/{SOURCE}")
    name = TEXT.index("Zed Quill")
    drug = TEXT.index("metformin")  # a wrong span over a drug: the CIRE guard flags it
    phone = TEXT.index("617")
    spans = [Span(name, name + 9, Label.PATIENT, id="s1"),
             Span(drug, drug + 9, Label.PATIENT, id="s2"),
             Span(phone, phone + 12, Label.PHONE, id="s3")]
    out, reps, pos, cursor = [], [], 0, 0
    for span, sub in zip(spans, ["Ann Lee", "Bob Ray", "555-010-9999"], strict=True):
        out.append(TEXT[cursor:span.start])
        pos += span.start - cursor
        reps.append(Replacement(span.id, span.start, span.end, span.label, pos, pos + len(sub)))
        out.append(sub)
        pos += len(sub)
        cursor = span.end
    out.append(TEXT[cursor:])
    return doc, spans, DeidentifiedText(doc.id, "".join(out), tuple(reps),
                                        SurrogateMode.SURROGATE)


def test_every_format_in_one_call_with_cire_flags_and_no_hash(tmp_path: Path) -> None:
    doc, spans, deid = _letter()
    job = export_job(doc, spans, deid, policy=get_policy("strict"))
    written = write_outputs(job, tmp_path, ["txt", "json", "pdf", "brat", "csv", "jsonl"])
    names = sorted(w.path.name for w in written)
    assert names == sorted(f"{doc.id}{s}" for s in
                           (".deid.txt", ".json", ".deid.ann", ".spans.csv", ".jsonl"))
    assert sorted(p.name for p in tmp_path.iterdir()) == names  # no temp file, no pdf
    sidecar = json.loads((tmp_path / f"{doc.id}.json").read_text(encoding="utf-8"))
    assert sidecar["cire"]["high_flags"] >= 1
    assert any(f["replacement_span_id"] == "s2" and f["severity"] == "high"
               for f in sidecar["cire"]["flags"])
    record = json.loads((tmp_path / f"{doc.id}.jsonl").read_text(encoding="utf-8"))
    assert record["cire"] == sidecar["cire"]
    for path in tmp_path.iterdir():
        content = path.read_text(encoding="utf-8")
        assert doc.sha256 not in content and "sha256" not in content, path.name
        for secret in ("Zed", "Quill", "617-555-0142", "Smith", "John", "0090075"):
            assert secret not in content, (path.name, secret)
    ann = (tmp_path / f"{doc.id}.deid.ann").read_text(encoding="utf-8").splitlines()
    text = (tmp_path / f"{doc.id}.deid.txt").read_text(encoding="utf-8")
    first = ann[0].split("\t")
    start, end = (int(x) for x in first[1].split()[1:])
    assert text[start:end] == first[2] == "Ann Lee"
    with (tmp_path / f"{doc.id}.spans.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["span_id"] for r in rows] == ["s1", "s2", "s3"]
    assert [r["cire_high"] for r in rows][1] == "1"


def test_brat_alone_brings_its_text(tmp_path: Path) -> None:
    doc, spans, deid = _letter()
    assert formats_for(doc, ["brat"]) == ["txt", "brat"]
    job = export_job(doc, spans, deid, policy=get_policy("strict"))
    assert {w.format for w in write_outputs(job, tmp_path, ["brat"])} == {"txt", "brat"}
    with pytest.raises(UsageError):
        write_outputs(job, tmp_path, ["docx"])


def test_a_record_naming_the_source_file_is_refused_and_nothing_is_written(
        tmp_path: Path) -> None:
    doc, spans, deid = _letter()
    leaky = Document(text=TEXT, id=doc.id, source_path=doc.source_path,
                     warnings=("page 1 of Smith_John_0090075 unreadable",))
    job = export_job(leaky, spans, deid, policy=get_policy("strict"))
    with pytest.raises(ExportVerificationError) as err:
        write_outputs(job, tmp_path, ["txt", "json"])
    assert "Smith" not in str(err.value)
    assert list(tmp_path.iterdir()) == []


def test_report_and_key_schemas(tmp_path: Path) -> None:
    # "Smith" is also a dictionary word: it counts when the document's PHI holds it.
    assert source_name_parts(f"/in/{SOURCE}") == (SOURCE, "Smith_John_0090075", "John",
                                                  "0090075")
    assert source_name_parts(f"/in/{SOURCE}", phi=["Mr. John Smith"]) == (
        SOURCE, "Smith_John_0090075", "Smith", "John", "0090075")
    row = report_row("d1", status="failed", error=f"InputError: {SOURCE} is empty",
                     forbidden=source_name_parts(SOURCE))
    assert row["error"] == "InputError" and tuple(row) == REPORT_COLUMNS
    path = write_report([row], tmp_path / "report.csv", forbidden=source_name_parts(SOURCE))
    assert "Smith" not in path.read_text(encoding="utf-8")
    assert KEY_COLUMNS == ("document_id", "source", "file_name", "patient")
    out = tmp_path / "out"
    with pytest.raises(UsageError, match="must not be inside the output folder"):
        check_key_location(out / "key.csv", out)
    with pytest.raises(UsageError):
        check_key_location(out / "sub" / "key.csv", out)
    check_key_location(tmp_path / "key.csv", out)


def test_highlight_rectangles_are_the_pdf_exporters_rectangles(tmp_path: Path) -> None:
    doc = load_document(write_text_pdf(tmp_path / "letter.pdf"))
    spans = planted_spans(doc)
    frames = page_frames(doc)
    marks, unlocated = _marks(doc, spans, None, "redacted", frames)
    assert not unlocated and marks
    burnt = sorted((number, rect) for number, page in marks.items()
                   for mark in page for rect in mark.rects)
    shown = sorted((b.page, frames[b.page].to_source(b.rect))
                   for span in spans for b in span_page_boxes(doc, span, frames))
    assert shown == burnt
    # View space is the upright page, y down: the header (top of the page) has a small y.
    header = next(b for s in spans for b in span_page_boxes(doc, s, frames)
                  if b.page == 1 and doc.text[s.start:s.end] == PHONE)
    assert header.y0 < 0.1 * frames[1].height


def test_simple_deid_fixture_still_exports(tmp_path: Path) -> None:
    # A real PDF through the one path: the redacted PDF is written beside the text.
    source = write_text_pdf(tmp_path / "in.pdf")
    doc = load_document(source)
    spans = planted_spans(doc)
    deid = simple_deid(doc, spans, "Sam Smith")
    job = export_job(doc, spans, deid, policy=get_policy("strict"), source=source)
    out = tmp_path / "out"
    formats = {w.format for w in write_outputs(job, out, ["txt", "json", "pdf"])}
    assert formats == {"txt", "json", "pdf"}


def test_only_identifying_parts_of_a_file_name_are_forbidden() -> None:
    """Issue 15 follow-up: the ordinary words of a file name block nothing; digit runs of
    4+ and name-like words (PHI of the document, listed names, long non-dictionary words)
    do."""
    assert source_name_parts("guess_referral.txt") == ("guess_referral.txt", "guess_referral")
    assert source_name_parts("MRN4451207_fax_scan_v2.pdf") == (
        "MRN4451207_fax_scan_v2.pdf", "MRN4451207_fax_scan_v2", "4451207")
    assert source_name_parts("Ravensworth-B 2024 draft.pdf") == (
        "Ravensworth-B 2024 draft.pdf", "Ravensworth-B 2024 draft", "Ravensworth", "2024")
    assert source_name_parts("Hope_Baker_letter.pdf", phi=["Hope Baker"]) == (
        "Hope_Baker_letter.pdf", "Hope_Baker_letter", "Hope", "Baker")


def _export_with(tmp_path: Path, source: str, warning: str) -> list[str]:
    """Export ``_letter()`` as if read from ``source``, with ``warning`` (a free-text field
    the records carry) naming what the test plants."""
    doc, spans, deid = _letter()
    doc = Document(text=TEXT, id=doc.id, source_path=f"/in/{source}", warnings=(warning,))
    job = export_job(doc, spans, deid, policy=get_policy("strict"))
    out = tmp_path / source
    return sorted(w.path.name for w in write_outputs(job, out, ["txt", "json", "jsonl", "csv"]))


def test_ordinary_words_of_the_file_name_do_not_block_an_export(tmp_path: Path) -> None:
    written = _export_with(tmp_path, "guess_referral.txt", "guess the referral was faxed")
    assert len(written) == 4
    sidecar = next(n for n in written if n.endswith(".json"))
    record = json.loads((tmp_path / "guess_referral.txt" / sidecar).read_text("utf-8"))
    assert "guess the referral was faxed" in json.dumps(record)


@pytest.mark.parametrize(("source", "warning"), [
    ("Smith_John_0090075.txt", "page 3 of 0090075 was blank"),  # a patient id
    ("Smith_John_0090075.txt", "ask John about page 3"),  # a listed first name
    ("Ravensworth_referral.txt", "see Ravensworth file"),  # a rare surname
    ("Quill_referral.txt", "see Quill file"),  # the document's own PHI ("Zed Quill")
])
def test_identifying_parts_of_the_file_name_still_block_an_export(
        tmp_path: Path, source: str, warning: str) -> None:
    with pytest.raises(ExportVerificationError, match="source file name"):
        _export_with(tmp_path, source, warning)
    assert [p for p in (tmp_path / source).iterdir() if p.suffix == ".json"] == []


def test_a_cancel_during_an_export_stops_it_and_writes_nothing(tmp_path: Path) -> None:
    """Ctrl-C while the first format is written: the next one is not started, nothing is
    renamed, no temp file stays (issue 17: stop within seconds, no partial file)."""
    from engine.core.context import RunContext
    from engine.core.errors import CancelledError
    from engine.exporters.outputs import DEFAULT_WRITERS

    doc, spans, deid = _letter()
    ctx = RunContext()
    started: list[str] = []

    def txt_then_ctrl_c(job: ExportJob, path: Path) -> None:
        started.append("txt")
        DEFAULT_WRITERS["txt"](job, path)
        ctx.cancel.cancel()

    def json_writer(job: ExportJob, path: Path) -> None:
        started.append("json")
        DEFAULT_WRITERS["json"](job, path)

    job = export_job(doc, spans, deid, policy=get_policy("strict"), ctx=ctx)
    with pytest.raises(CancelledError):
        write_outputs(job, tmp_path, ["txt", "json"],
                      writers={"txt": txt_then_ctrl_c, "json": json_writer})
    assert started == ["txt"]
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(CancelledError):  # already cancelled: the CIRE guard stops at once
        export_job(doc, spans, deid, policy=get_policy("strict"), ctx=ctx)
