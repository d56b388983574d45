"""A folder imported a batch at a time (``Project.import_batches``, the desktop drop's way):
each report carries the documents stored since the last, the counts of all reports add up
to the files found, and a cancel says how many files it left (``not_reached``)."""

from __future__ import annotations

from pathlib import Path

from engine.core.context import RunContext
from engine.store import ImportReport
from tests.engine.store.fakes import letter


def _folder(tmp_path: Path, n: int) -> Path:
    folder = tmp_path / "letters"
    folder.mkdir()
    for i in range(n):
        (folder / f"letter_{i:02d}.txt").write_text(letter(i).text(i), encoding="utf-8")
    (folder / "zz_copy.txt").write_text(letter(0).text(0), encoding="utf-8")  # duplicate
    (folder / "zz_empty.txt").write_text("  ", encoding="utf-8")  # fails
    return folder


def test_batches_arrive_as_stored_and_add_up(make_project, tmp_path: Path) -> None:
    project = make_project()
    folder = _folder(tmp_path, 7)
    reports = []
    for rep in project.import_batches([folder], batch=3):
        # What a report names is in the project when it arrives.
        assert {d.id for d in project.documents()} >= set(rep.imported)
        reports.append(rep)
    assert [len(r.imported) for r in reports] == [3, 3, 1]
    merged = ImportReport.merged(reports)
    assert (len(merged.imported), len(merged.duplicates), len(merged.failed)) == (7, 1, 1)
    assert not merged.cancelled and merged.not_reached == 0
    assert len(project.documents()) == 8  # the failed one is recorded too


def test_import_paths_is_the_batches_in_one(make_project, tmp_path: Path) -> None:
    project = make_project()
    report = project.import_paths([_folder(tmp_path, 4)])
    assert (len(report.imported), len(report.duplicates), len(report.failed)) == (4, 1, 1)
    assert report.not_reached == 0


def test_a_cancel_between_batches_counts_the_files_left(make_project, tmp_path: Path) -> None:
    project = make_project()
    folder = _folder(tmp_path, 7)  # 9 files
    ctx = RunContext()
    reports = []
    for rep in project.import_batches([folder], ctx, batch=3):
        reports.append(rep)
        ctx.cancel.cancel()  # pressed as the first batch lands
    first, last = reports[0], reports[-1]
    assert len(reports) == 2 and len(first.imported) == 3
    assert last.cancelled and not last.imported and last.not_reached > 0
    merged = ImportReport.merged(reports)
    assert (len(merged.imported) + len(merged.duplicates) + len(merged.failed)
            + merged.not_reached) == 9
    assert len(project.documents()) == 3
