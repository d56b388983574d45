"""The runtime over a fake session: windows, batching, stitching, empty and odd text."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document, Source
from engine.core.errors import CancelledError
from engine.core.labels import Label

from .conftest import fake_detector


def detect(det, text: str):  # type: ignore[no-untyped-def]
    return det.detect(Document.from_text(text), RunContext())


def test_spec_and_empty_text(fake_model_dir: Path) -> None:
    det, session = fake_detector(fake_model_dir)
    assert det.spec.qualified == "ner.fake@3" and det.spec.source is Source.NER
    assert detect(det, "") == [] and detect(det, "   \n ") == []
    assert session.calls == []


def test_simple_sentence(fake_model_dir: Path) -> None:
    det, _ = fake_detector(fake_model_dir)
    text = "The patient John Smith was seen today."
    (span,) = detect(det, text)
    assert text[span.start : span.end] == "John Smith" and span.label is Label.PATIENT
    assert span.detector == "ner.fake@3" and 0.9 < span.confidence <= 1.0


@pytest.mark.parametrize("shift", range(14))
def test_entity_found_at_every_window_boundary(fake_model_dir: Path, shift: int) -> None:
    # Windows hold 14 content tokens with overlap 6 (step 8). The fake is blind within 2
    # tokens of a window edge, so the name is found only if stitching takes the central window.
    det, session = fake_detector(fake_model_dir)
    text = "filler " * (6 + shift) + "John Smith " + "filler " * 30
    spans = detect(det, text)
    assert [text[s.start : s.end] for s in spans] == ["John Smith"]
    assert len(session.calls) >= 2  # several windows, batched by 2


def test_long_document_is_never_truncated(fake_model_dir: Path) -> None:
    det, session = fake_detector(fake_model_dir, batch_size=8)
    unit = "The patient was seen today, filler filler. "
    text = unit * 300 + "John Smith" + " today." + unit * 200
    assert len(text) > 20_000
    spans = detect(det, text)
    assert [text[s.start : s.end] for s in spans] == ["John Smith"]
    assert all(shape[0] <= 8 and shape[1] <= 16 for shape in session.calls)


def test_non_latin_text_does_not_crash(fake_model_dir: Path) -> None:
    det, _ = fake_detector(fake_model_dir, blind=0)
    text = "患者 李雷 Здравствуйте مرحبا 🙂 John Smith ñandú"
    spans = detect(det, text)
    assert [text[s.start : s.end] for s in spans] == ["John Smith"]


def test_cancellation_is_polled(fake_model_dir: Path) -> None:
    det, _ = fake_detector(fake_model_dir)
    ctx = RunContext()
    ctx.cancel.cancel()
    with pytest.raises(CancelledError):
        det.detect(Document.from_text("filler " * 100), ctx)


def test_thresholds_drop_low_confidence(fake_model_dir: Path) -> None:
    det, _ = fake_detector(fake_model_dir)
    det.manifest.thresholds["PATIENT"] = 0.99999
    assert detect(det, "The patient John Smith was seen today.") == []


def test_manifest_o_threshold_reaches_the_decoder(fake_model_dir: Path) -> None:
    # The fake model gives every other word P(O) = e^5 / (e^5 + 22) ~ 0.87: O at the default
    # 1/2, PHI once the manifest asks O to be 90% sure.
    text = "The patient John Smith was seen today."
    det, _ = fake_detector(fake_model_dir)
    det.manifest = dataclasses.replace(det.manifest, decode="entity-first")
    assert [text[s.start:s.end] for s in detect(det, text)] == ["John Smith"]
    det.manifest = dataclasses.replace(det.manifest, o_threshold=0.9)
    found = "".join(text[s.start:s.end] for s in detect(det, text))
    assert "John Smith" in found and "seen" in found and "today" in found
