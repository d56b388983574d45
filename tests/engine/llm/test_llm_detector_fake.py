from __future__ import annotations

import json
import threading
from itertools import pairwise

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document, Source
from engine.core.errors import CancelledError, DetectorError
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.detectors.base import Detector
from engine.detectors.llm import LlmDetector, SchemaBounds
from engine.runtimes import LlamaRuntime

from .fakes import FakeChatModel, chunk_text, entities

TEXT = "Mary Olsen was seen by Dr. Khan. Mary Olsen takes lisinopril 20 mg daily."


def _detector(model: FakeChatModel, policy: str = "strict", **kw: object) -> LlmDetector:
    runtime = LlamaRuntime.from_model(model, name="fake", token_budget=kw.pop("budget", None))
    return LlmDetector(runtime, policy=get_policy(policy), **kw)  # type: ignore[arg-type]


def test_spans_align_to_every_occurrence_and_hallucinations_are_counted() -> None:
    model = FakeChatModel(entities(("PATIENT", "Mary Olsen"), ("DOCTOR", "Khan"),
                                   ("PATIENT", "Zed Invented")))
    det = _detector(model)
    assert isinstance(det, Detector)
    doc = Document.from_text(TEXT)
    spans = det.detect(doc, RunContext())
    assert [(doc.slice(s), s.label) for s in spans] == [
        ("Mary Olsen", Label.PATIENT), ("Khan", Label.DOCTOR), ("Mary Olsen", Label.PATIENT)]
    assert all(s.source is Source.LLM and s.detector == "llm.fake@1" for s in spans)
    stats = det.last_stats
    assert (stats.quotes, stats.aligned, stats.hallucinated, stats.spans) == (3, 2, 1, 3)
    assert model.resets >= 2  # before and after the document


def test_output_is_revalidated_items_counted_invalid() -> None:
    bad = json.dumps({"entities": [{"label": "PATIENT", "text": "Mary Olsen"},
                                   {"label": "DRUG", "text": "lisinopril"},
                                   {"label": "PATIENT", "text": ""},
                                   {"label": "PATIENT", "text": "x" * 200}, "junk"]})
    det = _detector(FakeChatModel(bad))
    spans = det.detect(Document.from_text(TEXT), RunContext())
    assert len(spans) == 2 and det.last_stats.invalid_items == 4


def test_unparseable_output_fails_closed() -> None:
    det = _detector(FakeChatModel('{"entities": [{"label": "PAT'))
    with pytest.raises(DetectorError) as err:
        det.detect(Document.from_text(TEXT), RunContext())
    assert "Mary" not in str(err.value)  # no PHI in errors


def test_chunks_overlap_and_spans_are_deduplicated() -> None:
    words = [f"w{i}" for i in range(50)]
    words[17] = "Olsen"  # inside the overlap of windows 0 and 1
    text = " ".join(words)
    model = FakeChatModel(lambda m: entities(("PATIENT", "Olsen"))
                          if "Olsen" in chunk_text(m) else entities())
    det = _detector(model, window_words=20, overlap_words=5)
    windows = det.chunks(text)
    assert len(windows) == 3 and all(a[1] > b[0] for a, b in pairwise(windows))
    spans = det.detect(Document.from_text(text), RunContext())
    assert len(model.calls) == 3 and len(spans) == 1
    assert text[spans[0].start:spans[0].end] == "Olsen"


def test_cancellation_between_chunks() -> None:
    ctx = RunContext()
    model = FakeChatModel(lambda m: (ctx.cancel.cancel(), entities())[1])
    det = _detector(model, window_words=10, overlap_words=2)
    with pytest.raises(CancelledError):
        det.detect(Document.from_text(" ".join(["word"] * 60)), ctx)
    assert len(model.calls) == 1


def test_token_budget_stops_the_document() -> None:
    model = FakeChatModel(entities(), tokens_per_call=100)
    det = _detector(model, window_words=10, overlap_words=2, budget=250)
    with pytest.raises(DetectorError, match="budget"):
        det.detect(Document.from_text(" ".join(["word"] * 60)), RunContext())
    assert len(model.calls) == 3


def test_policy_shapes_prompt_and_schema() -> None:
    model = FakeChatModel(entities(("PATIENT", "Mary Olsen")))
    det = _detector(model, policy="canadian-referral", bounds=SchemaBounds(4, 16))
    det.detect(Document.from_text(TEXT), RunContext())
    call = model.calls[0]
    schema = call["response_format"]["schema"]
    items = schema["properties"]["entities"]
    assert items["maxItems"] == 4 and items["items"]["properties"]["text"]["maxLength"] == 16
    assert "DOCTOR" not in items["items"]["properties"]["label"]["enum"]
    system = call["messages"][0]["content"]
    assert "providers' names" in system and "years are kept" in system
    assert "Do not tag ages" in system and "EXAMPLE" in system
    assert call["max_tokens"] == SchemaBounds(4, 16).max_tokens


def test_policy_filters_kept_ages() -> None:
    model = FakeChatModel(entities(("AGE", "54 year old"), ("AGE", "93 year old")))
    det = _detector(model, policy="hipaa")
    doc = Document.from_text("A 54 year old man and his 93 year old father.")
    assert [doc.slice(s) for s in det.detect(doc, RunContext())] == ["93 year old"]


def test_calls_are_serialised_by_the_runtime_lock() -> None:
    model = FakeChatModel(entities(("PATIENT", "Mary Olsen")), delay=0.02)
    det = _detector(model)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            det.detect(Document.from_text(TEXT), RunContext())
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(model.calls) == 6 and model.max_concurrent == 1
