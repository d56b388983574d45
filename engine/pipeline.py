"""Detection pipeline: run detectors (fail closed) → union → resolution (engine.resolution:
guards, allowlist and what the project learned, overlap policy, policy filter)."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.context import RunContext
from engine.core.domain import DetectionResult, Document, Span
from engine.core.errors import CancelledError, ClearNoteError, DetectorError
from engine.core.labels import Label
from engine.core.policies import DEFAULT_POLICY, Policy, get_policy
from engine.detectors.base import Detector
from engine.resolution.overlaps import DEFAULT_OVERLAP
from engine.resolution.resolver import Recoverer, Resolver
from engine.resolution.segments import MAX_DOCUMENT_CHARS, check_size, detect_in_segments

if TYPE_CHECKING:
    from engine.profile import Profile

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PipelineConfig:
    policy: str = DEFAULT_POLICY
    overlap: str = DEFAULT_OVERLAP
    # "auto": use the shipped NER model when it is installed; True: require it; False: off.
    ner: bool | str = "auto"
    ner_model: Path | None = None
    ner_threads: int | None = None
    llm_model: Path | None = None  # a GGUF file; the LLM detector is off unless set
    gazetteers: bool = True
    allowlist: bool = True
    user_dictionary: tuple[tuple[str, Label], ...] = ()
    max_document_chars: int = MAX_DOCUMENT_CHARS  # longer texts fail with a clear error
    # What a project learned (engine.profile): a local PHI dictionary detector, a local
    # vocabulary after the allowlist, a learned resolver as a decider.
    profile: Profile | None = None


@dataclass
class DetectorTiming:
    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, detector: str, seconds: float) -> None:
        self.seconds[detector] = self.seconds.get(detector, 0.0) + seconds


class Pipeline:
    def __init__(self, detectors: Sequence[Detector], *, policy: Policy,
                 recoverers: Sequence[Recoverer] = (), overlap: str = DEFAULT_OVERLAP,
                 max_document_chars: int = MAX_DOCUMENT_CHARS,
                 learned: Sequence[Recoverer] = (), deciders: Sequence[Recoverer] = (),
                 protected_terms: frozenset[str] = frozenset()) -> None:
        if not detectors:
            raise ValueError("a pipeline needs at least one detector")
        self.detectors = tuple(detectors)
        self.resolver = Resolver(policy=policy, overlap=overlap, recoverers=tuple(recoverers),
                                 learned=tuple(learned), deciders=tuple(deciders),
                                 protected_terms=protected_terms)
        self.max_document_chars = max_document_chars
        self.timing = DetectorTiming()

    @property
    def policy(self) -> Policy:
        return self.resolver.policy

    @property
    def overlap(self) -> str:
        return self.resolver.overlap

    @property
    def detector_ids(self) -> tuple[str, ...]:
        return tuple(d.spec.qualified for d in self.detectors)

    def propose(self, doc: Document, ctx: RunContext) -> list[Span]:
        """Every candidate from every detector. A failing detector fails the document."""
        proposed: list[Span] = []
        for index, detector in enumerate(self.detectors):
            ctx.check()
            name = detector.spec.qualified
            started = time.perf_counter()
            try:
                spans = detector.detect(doc, ctx)
            except (CancelledError, DetectorError):
                raise
            except ClearNoteError as exc:
                raise DetectorError(name, type(exc).__name__) from exc
            except Exception as exc:  # noqa: BLE001 - fail closed on anything unexpected
                raise DetectorError(name, f"unexpected {type(exc).__name__}") from exc
            self.timing.add(name, time.perf_counter() - started)
            for span in spans:
                if span.end > len(doc.text):
                    raise DetectorError(name, "span outside the document")
            proposed.extend(spans)
            ctx.report("detect", index + 1, len(self.detectors), name)
        return proposed

    def run(self, doc: Document, ctx: RunContext | None = None) -> DetectionResult:
        ctx = ctx or RunContext()
        check_size(doc, self.max_document_chars)
        # Long texts go through in bounded segments (engine.resolution.segments): linear time.
        candidates, dropped = detect_in_segments(doc, ctx, self._candidates)
        spans = self.resolver.settle(doc, candidates)
        log.debug("document %s: %d candidates, %d kept, %d allowlisted", doc.id,
                  len(candidates), len(spans), len(dropped))
        return DetectionResult(document_id=doc.id, spans=tuple(spans),
                               detectors=self.detector_ids, policy=self.policy.name,
                               allowlisted=len(dropped))

    def _candidates(self, doc: Document, ctx: RunContext) -> tuple[list[Span], list[Span]]:
        """(kept, dropped as not PHI here) candidates of every detector."""
        return self.resolver.screen(doc, self.propose(doc, ctx))


def build_detectors(config: PipelineConfig) -> list[Detector]:
    """The ensemble for a configuration. Heavy runtimes are imported only when enabled."""
    from engine.detectors.registry import build_detectors as build

    return build(config)


def build_pipeline(config: PipelineConfig | None = None, **overrides: object) -> Pipeline:
    if config is None:
        config = PipelineConfig(**overrides)  # type: ignore[arg-type]
    elif overrides:
        raise TypeError("pass either a config or keyword overrides, not both")
    recoverers: list[Recoverer] = []
    if config.allowlist:
        from engine.resolution.allowlist import ClinicalAllowlist

        recoverers.append(ClinicalAllowlist.default())
    detectors = build_detectors(config)
    learned: list[Recoverer] = []
    deciders: list[Recoverer] = []
    protected: frozenset[str] = frozenset()
    profile = config.profile
    if profile is not None:
        from engine.detectors.dictionary.local import LocalDictionaryDetector
        from engine.resolution.vocabulary import LocalVocabulary

        if profile.phi:
            detectors.append(LocalDictionaryDetector(profile.phi, common=profile.common,
                                                     version_tag=profile.content_version))
        if profile.vocabulary:
            learned.append(LocalVocabulary.from_entries(profile.vocabulary))
        deciders += _learned_deciders(profile)
        protected = profile.phi_terms()
    return Pipeline(detectors, policy=get_policy(config.policy),
                    recoverers=recoverers, overlap=config.overlap,
                    max_document_chars=config.max_document_chars, learned=learned,
                    deciders=deciders, protected_terms=protected)


def _learned_deciders(profile: Profile) -> list[Recoverer]:
    """The profile's learned resolver as a decider (engine.resolution.learned), if any."""
    if profile.learned is None:
        return []
    from engine.resolution.learned import LearnedResolver  # numpy: only with a profile

    return [LearnedResolver.from_dict(profile.learned)]
