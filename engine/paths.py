"""The one place that finds models/ and resources/, from a source tree or a frozen bundle."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _root() -> Path:
    override = os.environ.get("CLEARNOTE_HOME")
    if override:
        return Path(override)
    frozen = getattr(sys, "_MEIPASS", None)  # PyInstaller one-folder bundle
    if frozen:
        return Path(frozen)
    return Path(__file__).resolve().parent.parent


def resources_dir() -> Path:
    return _root() / "resources"


def models_dir() -> Path:
    return _root() / "models"


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
