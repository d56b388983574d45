"""The main window's modules import no store, rules, model runtime or PDF stack: the window
shows first, and those load when a project is opened or a document detected."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("sqlalchemy", "sqlcipher3", "onnxruntime", "llama_cpp", "pypdfium2", "faker",
         "engine.detectors.regex", "engine.store.db", "engine.project.facade")

CHILD = """
import sys
import desktop.views.main_window
heavy = sorted(m for m in sys.modules if any(m == h or m.startswith(h + '.') for h in {heavy!r}))
print('HEAVY', heavy)
"""


def test_main_window_modules_import_nothing_heavy() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", CHILD.format(heavy=HEAVY)], env=env,
                            capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 0, result.stderr[-2000:]
    assert "HEAVY []" in result.stdout, result.stdout
