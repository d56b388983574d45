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



def test_windows_run_unbatched_so_spans_never_depend_on_batching(det: OnnxNerDetector) -> None:
    # The int8 model quantizes activations with one scale per input tensor: in a padded
    # batch a window's spans would depend on its neighbours (measured: batch 1 vs 3 vs 8
    # differ on this document). Unbatched, a document's spans are its own: the same whether
    # it runs alone, after another document, or by a fresh detector. Synthetic PHI only.
    assert det.batch_size == 1 and default_ner_detector().batch_size == 1
    unit = ("Seen by Dr. Mara Quinn at Lakeside Clinic on 3 March 2021; patient Harold Finch, "
            "MRN 00482913, phone 416-555-0142, reports chest pain relieved by rest. ")
    doc = Document.from_text(unit * 40 + "Signed: Dr. Emily Chen")
    assert len(det.plan(len(det.encode(doc.text)[0]))) >= 5
    def key(spans):  # type: ignore[no-untyped-def]
        return [(s.start, s.end, s.label, s.confidence) for s in spans]

    first = key(det.detect(doc, RunContext()))
    det.detect(Document.from_text("Call Dr. Sam Lee at 403-555-0199 about Anna Keller."),
               RunContext())
    assert first and key(det.detect(doc, RunContext())) == first
