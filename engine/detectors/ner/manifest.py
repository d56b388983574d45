"""The model manifest: what a ClearNote NER model dir contains, verified by sha256."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.errors import ModelIntegrityError
from engine.core.labels import Label
from engine.detectors.ner.decode import DEFAULT_O_THRESHOLD

MANIFEST = "manifest.json"
FORMAT = "clearnote-ner/1"
REQUIRED_FILES = ("model.onnx", "tokenizer.json")
# How token probabilities become labels (decode.decode_bio): "argmax" over O and the labels,
# or "entity-first": PHI when P(O) < o_threshold (1/2 unless the manifest says), then the
# likeliest label. A distilled student is surer of O than its teacher on text unlike its
# training data; a higher o_threshold spends that on recall (models/.../README.md).
DECODES = ("argmax", "entity-first")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@dataclass(frozen=True)
class NerManifest:
    name: str
    version: int
    tags: tuple[str, ...]  # model output index -> "O" | "B-<Label>" | "I-<Label>"
    max_tokens: int  # window length including the two special tokens
    overlap: int  # tokens shared by consecutive windows
    special_tokens: dict[str, str]
    files: dict[str, str]  # relative path -> sha256
    thresholds: dict[str, float] = field(default_factory=dict)
    decode: str = "argmax"
    o_threshold: float = DEFAULT_O_THRESHOLD  # entity-first: PHI when P(O) < this
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t[2:] for t in self.tags if t != "O"))

    @property
    def stride(self) -> int:
        return self.max_tokens - 2 - self.overlap


def _fail(model_dir: Path, problem: str) -> ModelIntegrityError:
    return ModelIntegrityError(f"NER model {model_dir}: {problem}")


def load_manifest(model_dir: Path, *, verify: bool = True) -> NerManifest:
    """Read ``manifest.json`` and (by default) check every listed file's sha256."""
    path = model_dir / MANIFEST
    if not path.is_file():
        raise _fail(model_dir, f"{MANIFEST} is missing")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        files = {str(k): str(v) for k, v in raw["files"].items()}
        tags = tuple(str(t) for t in raw["tags"])
        m = NerManifest(
            name=str(raw["name"]),
            version=int(raw["version"]),
            tags=tags,
            max_tokens=int(raw["max_tokens"]),
            overlap=int(raw["overlap"]),
            special_tokens={str(k): str(v) for k, v in raw["special_tokens"].items()},
            files=files,
            thresholds={str(k): float(v) for k, v in raw.get("thresholds", {}).items()},
            decode=str(raw.get("decode", "argmax")),
            o_threshold=float(raw.get("o_threshold", DEFAULT_O_THRESHOLD)),
            raw=raw,
        )
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise _fail(model_dir, f"{MANIFEST} is malformed ({type(exc).__name__}: {exc})") from exc
    for t in m.tags:
        if t != "O" and (t[:2] not in ("B-", "I-") or t[2:] not in Label.__members__):
            raise _fail(
                model_dir, f"tag {t!r} is not O, B-<label> or I-<label> over ClearNote labels"
            )
    if m.decode not in DECODES:
        raise _fail(model_dir, f"decode {m.decode!r} is not one of {', '.join(DECODES)}")
    if not 0.0 < m.o_threshold <= 1.0:
        raise _fail(model_dir, "o_threshold must be in (0, 1]")
    if m.decode != "entity-first" and "o_threshold" in raw:
        raise _fail(model_dir, "o_threshold applies to decode entity-first only")
    if m.max_tokens < 8 or not 0 <= m.overlap < m.max_tokens - 2:
        raise _fail(model_dir, "max_tokens/overlap out of range")
    for req in REQUIRED_FILES:
        if req not in m.files:
            raise _fail(model_dir, f"{MANIFEST} does not list {req}")
    if verify:
        for rel, digest in m.files.items():
            f = model_dir / rel
            if not f.is_file():
                raise _fail(model_dir, f"file {rel} listed in {MANIFEST} is missing")
            actual = sha256_file(f)
            if actual != digest:
                raise _fail(
                    model_dir,
                    f"sha256 of {rel} does not match {MANIFEST} "
                    f"(expected {digest[:12]}…, found {actual[:12]}…)",
                )
    return m


def write_manifest(model_dir: Path, data: dict[str, Any], files: list[str]) -> dict[str, Any]:
    """Write ``manifest.json`` with the sha256 of each of ``files`` (relative to the dir)."""
    data = dict(data)
    data["format"] = FORMAT
    data["files"] = {rel: sha256_file(model_dir / rel) for rel in files}
    (model_dir / MANIFEST).write_text(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return data
