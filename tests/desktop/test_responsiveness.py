"""The GUI thread never does the work (DESIGN §7): while a batch is imported and detected,
every call into the engine's heavy entry points (building the detector pipeline, i.e.
loading the models; importing files; detection) runs on a worker thread.

The test counts calls by thread instead of timing the event loop, so a loaded machine cannot
turn it red; the event-loop gap itself is measured by benchmarks/desktop_responsiveness.py.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from desktop.settings import UserSettings
from engine.api import Project
from engine.pipeline import Pipeline

from .conftest import drop_files, synthetic_letter
from .helpers import TIMEOUT_MS, detected_count, open_window

N_DOCS = 20

# (owner, attribute): the engine work that must stay off the GUI thread.
HEAVY: tuple[tuple[type, str], ...] = (
    (Pipeline, "__init__"),  # after the detectors (regexes, gazetteers, models) are loaded
    (Pipeline, "run"),  # detection of one document
    (Project, "import_paths"),  # sniffing, reading, OCR, storing
    (Project, "import_batches"),  # the same, a folder a batch at a time (the drop's way)
    (Project, "detect"),
)


def _record_calls(monkeypatch: pytest.MonkeyPatch, gui_thread: int
                  ) -> dict[str, list[bool]]:
    """Wrap each HEAVY callable; per name, one entry per call: True if on the GUI thread."""
    calls: dict[str, list[bool]] = {}
    for owner, attr in HEAVY:
        name = f"{owner.__name__}.{attr}"
        calls[name] = []

        def wrap(original: Callable[..., Any], seen: list[bool]) -> Callable[..., Any]:
            @functools.wraps(original)
            def recorded(*args: Any, **kwargs: Any) -> Any:
                seen.append(threading.get_ident() == gui_thread)
                return original(*args, **kwargs)

            return recorded

        monkeypatch.setattr(owner, attr, wrap(getattr(owner, attr), calls[name]))
    return calls


def test_engine_work_never_runs_on_the_gui_thread(qtbot: QtBot, tmp_path: Path,
                                                  user_settings: UserSettings,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _record_calls(monkeypatch, threading.get_ident())  # pytest-qt: GUI = this thread
    window = open_window(qtbot, tmp_path, user_settings)
    qtbot.waitUntil(lambda: bool(window.detectors_ready), timeout=TIMEOUT_MS)
    folder = tmp_path / "batch"
    folder.mkdir()
    for i in range(N_DOCS):
        (folder / f"note{i:02d}.txt").write_text(synthetic_letter(i), encoding="utf-8")

    drop_files(window, [folder])
    qtbot.waitUntil(lambda: detected_count(window) == N_DOCS, timeout=TIMEOUT_MS * 3)
    qtbot.waitUntil(lambda: not window.controller.runner.busy, timeout=TIMEOUT_MS)
    window.close()

    counts = {name: len(seen) for name, seen in calls.items()}
    on_gui = {name: sum(seen) for name, seen in calls.items() if any(seen)}
    print(f"\nengine calls: {counts}; on the GUI thread: {on_gui or 'none'}")
    # Each kind of work happened (the wrappers saw it) ...
    assert counts["Pipeline.__init__"] >= 1 and counts["Pipeline.run"] >= N_DOCS
    assert counts["Project.import_batches"] >= 1 and counts["Project.detect"] >= 1
    # ... and none of it blocked the event loop's thread.
    assert on_gui == {}
