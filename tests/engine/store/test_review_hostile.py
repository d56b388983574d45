"""Issue 29 items 2 and 5: damaged and hostile review files. A cut file rejects nothing (the
export then holds none of the letter's identifiers); labels, statuses and types are checked,
duplicates merged, sizes bounded (a record of millions of spans is refused at the bound, in
bounded memory), and every error names the file and the line with control characters
escaped. Synthetic PHI only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.domain import SpanStatus
from engine.core.errors import ClearNoteError, InputError, UsageError
from engine.project.review_files import MAX_SPANS_PER_DOCUMENT
from engine.project.review_io import export_review, import_review
from tests.engine.store.fakes import letter

ROOT = Path(__file__).resolve().parents[3]


def _detected(make_project, letters):
    project = make_project()
    ids = list(project.import_paths([letters]).imported)
    project.detect()
    return project, ids


def _doc_of(project, ids, i: int) -> str:
    """The id of the document made from letter ``i``."""
    return next(d for d in ids if letter(i).mrn in project.document_text(d))


def _jsonl(tmp_path: Path, doc_id: str, spans: list[dict], name: str = "r.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"id": doc_id, "spans": spans}) + "\n", encoding="utf-8")
    return path


def test_a_cut_brat_file_rejects_nothing_and_the_export_leaks_nothing(
        make_project, letters, tmp_path) -> None:
    project, ids = _detected(make_project, letters)
    doc_id = _doc_of(project, ids, 0)
    export_review(project, tmp_path / "review", document_ids=[doc_id])
    ann = tmp_path / "review" / f"{doc_id}.ann"
    ann.write_text("".join(ann.read_text(encoding="utf-8").splitlines(True)[:2]),
                   encoding="utf-8")  # the first annotation and its note only
    report = import_review(project, tmp_path / "review")
    assert report.rejected == 0 and report.unlisted_spans >= 4
    assert "keep their state" in report.summary()
    out = tmp_path / "out"
    project.export([doc_id], out_dir=out, formats=["txt"])
    text = "".join(p.read_text(encoding="utf-8") for p in out.glob("*.txt"))
    person = letter(0)
    for value in (person.mrn, person.phone, person.patient, person.doctor):
        assert value not in text


def test_a_non_phi_label_is_an_error_naming_the_line(make_project, letters, tmp_path) -> None:
    project, ids = _detected(make_project, letters)
    doc_id = _doc_of(project, ids, 0)
    span = project.spans(doc_id)[0]
    path = _jsonl(tmp_path, doc_id, [{"id": span.id, "start": span.start, "end": span.end,
                                      "label": "TITLE"}])
    with pytest.raises(InputError, match=r"r\.jsonl:1: .*TITLE.*not PHI"):
        import_review(project, path, schema="presidio")
    with pytest.raises(InputError, match=r"r\.jsonl:1: unknown label TITLE.*--schema"):
        import_review(project, path)  # not a ClearNote label
    assert project.spans(doc_id)[0].status is span.status  # nothing changed


@pytest.mark.parametrize(("field", "value", "problem"), [
    ("start", 28.9, "must be an integer"),
    ("end", True, "must be an integer"),
    ("status", "EXPORTED", "not a review status"),
    ("status", "SUPERSEDED", "not a review status"),
    ("label", "PATIENT\x1b[31m", r"unknown label PATIENT\\x1b\[31m"),
])
def test_strict_types_and_statuses(make_project, letters, tmp_path, field, value,
                                   problem) -> None:
    project, ids = _detected(make_project, letters)
    doc_id = _doc_of(project, ids, 0)
    span = project.spans(doc_id)[0]
    item = {"id": span.id, "start": span.start, "end": span.end, "label": span.label.value,
            field: value}
    with pytest.raises(InputError, match=rf"r\.jsonl:1: .*{problem}") as err:
        import_review(project, _jsonl(tmp_path, doc_id, [item]))
    assert "\x1b" not in str(err.value)


def test_explicit_reject_duplicates_merged_and_a_conflict_refused(
        make_project, letters, tmp_path) -> None:
    project, ids = _detected(make_project, letters)
    doc_id = _doc_of(project, ids, 0)
    span = project.spans(doc_id)[0]
    item = {"id": span.id, "start": span.start, "end": span.end, "label": span.label.value,
            "status": "REJECTED"}
    report = import_review(project, _jsonl(tmp_path, doc_id, [item, item, dict(item)]))
    assert report.rejected == 1 and report.added == 0
    assert {s.id: s for s in project.spans(doc_id)}[span.id].status is SpanStatus.REJECTED
    with pytest.raises(InputError, match="twice with different statuses"):
        import_review(project, _jsonl(tmp_path, doc_id, [item, {**item, "status": "ACCEPTED"}]))


def test_out_of_range_offsets_name_file_and_line(make_project, letters, tmp_path) -> None:
    project, ids = _detected(make_project, letters)
    doc_id = _doc_of(project, ids, 0)
    path = tmp_path / "r.jsonl"
    path.write_text("\n" + json.dumps({"id": doc_id, "spans": [
        {"start": 5, "end": 10**6, "label": "PATIENT"}]}) + "\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"r\.jsonl:2: document .*outside the text"):
        import_review(project, path)


def test_brat_unknown_label_and_non_utf8_are_clear(make_project, letters, tmp_path) -> None:
    project, ids = _detected(make_project, letters)
    folder = tmp_path / "brat"
    folder.mkdir()
    ann = folder / f"{ids[0]}.ann"
    ann.write_text("T1\tPATIENT 0 4\tx\nT2\tWIDGET 5 9\ty\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"\.ann:2: unknown label WIDGET"):
        import_review(project, folder)
    ann.write_bytes(b"T1\tPATIENT 0 4\tx\nT2\tPATIENT 5 9\t\xff\xfe\n")
    with pytest.raises(InputError, match=r"\.ann:2: not UTF-8"):
        import_review(project, folder)
    ann.write_text("T1\tPATIENT 0 4\tx\n#1\tAnnotatorNotes T1\tstatus=EXPORTED\n",
                   encoding="utf-8")
    with pytest.raises(InputError, match=r"\.ann:2: status EXPORTED is not a review"):
        import_review(project, folder)


def test_unknown_ids_are_escaped_in_the_summary(make_project, letters, tmp_path) -> None:
    project, _ = _detected(make_project, letters)
    report = import_review(project, _jsonl(tmp_path, "evil\x1b]0;owned\x07\nid", []))
    assert report.unknown_documents and "\x1b" not in report.summary()
    assert "\\x1b" in report.summary() and "\nid" not in report.summary()


def test_a_record_past_the_span_bound_is_refused(make_project, letters, tmp_path) -> None:
    project, ids = _detected(make_project, letters)
    item = {"start": 0, "end": 1, "label": "PATIENT"}
    path = _jsonl(tmp_path, ids[0], [item] * (MAX_SPANS_PER_DOCUMENT + 1))
    with pytest.raises(ClearNoteError, match=r"r\.jsonl:1: .*above the limit"):
        import_review(project, path)


CHILD = r"""
import sys
from pathlib import Path
from engine.core.errors import ClearNoteError
from engine.project.review_files import Labels, read_jsonl
try:
    for _ in read_jsonl(Path(sys.argv[1]), Labels()):
        pass
