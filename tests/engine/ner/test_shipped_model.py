"""The shipped default model (models/clearnote-ner-minilm) loads, verifies and finds obvious PHI."""

from __future__ import annotations

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document
from engine.core.labels import NAME_LABELS, Label
from engine.detectors.ner import OnnxNerDetector, default_ner_detector


@pytest.fixture(scope="module")
def det() -> OnnxNerDetector:
    return default_ner_detector(threads=1)


def covered(text: str, spans, needle: str, labels) -> bool:  # type: ignore[no-untyped-def]
    """Every non-space character of ``needle`` lies in a span with one of ``labels``
    (a name may come back as two adjacent spans; under Strict both are replaced)."""
    s = text.index(needle)
    return all(
        any(sp.start <= i < sp.end and sp.label in labels for sp in spans)
        for i in range(s, s + len(needle))
        if not text[i].isspace()
    )


def test_manifest_is_complete(det: OnnxNerDetector) -> None:
    raw = det.manifest.raw
    for key in (
        "name",
        "version",
        "labels",
        "tags",
        "max_tokens",
        "stride",
        "special_tokens",
        "files",
        "training",
        "git_commit",
        "thresholds",
    ):
        assert key in raw, key
    assert set(raw["files"]) == {"model.onnx", "tokenizer.json"}
    assert det.spec.id == "ner.clearnote-ner-minilm"


def test_obvious_phi_in_a_sentence(det: OnnxNerDetector) -> None:
    text = (
        "Patient: John Smith\nDOB: 1980-02-03\nMRN: 4827719\nPhone: (403) 555-0199\n\n"
        "Mr. Smith is a 54-year-old man seen today by Dr. Emily Chen for chest pain."
    )
    spans = det.detect(Document.from_text(text), RunContext())
    assert covered(text, spans, "John Smith", NAME_LABELS)
    assert covered(text, spans, "1980-02-03", {Label.DATE})
    assert covered(text, spans, "(403) 555-0199", {Label.PHONE})
    assert covered(text, spans, "4827719", {Label.ID})
    assert covered(text, spans, "Emily Chen", NAME_LABELS)
    assert not any(text[s.start : s.end] == "chest pain" for s in spans)


def test_long_and_non_latin_documents(det: OnnxNerDetector) -> None:
    body = "The patient reports intermittent chest pain relieved by rest. " * 350
    text = body + "Signed: Dr. Emily Chen\n" + "患者 李雷, Здравствуйте, مرحبا 🙂\n"
    assert len(text) > 20_000
    spans = det.detect(Document.from_text(text), RunContext())
    assert all(0 <= s.start < s.end <= len(text) for s in spans)
    assert covered(text, spans, "Emily Chen", NAME_LABELS)  # found at the very end: no truncation
    assert det.detect(Document.from_text(""), RunContext()) == []
