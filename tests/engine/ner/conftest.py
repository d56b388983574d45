"""Fixtures for the NER detector tests: a tiny `tokenizers` tokenizer and a fake ONNX session."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

from engine.detectors.ner.detector import OnnxNerDetector
from engine.detectors.ner.features import TAGS
from engine.detectors.ner.manifest import load_manifest, write_manifest

WORDS = ("the", "patient", "john", "smith", "was", "seen", "today", "filler", ".", ",")


def build_tokenizer() -> Tokenizer:
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", *WORDS])}
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return tok


class FakeSession:
    """Tags "john" B-PATIENT and "smith" I-PATIENT, except within ``blind`` tokens of a
    window edge, where it says O: only central predictions are right, as in a real model
    that lacks context at window edges."""

    def __init__(self, tok: Tokenizer, blind: int = 2) -> None:
        self.john, self.smith = tok.token_to_id("john"), tok.token_to_id("smith")
        self.blind = blind
        self.calls: list[tuple[int, int]] = []

    def get_inputs(self) -> list[Any]:
        return [
            SimpleNamespace(name="input_ids"),
            SimpleNamespace(name="attention_mask"),
            SimpleNamespace(name="shape_ids"),
        ]

    def run(self, _out: Any, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        ids, mask = feed["input_ids"], feed["attention_mask"]
        self.calls.append(ids.shape)
        logits = np.zeros((*ids.shape, len(TAGS)), dtype=np.float32)
        logits[..., 0] = 5.0
        for r in range(ids.shape[0]):
            n = int(mask[r].sum())
            for c in range(1, n - 1):
                if min(c - 1, n - 2 - c) < self.blind:
                    continue
                if ids[r, c] == self.john:
                    logits[r, c, TAGS.index("B-PATIENT")] = 9.0
                elif ids[r, c] == self.smith:
                    logits[r, c, TAGS.index("I-PATIENT")] = 9.0
        return [logits]


def write_fake_model(path: Path, *, max_tokens: int = 16, overlap: int = 6) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "model.onnx").write_bytes(b"not a real model")
    build_tokenizer().save(str(path / "tokenizer.json"))
    write_manifest(
        path,
        {
            "name": "fake",
            "version": 3,
            "labels": ["PATIENT"],
            "tags": list(TAGS),
            "max_tokens": max_tokens,
            "overlap": overlap,
            "special_tokens": {"cls": "[CLS]", "sep": "[SEP]", "pad": "[PAD]"},
            "thresholds": {},
        },
        ["model.onnx", "tokenizer.json"],
    )
    return path


@pytest.fixture
def fake_model_dir(tmp_path: Path) -> Path:
    return write_fake_model(tmp_path / "fake")


def fake_detector(
    model_dir: Path, *, batch_size: int = 2, blind: int = 2
) -> tuple[OnnxNerDetector, FakeSession]:
    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    session = FakeSession(tok, blind=blind)
    return OnnxNerDetector(load_manifest(model_dir), session, tok, batch_size=batch_size), session


def manifest_json(path: Path) -> dict[str, Any]:
    return json.loads((path / "manifest.json").read_text())
