"""The LLM detector: a local GGUF model quotes PHI strings; code finds their offsets."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.errors import CancelledError, DetectorError, ModelError
from engine.core.labels import Label
from engine.core.policies import Policy
from engine.core.windows import plan_windows
from engine.detectors.base import DetectorSpec
from engine.detectors.llm.align import align_quote, normalise
from engine.detectors.llm.prompt import (
    SchemaBounds,
    build_messages,
    build_schema,
    requested_labels,
)
from engine.runtimes import LlamaRuntime

_WORD = re.compile(r"\S+")
VERSION = 1


@dataclass(frozen=True)
class LlmStats:
    """Counts for one document (or summed over many); never any text."""

    chunks: int = 0
    quotes: int = 0  # distinct (label, text) items the model returned
    aligned: int = 0  # quotes found in the text
    hallucinated: int = 0  # quotes found nowhere: counted, never turned into spans
    fuzzy: int = 0  # quotes found only by the OCR-tolerant fuzzy pass
    invalid_items: int = 0  # items that failed re-validation (bad label, length, type)
    spans: int = 0
    tokens: int = 0

    def __add__(self, other: LlmStats) -> LlmStats:
        return LlmStats(*(a + b for a, b in zip(_values(self), _values(other), strict=True)))


def _values(stats: LlmStats) -> tuple[int, ...]:
    return (stats.chunks, stats.quotes, stats.aligned, stats.hallucinated, stats.fuzzy,
            stats.invalid_items, stats.spans, stats.tokens)


@dataclass
class _Counter:
    values: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        LlmStats.__dataclass_fields__, 0))

    def add(self, key: str, n: int = 1) -> None:
        self.values[key] += n

    def freeze(self) -> LlmStats:
        return LlmStats(**self.values)


def parse_items(raw: str, labels: tuple[Label, ...], bounds: SchemaBounds,
                ) -> tuple[list[tuple[Label, str]], int]:
    """Re-validate model output (grammar or not). Returns (items, invalid item count)."""
    try:
        data: Any = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError("model output is not valid JSON") from exc
    if not isinstance(data, dict) or not isinstance(data.get("entities"), list):
        raise ValueError("model output lacks an 'entities' list")
    allowed = {label.value: label for label in labels}
    items: list[tuple[Label, str]] = []
    invalid = 0
    for entry in data["entities"]:
        label = entry.get("label") if isinstance(entry, dict) else None
        text = entry.get("text") if isinstance(entry, dict) else None
        if (len(items) >= bounds.max_items or label not in allowed or not isinstance(text, str)
                or not text.strip() or len(text) > bounds.max_length):
            invalid += 1
            continue
        items.append((allowed[label], text))
    return items, invalid


class LlmDetector:
    """Detector ``llm.<model>``: one more vote in the ensemble, off unless configured."""

    def __init__(self, runtime: LlamaRuntime, *, policy: Policy, window_words: int = 160,
                 overlap_words: int = 24, bounds: SchemaBounds | None = None,
                 confidence: float = 0.8) -> None:
        self.runtime = runtime
        self.policy = policy
        self.window_words = window_words
        self.overlap_words = overlap_words
        self.bounds = bounds or SchemaBounds()
        self.confidence = confidence
        self.labels = requested_labels(policy)
        self.schema = build_schema(self.labels, self.bounds)
        self.spec = DetectorSpec(id=f"llm.{runtime.name}", version=VERSION, source=Source.LLM,
                                 description="local GGUF model quoting PHI under a JSON schema")
        self.last_stats = LlmStats()
        self.total_stats = LlmStats()

    def chunks(self, text: str) -> list[tuple[int, int]]:
        """Character ranges of overlapping word windows (never truncating)."""
        words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
        return [(words[s][0], words[e - 1][1])
                for s, e in plan_windows(len(words), self.window_words, self.overlap_words)]

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        counter = _Counter()
        try:
            spans = self._detect(doc, ctx, counter)
        except CancelledError:
            raise
        except ModelError as exc:
            raise DetectorError(self.spec.qualified, str(exc)) from exc
        finally:
            self.last_stats = counter.freeze()
            self.total_stats = self.total_stats + self.last_stats
            self.runtime.reset()  # nothing of this document stays in the KV cache
        return spans

    def _detect(self, doc: Document, ctx: RunContext, counter: _Counter) -> list[Span]:
        budget = self.runtime.new_budget()
        self.runtime.load()
        self.runtime.reset()
        found: dict[tuple[int, int, Label], Span] = {}
        windows = self.chunks(doc.text)
        for index, (start, end) in enumerate(windows):
            ctx.check()  # cancellation between chunks
            ctx.report(self.spec.id, index, len(windows), f"chunk {index + 1}/{len(windows)}")
            if budget.exhausted:
                raise DetectorError(self.spec.qualified,
                                    f"token budget spent after {index} of {len(windows)} chunks")
            chunk = doc.text[start:end]
            completion = self.runtime.chat(build_messages(self.policy, chunk),
                                           max_tokens=self.bounds.max_tokens,
                                           json_schema=self.schema, budget=budget)
            counter.add("chunks")
            counter.add("tokens", completion.total_tokens)
            try:
                items, invalid = parse_items(completion.text, self.labels, self.bounds)
            except ValueError as exc:
                raise DetectorError(self.spec.qualified,
                                    f"chunk {index}: {exc} ({completion.finish_reason})"
                                    ) from exc
            counter.add("invalid_items", invalid)
            for label, quote in dict.fromkeys((lb, normalise(q)) for lb, q in items):
                counter.add("quotes")
                matches = align_quote(quote, chunk)
                if not matches:
                    counter.add("hallucinated")
                    continue
                counter.add("aligned")
                if matches[0].score < 100:
                    counter.add("fuzzy")
                for m in matches:
                    span = Span(start + m.start, start + m.end, label, source=Source.LLM,
                                detector=self.spec.qualified,
                                confidence=round(self.confidence * m.score / 100, 3))
                    if self.policy.is_phi(span, doc.text):
                        found.setdefault((span.start, span.end, label), span)
        ctx.report(self.spec.id, len(windows), len(windows), "done")
        spans = sorted(found.values(), key=lambda s: (s.start, s.end))
        counter.add("spans", len(spans))
        return spans
