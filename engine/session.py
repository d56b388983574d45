"""The stateless path: a ``Session`` is a built pipeline plus a surrogate generator, reused
across documents so models load once. Front ends reach it through ``engine.api``."""

from __future__ import annotations

import secrets as _secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.context import RunContext
from engine.core.domain import (
    DeidentifiedText,
    DetectionResult,
    Document,
    Span,
    SurrogateMode,
)
from engine.core.policies import Policy, get_policy
from engine.pipeline import Pipeline, PipelineConfig, build_pipeline

if TYPE_CHECKING:
    from engine.surrogates import Surrogator
    from engine.surrogates.mapping import SurrogateMap


# Synthetic: a name, dates, a phone, an ID, a place and ordinary words, so every detector
# and the resolution stage take their usual path once.
WARM_UP_NOTE = ("Patient: Anna Keller   DOB: 1957-06-14   MRN: 10000001\n"
                "Seen on 2023-05-02 by Dr. Sam Lee at Foothills Clinic, Halifax. "
                "Phone 403-555-0142.\nShe reports chest pain; ECG normal, tolerating diet.\n")


@dataclass(frozen=True)
class SessionConfig:
    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    mode: SurrogateMode = SurrogateMode.SURROGATE
    # Keys the per-patient date shift and surrogate seeds. A CLI run without a project gets
    # a fresh random secret, so two runs do not share surrogates unless the user asks.
    secret: bytes = field(default_factory=lambda: _secrets.token_bytes(32))


class Session:
    """A loaded pipeline and surrogate generator, reused across many documents."""

    def __init__(self, config: SessionConfig | None = None, *,
                 pipeline: Pipeline | None = None, mapping: SurrogateMap | None = None) -> None:
        self.config = config or SessionConfig()
        self._pipeline = pipeline
        self._pipeline_lock = threading.Lock()
        self._mapping = mapping
        self._surrogator: Surrogator | None = None

    @property
    def pipeline(self) -> Pipeline:
        """Built on first use: a batch's parent process only replaces text, and loading
        the detectors (gazetteers, the ONNX model) there would cost seconds for nothing."""
        with self._pipeline_lock:
            if self._pipeline is None:
                self._pipeline = build_pipeline(self.config.pipeline)
            return self._pipeline

    @property
    def surrogator(self) -> Surrogator:
        """Built on first use: `clearnote detect` never replaces text, and the surrogate
        generators (Faker and its locales) cost a third of a second to import."""
        with self._pipeline_lock:
            if self._surrogator is None:
                from engine.surrogates import InMemorySurrogateMap, Surrogator

                mapping = self._mapping if self._mapping is not None else InMemorySurrogateMap()
                self._surrogator = Surrogator(secret=self.config.secret, policy=self.policy,
                                              mode=self.config.mode, mapping=mapping)
            return self._surrogator

    @property
    def policy(self) -> Policy:
        return get_policy(self.config.pipeline.policy)

    def detect(self, doc: Document, ctx: RunContext | None = None) -> DetectionResult:
        return self.pipeline.run(doc, ctx)

    def warm_up(self) -> None:
        """Build the pipeline and run it on a short synthetic note, so what the detectors
        read on first use (the English word list: a tenth of a second in C loops that hold
        the GIL) is in memory before the first document; a window importing meanwhile
        would otherwise stop for that long."""
        self.pipeline.run(Document.from_text(WARM_UP_NOTE))

    def deidentify(self, doc: Document, spans: Sequence[Span], *,
                   patient: str = "default", ctx: RunContext | None = None
                   ) -> DeidentifiedText:
        return self.surrogator.deidentify(doc, spans, patient=patient, ctx=ctx)

    def process(self, doc: Document, ctx: RunContext | None = None, *,
                patient: str = "default") -> tuple[DetectionResult, DeidentifiedText]:
        result = self.detect(doc, ctx)
        return result, self.deidentify(doc, result.active, patient=patient, ctx=ctx)


def load_document(path: str | Path, *, password: str | None = None,
                  ctx: RunContext | None = None) -> Document:
    """Read any supported file (text, PDF, image, DOCX) into a Document."""
    from engine.ingest import load_document as _load

    return _load(path, password=password, ctx=ctx)


def session_factory(config: SessionConfig, mapping: SurrogateMap | None) -> Session:
    return Session(config, mapping=mapping)


@dataclass(frozen=True)
class SessionServices:
    """What a worker process needs to detect without a project (``engine.parallel``):
    module functions, so it pickles into spawned workers."""

    session_factory: Callable[[Any, Any | None], Any] = session_factory
    loader: Callable[..., Document] = load_document
