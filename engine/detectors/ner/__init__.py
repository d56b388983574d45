"""ONNX NER detector: onnxruntime + tokenizers only (torch never at run time)."""

from __future__ import annotations

from engine.detectors.ner.detector import DEFAULT_MODEL, OnnxNerDetector
from engine.detectors.ner.manifest import NerManifest, load_manifest

__all__ = [
    "DEFAULT_MODEL",
    "NerManifest",
    "OnnxNerDetector",
    "default_ner_detector",
    "load_manifest",
]


def default_ner_detector(*, threads: int | None = None, batch_size: int = 1) -> OnnxNerDetector:
    """The shipped model. Fails closed (ModelIntegrityError) if it is absent or altered."""
    return OnnxNerDetector.from_model_dir(None, threads=threads, batch_size=batch_size)
