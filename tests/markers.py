"""Shared pytest markers."""

from __future__ import annotations

import pytest

from engine.core.errors import ClearNoteError
from engine.detectors.ner import DEFAULT_MODEL, load_manifest
from engine.paths import models_dir


def _ner_installed() -> bool:
    try:
        load_manifest(models_dir() / DEFAULT_MODEL)
    except ClearNoteError:
        return False
    return True


needs_ner = pytest.mark.skipif(not _ner_installed(), reason="the NER model is not installed")
