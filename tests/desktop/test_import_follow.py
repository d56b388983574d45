"""Import you can follow (issue 27 item 8): documents join the list as each dropped item
is imported and detected, not after the whole drop; the summary's counts add up (imported
+ already present + failed + not reached = files) and never say "failed 0" when files
failed; after a cancel, the panel offers to detect what was imported but not detected."""

from __future__ import annotations

import shutil
from pathlib import Path

from pytestqt.qtbot import QtBot

from desktop.controllers.drop_import import run_drop
from desktop.controllers.project_controller import _item_state
from desktop.settings import UserSettings
from engine.core.context import RunContext

from .conftest import LETTERS, drop_files
from .helpers import TIMEOUT_MS, detected_count, open_window


def _notes(folder: Path, n: int) -> list[Path]:
    folder.mkdir(exist_ok=True)
    paths = []
    for i in range(n):
        p = folder / f"note{i}.txt"
        p.write_text(LETTERS[i % 2] + f"Visit {i}.\n", encoding="utf-8")
        paths.append(p)
    return paths


def test_documents_arrive_one_by_one_and_counts_add_up(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    c = window.controller
    notes = _notes(tmp_path / "in", 3)
    twin = tmp_path / "in" / "copy_of_note0.txt"
    shutil.copy(notes[0], twin)  # same bytes: already in the project
    damaged = tmp_path / "in" / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.4\n1 0 obj <<\nthis is not a PDF body\n")
    events: list[tuple[str, str, str]] = []
    c.importItem.connect(lambda path, state, _d: events.append(("item", path, state)))
    c.entriesChanged.connect(lambda batch: events.extend(
        ("entry", e.id, e.record.status.value) for e in batch))
    summaries: list[object] = []
    c.dropFinished.connect(summaries.append)
    dropped = [*notes, twin, damaged]
    drop_files(window, dropped)
    qtbot.waitUntil(lambda: bool(summaries), timeout=TIMEOUT_MS)

    # The first note was in the list, detected, before the last file began importing.
    first_detected = next(i for i, e in enumerate(events)
                          if e[0] == "entry" and e[2] == "detected")
    last_started = events.index(("item", str(damaged), "importing"))
    assert first_detected < last_started
    assert any(e[0] == "entry" and e[2] == "imported" for e in events)  # before detection

    summary = summaries[0]
    assert (len(summary.imported), summary.duplicates, summary.failed) == (3, 1, 1)
    assert summary.files == len(dropped) and summary.detected == 3
    text = window.import_panel.title.text()
    assert text.startswith("5 files: 3 imported, 1 already in the project, 1 failed")
    assert "failed 0" not in text
    assert not window.import_panel.finish_button.isVisible()
    qtbot.waitUntil(lambda: detected_count(window) == 3, timeout=TIMEOUT_MS)


def test_a_missing_file_counts_as_failed(qtbot: QtBot, tmp_path: Path,
                                         user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    project = window.controller.project
    assert project is not None
    notes = _notes(tmp_path / "in", 1)
    gone = tmp_path / "in" / "moved_away.txt"
    summary = run_drop(project, [gone, *notes], RunContext(), password=None, detect=True,
                       item=lambda *a: None, entries=lambda ids: None,
                       item_state=_item_state)
    assert (len(summary.imported), summary.failed, summary.files) == (1, 1, 2)
    assert "1 failed" in summary.text()


def test_after_a_cancel_the_panel_offers_to_finish(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    project = window.controller.project
    assert project is not None
    notes = _notes(tmp_path / "in", 3)
    ctx = RunContext()
    # The reviewer presses Cancel just as the first item's documents land.
    summary = run_drop(project, notes, ctx, password=None, detect=True,
                       item=lambda *a: None, entries=lambda ids: ctx.cancel.cancel(),
                       item_state=_item_state)
    assert summary.cancelled and len(summary.imported) == 1 and summary.not_reached == 2
    assert summary.undetected == summary.imported and summary.detected == 0
    assert summary.files == 3
    assert "1 document imported but not detected" in summary.text()

    window.import_dock.show()
    window.controller.dropFinished.emit(summary)
    panel = window.import_panel
    qtbot.waitUntil(panel.finish_button.isVisible, timeout=TIMEOUT_MS)
    assert panel.finish_button.text() == "Detect the 1 imported document"
    panel.finish_button.click()
    qtbot.waitUntil(lambda: project.document(summary.imported[0]).status.value
                    == "detected", timeout=TIMEOUT_MS)
    assert not panel.finish_button.isVisible()


def test_a_dropped_folder_fills_the_list_as_it_is_imported(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    """A folder dropped as one item: its documents join the list a batch at a time while
    the folder is still being read, detected batches among them, and the counts add up."""
    window = open_window(qtbot, tmp_path, user_settings)
    c = window.controller
    folder = tmp_path / "clinic"
    notes = _notes(folder, 20)
    shutil.copy(notes[0], folder / "zz_copy_of_note0.txt")  # same bytes: already present
    (folder / "zz_damaged.pdf").write_bytes(b"%PDF-1.4\n1 0 obj <<\nnot a PDF body\n")
    rows_seen: list[int] = []  # the list's rows each time documents arrived
    statuses: list[str] = []
    summaries: list[object] = []
    c.entriesChanged.connect(lambda batch: (
        rows_seen.append(window.documents.model.rowCount()),
        statuses.extend(e.record.status.value for e in batch)) if not summaries else None)
    c.dropFinished.connect(summaries.append)
    progress: list[tuple[str, int, int, str]] = []
    c.progress.connect(lambda *a: progress.append(a))
    drop_files(window, [folder])
    qtbot.waitUntil(lambda: bool(summaries), timeout=TIMEOUT_MS * 2)

    # While the folder was still being imported the list already had some of its
    # documents, and the first were detected before the last were imported.
    assert rows_seen and 0 < rows_seen[0] < len(notes)
    assert rows_seen[-1] == len(notes)
    assert statuses.index("detected") < len(statuses) - 1 - statuses[::-1].index("imported")

    summary = summaries[0]
    assert (len(summary.imported), summary.duplicates, summary.failed,
            summary.not_reached) == (20, 1, 1, 0)
    assert summary.files == 22 and summary.detected == 20
    assert window.import_panel.title.text().startswith(
        "22 files: 20 imported, 1 already in the project, 1 failed")
    assert window.import_panel.state(str(folder)) == "failed"  # its row names the failure
    qtbot.waitUntil(lambda: detected_count(window) == 20, timeout=TIMEOUT_MS)
    # The bar counts the drop's documents, not each detector of each document.
    detecting = [(done, total, m) for stage, done, total, m in progress if stage == "detect"]
    assert detecting and all(m.endswith(" documents") for _d, _t, m in detecting)
    assert detecting[-1][:2] == (20, 20)
    # The list was empty when the project opened: "needs review" still fits its column.
    table = window.documents.table
    assert table.columnWidth(1) > table.fontMetrics().horizontalAdvance("● needs review")


def test_a_cancel_inside_a_folder_counts_what_was_not_reached(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    project = window.controller.project
    assert project is not None
    folder = tmp_path / "clinic"
    _notes(folder, 20)
    later = _notes(tmp_path / "later", 1)
    ctx = RunContext()
    arrived: list[int] = []

    def entries(ids: list[str]) -> None:  # Cancel pressed as the first batch lands
        arrived.append(len(ids))
        ctx.cancel.cancel()

    summary = run_drop(project, [folder, *later], ctx, password=None, detect=True,
                       item=lambda *a: None, entries=entries, item_state=_item_state)
    assert arrived == [len(summary.imported)] and 0 < len(summary.imported) < 20
    assert summary.cancelled and summary.detected == 0
    assert summary.not_reached == 20 - len(summary.imported) + 1  # the folder's rest, later
    assert summary.files == 21
    assert summary.undetected == summary.imported
    assert len(project.documents()) == len(summary.imported)
    assert "not reached" in summary.text()


def test_cancel_pressed_while_a_folder_fills_the_list(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    """The reviewer presses Cancel as the folder's first documents appear: the drop stops
    inside the folder, every file is counted, and the panel offers to finish detection."""
    window = open_window(qtbot, tmp_path, user_settings)
    c = window.controller
    folder = tmp_path / "clinic"
    _notes(folder, 40)
    summaries: list[object] = []
    c.dropFinished.connect(summaries.append)
    pressed: list[int] = []

    def press_cancel(_batch: object) -> None:
        if not pressed:
            pressed.append(window.documents.model.rowCount())
            window.import_panel.cancel_button.click()

    c.entriesChanged.connect(press_cancel)
    drop_files(window, [folder])
    qtbot.waitUntil(lambda: bool(summaries), timeout=TIMEOUT_MS * 2)
    summary = summaries[0]
    assert pressed and summary.cancelled
    assert summary.files == 40 and summary.not_reached > 0
    assert len(summary.imported) == summary.detected + len(summary.undetected)
    assert "not reached" in window.import_panel.title.text()
    qtbot.waitUntil(lambda: not c.runner.busy, timeout=TIMEOUT_MS)
    assert window.documents.model.rowCount() == len(summary.imported)
    if summary.undetected:
        assert window.import_panel.finish_button.isVisible()


def test_detecting_imported_documents_refreshes_their_rows_a_batch_at_a_time(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings) -> None:
    """"Detect the N imported documents" (after a cancel) and Detect again on a selection:
    rows turn detected batch by batch, and the bar counts documents, not detectors."""
    window = open_window(qtbot, tmp_path, user_settings)
    c = window.controller
    project = c.project
    assert project is not None
    summary = run_drop(project, _notes(tmp_path / "in", 20), RunContext(), password=None,
                       detect=False, item=lambda *a: None, entries=lambda ids: None,
                       item_state=_item_state)
    c.refresh_documents()
    qtbot.waitUntil(lambda: window.documents.model.rowCount() == 20, timeout=TIMEOUT_MS)
    batches: list[int] = []
    c.entriesChanged.connect(lambda batch: batches.append(detected_count(window)))
    progress: list[tuple[str, int, int, str]] = []
    c.progress.connect(lambda *a: progress.append(a))
    reports: list[object] = []
    c.detectFinished.connect(reports.append)
    window.import_panel.offer_finish(list(summary.imported))
    window.import_panel.finish_button.click()
    qtbot.waitUntil(lambda: bool(reports), timeout=TIMEOUT_MS * 2)
    qtbot.waitUntil(lambda: detected_count(window) == 20, timeout=TIMEOUT_MS)
    assert len(batches) == 3 and batches[0] < 20  # 8, 8, 4: the list moved before the end
    detecting = [p for p in progress if p[0] == "detect"]
    # Counts of documents (reports closer than 50 ms apart are thinned, the last never).
    assert detecting[-1][1:3] == (20, 20)
    assert all(p[2] == 20 and p[3].endswith(" documents") for p in detecting)
    assert len(reports[0].detected) == 20 and not reports[0].cancelled