except ClearNoteError as exc:
    print("refused:", str(exc)[-80:])
# VmHWM, not ru_maxrss: Linux carries the forking parent's high-water mark across exec,
# so a child of a big pytest process would report the parent's size.
print("peak_mb", next(int(line.split()[1]) for line in open("/proc/self/status")
                      if line.startswith("VmHWM")) // 1024)
"""


def test_a_record_of_millions_of_spans_is_refused_in_bounded_memory(tmp_path) -> None:
    """2.3 million spans on one line (100 MB): refused at the line bound without reading
    it whole; measured in a subprocess."""
    path = tmp_path / "huge.jsonl"
    span = json.dumps({"start": 0, "end": 1, "label": "PATIENT"}) + ", "
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"id": "x", "spans": [')
        for _ in range(23):
            fh.write(span * 100_000)
        fh.write(span[:-2] + "]}\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    assert "refused:" in done.stdout and "longer than" in done.stdout
    peak = int(done.stdout.split("peak_mb")[1])
    assert peak < 400, peak


def test_cli_review_import_reports_unlisted_spans(make_project, letters, tmp_path,
                                                  capsys) -> None:
    from engine.cli import main

    project, ids = _detected(make_project, letters)
    doc_id = _doc_of(project, ids, 0)
    export_review(project, tmp_path / "review", document_ids=[doc_id])
    ann = tmp_path / "review" / f"{doc_id}.ann"
    ann.write_text("".join(ann.read_text(encoding="utf-8").splitlines(True)[:2]),
                   encoding="utf-8")
    path = project.path
    project.close()
    assert main(["project", "review-import", str(path), str(tmp_path / "review")]) == 0
    out = capsys.readouterr().out
    assert "were not listed and keep their state" in out
    assert main(["project", "review-import", str(path), str(tmp_path / "review"),
                 "--unlisted", "reject"]) == 0
    out = capsys.readouterr().out
    assert "in 1 document(s) were not listed and were REJECTED" in out
    ann.write_text("T1\tTITLE 0 4\tx\n", encoding="utf-8")
    assert main(["project", "review-import", str(path), str(tmp_path / "review"),
                 "--schema", "presidio"]) == 1
    assert ".ann:1: label TITLE is not PHI" in capsys.readouterr().err
