from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.core.errors import ModelIntegrityError
from engine.detectors.ner import OnnxNerDetector, load_manifest


def test_valid_manifest(fake_model_dir: Path) -> None:
    m = load_manifest(fake_model_dir)
    assert m.name == "fake" and m.max_tokens == 16 and m.overlap == 6 and m.stride == 8
    assert "PATIENT" in m.labels


def test_o_threshold_read_with_entity_first(fake_model_dir: Path) -> None:
    assert load_manifest(fake_model_dir).o_threshold == 0.5
    path = fake_model_dir / "manifest.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "decode": "entity-first",
                                "o_threshold": 0.9}))
    m = load_manifest(fake_model_dir)
    assert (m.decode, m.o_threshold) == ("entity-first", 0.9)


def test_missing_dir_fails_closed(tmp_path: Path) -> None:
    with pytest.raises(ModelIntegrityError, match="manifest.json is missing"):
        OnnxNerDetector.from_model_dir(tmp_path / "absent")


def test_missing_file(fake_model_dir: Path) -> None:
    (fake_model_dir / "model.onnx").unlink()
    with pytest.raises(ModelIntegrityError, match="model.onnx .*missing"):
        OnnxNerDetector.from_model_dir(fake_model_dir)


def test_hash_mismatch(fake_model_dir: Path) -> None:
    (fake_model_dir / "tokenizer.json").write_text("{}")
    with pytest.raises(ModelIntegrityError, match="sha256 of tokenizer.json does not match"):
        OnnxNerDetector.from_model_dir(fake_model_dir)


@pytest.mark.parametrize(
    "edit",
    [
        lambda m: m.pop("files"),
        lambda m: m.__setitem__("tags", ["O", "B-NOTALABEL"]),
        lambda m: m["files"].pop("model.onnx"),
        lambda m: m.__setitem__("overlap", 100),
        lambda m: m.__setitem__("decode", "softmax-ish"),
        lambda m: m.update(decode="entity-first", o_threshold=1.5),
        lambda m: m.update(decode="entity-first", o_threshold=0),
        lambda m: m.update(decode="argmax", o_threshold=0.9),  # means nothing there
    ],
)
def test_malformed_manifest(fake_model_dir: Path, edit) -> None:  # type: ignore[no-untyped-def]
    path = fake_model_dir / "manifest.json"
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    with pytest.raises(ModelIntegrityError):
        load_manifest(fake_model_dir)


def test_shipped_model_tampered_copy_fails(tmp_path: Path) -> None:
    from engine.paths import models_dir

    src = models_dir() / "clearnote-ner-minilm"
    dst = tmp_path / "m"
    shutil.copytree(src, dst)
    with (dst / "model.onnx").open("ab") as fh:
        fh.write(b"\0")
    with pytest.raises(ModelIntegrityError, match="sha256 of model.onnx"):
        OnnxNerDetector.from_model_dir(dst)
