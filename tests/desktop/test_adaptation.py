"""Learning from the reviewer in the desktop (issue 25): the banner offers to learn once a
project has enough review decisions, learning re-checks only the unreviewed documents, the
"What ClearNote learned" panel lists the entries with their matches, and removing an entry
and undoing it each make or restore a profile version. Synthetic PHI only."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from desktop.controllers.adaptation_controller import OFFER_AFTER_DECISIONS, offer_for
from desktop.controllers.project_controller import ProjectController
from desktop.models.learned_entries import LearnedEntriesModel, learned_view
from desktop.settings import UserSettings
from engine.api import (
    EntrySource,
    LearningSummary,
    PhiEntry,
    PhiKind,
    PipelineConfig,
    Profile,
    Project,
    VocabEntry,
)
from engine.core.domain import SpanStatus
from engine.core.labels import Label

from .helpers import TIMEOUT_MS, shown_window

LEFT = Qt.MouseButton.LeftButton

REVIEWED = {
    "r1.txt": "Nursing note. Pt Quilla Lindqvist resting. Seen by Dr. Haldane, moved to "
              "Kessler 3.\n"
              "Daughter Maren Lindqvist called 403-555-0188 on 2023-04-02.\n",
    "r2.txt": "Nursing note. Pt Oskar Brandvold, MRN 4471120, back to Kessler 3. Dr. Haldane "
              "reviewed.\nSeen 2023-05-11. Wife Ingrid Brandvold at bedside. Phone "
              "780-555-0142.\n",
    "r3.txt": "Transfer note. Patient Edda Torvik moved from Kessler 3 to Ward 5 at Foothills "
              "Hospital on 2023-06-01.\nDr. Sandvik aware. Son Arne Torvik informed.\n",
}
UNREVIEWED = {
    "u1.txt": "Nursing note. LINDQVIST, Q. seen by Dr. Haldane on Kessler 3.\n",
    "u2.txt": "Oskar Brandvold's wife called. Dr. Sandvik to see him.\n",
}


@pytest.fixture
def reviewed_project(tmp_path: Path) -> Path:
    """A project whose three reviewed documents carry more decisions than the offer needs
    (the reviewer rejects "Kessler" taken for a person, accepts everything else)."""
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, text in {**REVIEWED, **UNREVIEWED}.items():
        (folder / name).write_text(text, encoding="utf-8")
    path = tmp_path / "ward.clearnote"
    project = Project.create(path, pipeline=PipelineConfig(policy="strict", ner=False))
    try:
        project.import_paths([folder])
        project.detect()
        for rec in project.documents():
            if Path(rec.source_path).name not in REVIEWED:
                continue
            text = project.document_text(rec.id)
            for span in project.spans(rec.id):
                wrong = text[span.start:span.end] == "Kessler" and span.label is Label.PERSON
                project.set_span_status(span.id, SpanStatus.REJECTED if wrong
                                        else SpanStatus.ACCEPTED)
    finally:
        project.close()
    return path


def _spans_by_name(project: Project) -> dict[str, list[tuple[int, int, str, str]]]:
    return {Path(r.source_path).name: [(s.start, s.end, s.label.value, s.status.value)
                                       for s in project.spans(r.id)]
            for r in project.documents()}


def _texts(rows: object) -> list[str]:
    return [row.entry.text for row in rows]  # type: ignore[attr-defined]


def test_banner_learn_panel_remove_and_undo(qtbot: QtBot, reviewed_project: Path,
                                            user_settings: UserSettings,
                                            qtmodeltester: ModelTester) -> None:
    controller = ProjectController(threads=2)
    window = shown_window(qtbot, controller, user_settings)
    ui = window.adaptation
    controller.open_project(reviewed_project)
    qtbot.waitUntil(lambda: ui.banner_dock.isVisible() and ui.banner.learn_button.isVisible(),
                    timeout=TIMEOUT_MS)
    offer = ui.controller.offer
    assert offer is not None and offer.action == "learn"
    assert "2 document(s) nobody has reviewed" in offer.text
    assert window.centralWidget().isEnabled()  # non-modal: the work stays usable
    project = controller.project
    assert project is not None
    before = _spans_by_name(project)

    with qtbot.waitSignal(ui.controller.learnFinished, timeout=TIMEOUT_MS) as learned:
        qtbot.mouseClick(ui.banner.learn_button, LEFT)
    assert "re-checked 2 document(s)" in str(learned.args[0])
    assert ui.banner.panel_button.isVisible()
    after = _spans_by_name(project)
    assert all(after[name] == before[name] for name in REVIEWED)  # reviewed: untouched
    u1 = next(r for r in project.documents() if r.source_path.endswith("u1.txt"))
    text = project.document_text(u1.id)
    assert "LINDQVIST, Q." in {text[s.start:s.end] for s in project.spans(u1.id)}

    qtbot.mouseClick(ui.banner.panel_button, LEFT)
    panel = ui.panel
    qtbot.waitUntil(lambda: panel.view.version == 1 and bool(panel.view.found), timeout=TIMEOUT_MS)
    found = {row.entry.text: row for row in panel.view.found}
    assert {"quilla lindqvist", "haldane", "kessler 3"} <= set(found)
    assert found["haldane"].matches == 1 and found["sandvik"].matches == 1
    assert "kessler" in _texts(panel.view.ignored)  # not a person's name here
    qtmodeltester.check(panel.found.model)

    row = _texts(panel.found.model.rows()).index("haldane")
    panel.found.table.selectRow(row)
    assert panel.found.remove_button.isEnabled()
    qtbot.mouseClick(panel.found.remove_button, LEFT)
    qtbot.waitUntil(lambda: panel.view.version == 2, timeout=TIMEOUT_MS)
    assert "haldane" not in _texts(panel.view.found)
    assert "sandvik" in _texts(panel.view.found)
    # The profile changed since the unreviewed documents were checked: offer a re-check.
    qtbot.waitUntil(lambda: ui.controller.offer is not None
                    and ui.controller.offer.action == "recheck", timeout=TIMEOUT_MS)

    qtbot.mouseClick(panel.undo_button, LEFT)
    qtbot.waitUntil(lambda: panel.view.version == 1, timeout=TIMEOUT_MS)
    assert "haldane" in _texts(panel.view.found)

    audit = [e for e in project.audit_log() if e.action.startswith("profile.")]
    assert [e.action for e in audit] == ["profile.adapt", "profile.removed", "profile.reverted"]
    for entry in audit:
        assert not any(name in entry.detail.casefold()
                       for name in ("lindqvist", "haldane", "brandvold", "torvik", "kessler"))
    window.close()


def _summary(decisions: int, learned: int = 0, *, versions: int = 0, stale: int = 0
             ) -> LearningSummary:
    return LearningSummary(decisions, learned, 1 if versions else None, versions, 5, stale)


def test_the_offer_comes_after_enough_new_decisions_and_respects_not_now() -> None:
    n = OFFER_AFTER_DECISIONS
    assert offer_for(_summary(n - 1), dismissed_at=None) is None
    learn = offer_for(_summary(n), dismissed_at=None)
    assert learn is not None and learn.action == "learn" and "5 document(s)" in learn.text
    assert offer_for(_summary(n + 5, n), dismissed_at=None) is None  # already learned from
    assert offer_for(_summary(n + 5), dismissed_at=n) is None  # "not now" at n decisions
    assert offer_for(_summary(2 * n), dismissed_at=n) is not None
    recheck = offer_for(_summary(n, n, versions=2, stale=3), dismissed_at=None)
    assert recheck is not None and recheck.action == "recheck" and "3 document(s)" in recheck.text


def test_learned_entries_model(qtmodeltester: ModelTester) -> None:
    names = (PhiEntry("quilla lindqvist", Label.PATIENT, PhiKind.PATIENT, EntrySource.LIST),
             PhiEntry("kessler 3", Label.HOSPITAL, PhiKind.WARD, EntrySource.REVIEW))
    words = (VocabEntry("foley", Label.PATIENT, EntrySource.CORPUS),
             VocabEntry("bruce", Label.DOCTOR, EntrySource.REVIEW, "name"))
    view = learned_view(Profile(names, words), 3, 3, {names[1]: 4, words[0]: 9})
    assert _texts(view.found) == ["kessler 3", "quilla lindqvist"]  # most matches first
    assert [r.kind for r in view.ignored] == ["not a patient",
                                             "not a doctor beside a title or initial"]
    model = LearnedEntriesModel()
    model.set_rows(view.found + view.ignored)
    qtmodeltester.check(model)
    assert model.index(0, 3).data() == 4 and model.index(1, 2).data() == "an imported list"
    model.set_rows(())
    assert model.rowCount() == 0


def test_cancelling_learning_stores_nothing(qtbot: QtBot, reviewed_project: Path,
                                            user_settings: UserSettings) -> None:
    controller = ProjectController(threads=1)
    window = shown_window(qtbot, controller, user_settings)
    ui = window.adaptation
    controller.open_project(reviewed_project)
    qtbot.waitUntil(lambda: ui.banner.learn_button.isVisible(), timeout=TIMEOUT_MS)
    release = threading.Event()
    # Hold the one worker so that Cancel lands before learning starts: deterministic.
    controller.runner.submit("hold", lambda ctx: release.wait(TIMEOUT_MS / 1000))
    with qtbot.waitSignal(ui.controller.learnStopped, timeout=TIMEOUT_MS) as stopped:
        qtbot.mouseClick(ui.banner.learn_button, LEFT)
        assert ui.banner.cancel_button.isVisible()
        qtbot.mouseClick(ui.banner.cancel_button, LEFT)
        release.set()
    assert "Cancelled" in str(stopped.args[0])
    assert ui.banner.close_button.isVisible() and not ui.banner.cancel_button.isVisible()
    project = controller.project
    assert project is not None and project.adaptation.versions() == []
    window.close()
