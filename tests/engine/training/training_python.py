"""Run a check script in the training interpreter ($CLEARNOTE_TRAIN_PYTHON, with torch; `make
test` builds and sets it): the app's venv has no torch, and must not."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

TRAIN_PY = os.environ.get("CLEARNOTE_TRAIN_PYTHON", "/work/train-venv/bin/python")
ROOT = Path(__file__).resolve().parents[3]


def _has_torch() -> bool:
    if not Path(TRAIN_PY).exists():
        return False
    probe = subprocess.run([TRAIN_PY, "-c", "import torch"], capture_output=True, check=False)
    return probe.returncode == 0


needs_torch = pytest.mark.skipif(not _has_torch(), reason="needs the training interpreter with "
                                 "torch (set CLEARNOTE_TRAIN_PYTHON; `make test` does)")


def run_check(script: str) -> None:
    """Run ``script`` there from the repository root; it must print exactly "ok"."""
    proc = subprocess.run([TRAIN_PY, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"
