"""Finish: the title names the project once (Qt adds "ClearNote"), and the window fits a
1600 x 1000 screen at 150 % scaling (about 1066 x 640 available)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize
from pytestqt.qtbot import QtBot

from desktop.settings import UserSettings
from desktop.views.main_window import MainWindow, fitted_size

from .helpers import open_window

SCALED = QSize(1066, 640)  # 1600 x 1000 at 1.5, less a task bar


def test_window_fits_a_small_scaled_screen(qtbot: QtBot, user_settings: UserSettings) -> None:
    assert fitted_size(QSize(2560, 1400)) == QSize(1280, 800)
    size = fitted_size(SCALED)
    assert size.width() <= SCALED.width() and size.height() <= SCALED.height()
    window = MainWindow(user=user_settings)
    qtbot.addWidget(window)
    hint = window.minimumSizeHint()
    assert hint.width() <= size.width() and hint.height() <= size.height(), hint
    window.resize(size)
    assert window.size() == size
    window.close()


def test_title_names_the_project_once(qtbot: QtBot, tmp_path: Path,
                                      user_settings: UserSettings) -> None:
    window = open_window(qtbot, tmp_path, user_settings)
    qtbot.waitUntil(lambda: window.windowTitle() == "study.clearnote", timeout=20000)
    assert "ClearNote" not in window.windowTitle()  # the platform adds it once
    window.close()
