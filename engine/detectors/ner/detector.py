"""OnnxNerDetector: an ONNX token classifier over overlapping windows (onnxruntime + tokenizers)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.errors import DetectorError, ModelError, ModelIntegrityError
from engine.core.labels import Label
from engine.core.windows import plan_windows
from engine.detectors.base import DetectorSpec
from engine.detectors.ner.decode import decode_bio, stitch, to_char_span
from engine.detectors.ner.features import encode_text
from engine.detectors.ner.manifest import NerManifest, load_manifest
from engine.paths import models_dir

DEFAULT_MODEL = "clearnote-ner-minilm"
# Windows run one at a time by default. The shipped model is int8 with dynamic quantization:
# each DynamicQuantizeLinear takes one scale over the whole input tensor, so a window's
# logits (and spans) would depend on the other windows and the padding in its batch. On CPU
# batching does not pay either: batches of 8 length-sorted windows ran at 0.87x the tokens
# per CPU-second of single windows (issue 16; benchmarks/throughput.py).
DEFAULT_BATCH_SIZE = 1


def _softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x


class OnnxNerDetector:
    """Token classifier over windows that never truncate; spans get per-label thresholds."""

    def __init__(
        self, manifest: NerManifest, session: Any, tokenizer: Any, *,
        batch_size: int = DEFAULT_BATCH_SIZE
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self.manifest = manifest
        self.spec = DetectorSpec(
            id=f"ner.{manifest.name}",
            version=manifest.version,
            source=Source.NER,
            description="ONNX token classifier (BIO) over overlapping windows",
        )
        self._session = session
        self._tokenizer = tokenizer
        self._tok_lock = threading.Lock()  # tokenizers.Tokenizer is not documented thread-safe
        self.batch_size = batch_size
        self._inputs = {i.name for i in session.get_inputs()}
        special = manifest.special_tokens
        self._cls = self._token_id(special.get("cls", "[CLS]"))
        self._sep = self._token_id(special.get("sep", "[SEP]"))
        self._pad = self._token_id(special.get("pad", "[PAD]"))
        self._labels = manifest.labels

    def _token_id(self, token: str) -> int:
        tid = self._tokenizer.token_to_id(token)
        if tid is None:
            raise ModelIntegrityError(
                f"NER model {self.manifest.name}: special token {token!r} not in tokenizer"
            )
        return int(tid)

    @classmethod
    def from_model_dir(
        cls, path: Path | None = None, *, threads: int | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE
    ) -> OnnxNerDetector:
        model_dir = Path(path) if path is not None else models_dir() / DEFAULT_MODEL
        manifest = load_manifest(model_dir)  # raises ModelIntegrityError: fail closed
        from tokenizers import Tokenizer

        from engine.runtimes import onnxruntime

        ort = onnxruntime()  # telemetry off before the session is created

        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads:
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
        try:
            session = ort.InferenceSession(
                str(model_dir / "model.onnx"), sess_options=opts, providers=["CPUExecutionProvider"]
            )
            tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        except Exception as exc:  # onnxruntime/tokenizers raise their own types
            raise ModelError(f"NER model {model_dir}: cannot load ({type(exc).__name__})") from exc
        tokenizer.no_truncation()
        tokenizer.no_padding()
        return cls(manifest, session, tokenizer, batch_size=batch_size)

    # -- windows -------------------------------------------------------------------------
    def encode(self, text: str) -> tuple[list[int], list[tuple[int, int]], list[int]]:
        with self._tok_lock:
            return encode_text(self._tokenizer, text)

    def plan(self, n_tokens: int) -> list[tuple[int, int]]:
        return plan_windows(n_tokens, self.manifest.max_tokens - 2, self.manifest.overlap)

    def feeds(
        self, ids: list[int], shapes: list[int], windows: list[tuple[int, int]]
    ) -> list[dict[str, np.ndarray]]:
        """Padded input batches for ``windows`` (public so benchmarks can time raw inference)."""
        out = []
        for k in range(0, len(windows), self.batch_size):
            batch = windows[k : k + self.batch_size]
            width = max(b - a for a, b in batch) + 2
            arr = np.full((len(batch), width), self._pad, dtype=np.int64)
            mask = np.zeros_like(arr)
            shp = np.zeros_like(arr)
            for r, (a, b) in enumerate(batch):
                n = b - a
                arr[r, 0], arr[r, 1 : n + 1], arr[r, n + 1] = self._cls, ids[a:b], self._sep
                mask[r, : n + 2] = 1
                shp[r, 1 : n + 1] = shapes[a:b]
            feed = {"input_ids": arr, "attention_mask": mask}
            if "shape_ids" in self._inputs:
                feed["shape_ids"] = shp
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = np.zeros_like(arr)
            out.append({k2: v for k2, v in feed.items() if k2 in self._inputs})
        return out

    def run(self, feed: dict[str, np.ndarray]) -> np.ndarray:
        try:
            return np.asarray(self._session.run(None, feed)[0], dtype=np.float32)
        except Exception as exc:
            raise DetectorError(
                self.spec.qualified, f"onnxruntime failed ({type(exc).__name__})"
            ) from exc

    # -- detection -----------------------------------------------------------------------
    def token_probs(
        self, text: str, ctx: RunContext | None = None
    ) -> tuple[list[tuple[int, int]], np.ndarray]:
        """Per-token tag probabilities for the whole text (stitched across windows)."""
        ids, offsets, shapes = self.encode(text)
        windows = self.plan(len(ids))
        probs: list[np.ndarray] = []
        k = 0
        for feed in self.feeds(ids, shapes, windows):
            if ctx is not None:
                ctx.check()
            logits = self.run(feed)
            for row in logits:
                a, b = windows[k]
                probs.append(_softmax(row[1 : b - a + 1].copy()))
                k += 1
        return offsets, stitch(len(ids), windows, probs)

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        text = doc.text
        if not text.strip():
            return []
        offsets, probs = self.token_probs(text, ctx)
        spans: list[Span] = []
        entity_first = self.manifest.decode == "entity-first"
        for ent in decode_bio(probs, self.manifest.tags, self._labels, entity_first=entity_first,
                              o_threshold=self.manifest.o_threshold):
            if ent.confidence < self.manifest.thresholds.get(ent.label, 0.0):
                continue
            start, end = to_char_span(text, offsets, ent)
            if end <= start:
                continue
            spans.append(
                Span(
                    start,
                    end,
                    Label(ent.label),
                    source=Source.NER,
                    detector=self.spec.qualified,
                    confidence=min(max(ent.confidence, 0.0), 1.0),
                )
            )
        return _merge_touching(spans)


def _merge_touching(spans: list[Span]) -> list[Span]:
    """Word widening can make neighbours overlap; keep one span per overlapping run."""
    out: list[Span] = []
    for s in sorted(spans, key=lambda x: (x.start, -x.end)):
        if out and s.start < out[-1].end:
            prev = out[-1]
            if s.end > prev.end:
                out[-1] = prev.moved(prev.start, s.end)
            continue
        out.append(s)
    return out
