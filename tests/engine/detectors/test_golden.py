"""Golden cases: one JSONL file per detector family under tests/data/golden/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document
from engine.detectors.base import Detector
from engine.detectors.dictionary import (
    CueNameDetector,
    LocationGazetteerDetector,
    NameGazetteerDetector,
    SignoutNameDetector,
)
from engine.detectors.regex import default_rule_detectors

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden"


def _detectors() -> dict[str, Detector]:
    found: dict[str, Detector] = {d.spec.id: d for d in default_rule_detectors()}
    found["dictionary.names"] = NameGazetteerDetector()
    found["dictionary.locations"] = LocationGazetteerDetector()
    found["dictionary.cue_names"] = CueNameDetector()
    found["dictionary.signout_names"] = SignoutNameDetector()
    return found


DETECTORS = _detectors()


def _cases() -> list[pytest.param]:
    params = []
    for path in sorted(GOLDEN.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, start=1):
                if line.strip():
                    params.append(pytest.param(path.stem, json.loads(line),
                                               id=f"{path.stem}:{lineno}"))
    return params


def test_every_family_has_a_golden_file() -> None:
    missing = set(DETECTORS) - {p.stem for p in GOLDEN.glob("*.jsonl")}
    assert not missing


@pytest.mark.parametrize(("family", "case"), _cases())
def test_golden(family: str, case: dict) -> None:
    detector = DETECTORS[family]
    doc = Document.from_text(case["text"])
    spans = detector.detect(doc, RunContext())
    got = {(s.start, s.end, s.label.value) for s in spans}
    expected = {(s["start"], s["end"], s["label"]) for s in case["spans"]}
    assert got == expected
    for span in spans:
        assert span.detector == detector.spec.qualified
        assert span.source is detector.spec.source
