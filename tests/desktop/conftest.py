"""Desktop tests: the real window, offscreen, rules-only pipeline, synthetic PHI only."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QMimeData, QPoint, QPointF, QSettings, Qt, QUrl  # noqa: E402
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from benchmarks._notes import short_letter as synthetic_letter  # noqa: E402,F401
from desktop.settings import UserSettings  # noqa: E402

LETTERS = [
    "Referral letter\nPatient: John Smith\nDOB: 1961-03-04\nPHN: 9876 543 210\n"
    "Seen by Dr. Alice Brown on 2023-05-02 at Foothills Clinic.\n"
    "Phone 403-555-0199. Email john.smith@example.com\n"
    "John Smith has type 2 diabetes and takes metformin 500 mg.\n"
    "He breeds horses at Maple Farm.\n",
    "Discharge summary\nPatient: Mary Jones\nAdmitted 2022-11-14, discharged 2022-11-20.\n"
    "Contact: 780-555-0123. Follow up with Dr. Peter Wong.\n"
    "Mary Jones tolerated the Bruce protocol well.\n",
]


@pytest.fixture
def user_settings(tmp_path: Path) -> UserSettings:
    q = QSettings(str(tmp_path / "user.ini"), QSettings.Format.IniFormat)
    return UserSettings(q)


@pytest.fixture
def letters(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "in"
    folder.mkdir()
    paths = []
    for i, text in enumerate(LETTERS):
        p = folder / f"letter{i + 1}.txt"
        p.write_text(text, encoding="utf-8")
        paths.append(p)
    return paths


@pytest.fixture(autouse=True)
def no_leaked_windows(qapp: QApplication) -> Iterator[None]:
    yield
    QApplication.processEvents()
    leaked = [w for w in QApplication.topLevelWidgets() if w.isVisible()]
    for w in leaked:
        w.close()
    assert leaked == [], f"top-level widgets left open: {[type(w).__name__ for w in leaked]}"


def drop_files(widget: object, paths: list[Path]) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier)
    # As a real drag does: Qt delivers the drop to the widget that accepted the enter.
    enter = QDragEnterEvent(QPoint(50, 50), *args)
    QApplication.sendEvent(widget, enter)  # type: ignore[arg-type]
    assert enter.isAccepted(), "window refused the drag"
    QApplication.sendEvent(widget, QDragMoveEvent(QPoint(50, 50), *args))  # type: ignore[arg-type]
    drop = QDropEvent(QPointF(50, 50), *args)
    QApplication.sendEvent(widget, drop)  # type: ignore[arg-type]
    assert drop.isAccepted(), "window refused the drop"
