"""The rules-and-dictionaries pipeline the golden charting files run their cases through."""

from __future__ import annotations

import pytest

from engine.pipeline import Pipeline, build_pipeline


@pytest.fixture(scope="module")
def hipaa() -> Pipeline:
    """HIPAA policy, no model: what rules, dictionaries and guards keep (one per module)."""
    return build_pipeline(ner=False, policy="hipaa")
