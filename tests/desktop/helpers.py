"""Window fixtures shared by the desktop tests."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from desktop.controllers.project_controller import ProjectController
from desktop.settings import UserSettings
from desktop.views.main_window import MainWindow
from engine.api import PipelineConfig

TIMEOUT_MS = 60000  # first detection builds the pipeline (dictionaries); 2 shared cores


def shown_window(qtbot: QtBot, controller: ProjectController, user: UserSettings
                 ) -> MainWindow:
    """The real main window over ``controller``, shown and exposed."""
    window = MainWindow(controller, user=user)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def open_window(qtbot: QtBot, tmp_path: Path, user: UserSettings) -> MainWindow:
    controller = ProjectController(threads=2)
    ready: list[object] = []
    controller.detectorsReady.connect(ready.append)
    window = shown_window(qtbot, controller, user)
    window.detectors_ready = ready  # type: ignore[attr-defined]
    window.activateWindow()
    controller.create_project(tmp_path / "study.clearnote", policy="strict",
                              pipeline=PipelineConfig(policy="strict", ner=False))
    qtbot.waitUntil(lambda: controller.is_open, timeout=TIMEOUT_MS)
    return window


def detected_count(window: MainWindow) -> int:
    return sum(1 for e in window.documents.model.entries()
               if e.record.status.value in ("detected", "reviewed", "exported"))
