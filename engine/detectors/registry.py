"""The detector registry: one plain function that builds the ensemble for a config."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

from engine.core.errors import ConfigError
from engine.core.labels import Label
from engine.detectors.base import Detector
from engine.paths import models_dir


class PipelineConfig(Protocol):
    """What the registry reads of ``engine.pipeline.PipelineConfig`` (the pipeline imports
    the registry, never the other way round)."""

    @property
    def policy(self) -> str: ...
    @property
    def ner(self) -> bool | str: ...
    @property
    def ner_model(self) -> Path | None: ...
    @property
    def ner_threads(self) -> int | None: ...
    @property
    def llm_model(self) -> Path | None: ...
    @property
    def gazetteers(self) -> bool: ...
    @property
    def user_dictionary(self) -> tuple[tuple[str, Label], ...]: ...

DEFAULT_NER_MODEL = "clearnote-ner-minilm"


def _ner_detectors(config: PipelineConfig) -> list[Detector]:
    model_dir = config.ner_model or models_dir() / DEFAULT_NER_MODEL
    if config.ner == "auto" and not (model_dir / "manifest.json").exists():
        return []
    if config.ner is False:
        return []
    if config.ner not in (True, "auto"):
        raise ConfigError(f"ner must be true, false or 'auto', not {config.ner!r}")
    from engine.detectors.ner import OnnxNerDetector

    return [OnnxNerDetector.from_model_dir(model_dir, threads=config.ner_threads)]


def _llm_detectors(config: PipelineConfig) -> list[Detector]:
    if config.llm_model is None:
        return []
    from engine.detectors.llm import build_llm_detector

    return [build_llm_detector(config.llm_model, policy=config.policy)]


def build_detectors(config: PipelineConfig) -> list[Detector]:
    # The ONNX model loads on a thread while this one builds the rules and gazetteers:
    # onnxruntime builds its session outside the GIL, so on two cores the two overlap.
    # Same detectors in the same order either way; a load failure is raised here.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="clearnote-ner-load") as pool:
        ner = pool.submit(_ner_detectors, config)
        detectors = _rule_and_dictionary_detectors(config)
        detectors += ner.result()
    detectors += _llm_detectors(config)
    return detectors


def _rule_and_dictionary_detectors(config: PipelineConfig) -> list[Detector]:
    from engine.detectors.regex import default_rule_detectors

    detectors: list[Detector] = list(default_rule_detectors())
    if config.gazetteers:
        from engine.detectors.dictionary import (
            CueNameDetector,
            LocationGazetteerDetector,
            NameGazetteerDetector,
            SignoutNameDetector,
        )

        detectors += [NameGazetteerDetector(), CueNameDetector(), LocationGazetteerDetector(),
                      SignoutNameDetector()]
    if config.user_dictionary:
        from engine.detectors.dictionary import UserDictionaryDetector

        detectors.append(UserDictionaryDetector(config.user_dictionary))
    return detectors
