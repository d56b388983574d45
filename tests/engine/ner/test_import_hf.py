"""`models import-hf` end to end on a tiny random DeBERTa-v2 (needs the training venv).

The conversion itself needs torch + transformers, which the app venv never has. The test
runs it in the training interpreter ($CLEARNOTE_TRAIN_PYTHON, else /work/train-venv) and then
loads the result here with onnxruntime + tokenizers only.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document
from engine.detectors.ner import OnnxNerDetector

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
TRAIN_PY = os.environ.get("CLEARNOTE_TRAIN_PYTHON", "/work/train-venv/bin/python")


def _has_training_env() -> bool:
    if not Path(TRAIN_PY).exists():
        return False
    probe = subprocess.run(
        [TRAIN_PY, "-c", "import torch, transformers, onnx"], capture_output=True, check=False
    )
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not _has_training_env(),
    reason="import-hf needs a training interpreter with torch+transformers+onnx; "
    f"none at {TRAIN_PY} "
    "(set CLEARNOTE_TRAIN_PYTHON)",
)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hf")
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [TRAIN_PY, str(HERE / "make_tiny_deberta.py"), str(root)],
        cwd=REPO,
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["max_abs_diff"] < 1e-4  # ONNX fp32 matches torch
    return root


@pytest.mark.parametrize("variant", ["fp32", "int8"])
def test_imported_deberta_runs_in_app_runtime(imported: Path, variant: str) -> None:
    model_dir = imported / variant
    det = OnnxNerDetector.from_model_dir(model_dir, threads=1)
    assert det.spec.qualified == "ner.tiny-deberta@1"
    assert set(det.manifest.labels) == {"PATIENT", "DATE", "HOSPITAL"}  # MISC mapped to null -> O
    label_map = json.loads((model_dir / "label_map.json").read_text())
    assert label_map["entity_map"]["MISC"] is None and label_map["entity_map"]["NAME"] == "PATIENT"
    text = "The patient John Smith was seen by Dr Lee on March 04 2021 at General Hospital. " * 40
    spans = det.detect(Document.from_text(text), RunContext())  # several windows of 64 tokens
    assert all(0 <= s.start < s.end <= len(text) for s in spans)
    assert {s.label.value for s in spans} <= {"PATIENT", "DATE", "HOSPITAL"}
