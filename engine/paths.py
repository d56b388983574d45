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


def shared_data_dir() -> Path:
    """The development data folder (``../shared/data`` beside the repository).

    ``CLEARNOTE_SHARED_DATA`` overrides it; otherwise the nearest ``shared/data`` found walking
    up from the source tree (a git worktree may sit one level deeper than the main checkout).
    """
    override = os.environ.get("CLEARNOTE_SHARED_DATA")
    if override:
        return Path(override)
    repo = Path(__file__).resolve().parent.parent
    for parent in (repo, *repo.parents):
        candidate = parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return repo.parent / "shared" / "data"
