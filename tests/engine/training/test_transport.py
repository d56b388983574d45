"""transport: a run with frozen word embeddings goes back as one file of under 16 MiB and comes
back whole, and a different init is refused. Also: train.build_model from an encoder dir that
holds only the config (what a GPU machine is carried). Runs in the training interpreter
($CLEARNOTE_TRAIN_PYTHON; `make test` builds and sets it)."""

from __future__ import annotations

from tests.engine.training.training_python import needs_torch, run_check

CHECK = """
import atexit, json, shutil, sys, tempfile
from pathlib import Path
import torch
from engine.detectors.ner.features import TAGS
from engine.training.train import build_model, find_minilm
from engine.training.transport import WORD_EMBEDDINGS, pack, unpack

tmp = Path(tempfile.mkdtemp())
atexit.register(shutil.rmtree, tmp, True)  # 300 MB of checkpoints per run
enc = tmp / "enc"
enc.mkdir()
shutil.copy(find_minilm() / "config.json", enc)  # no weights: built from the config alone
model = build_model(enc, len(TAGS), 16, layers=4)
assert model.encoder.config.num_hidden_layers == 4
warm, run, back = tmp / "warm", tmp / "run", tmp / "back"
for d in (warm, run):
    d.mkdir()
state = model.state_dict()
torch.save(state, warm / "ckpt.pt")
trained = {k: (v if k == WORD_EMBEDDINGS or not v.is_floating_point() else v + 0.01)
           for k, v in state.items()}
torch.save(trained, run / "ckpt.pt")
(run / "train_info.json").write_text(json.dumps({"frozen_word_embeddings": True, "steps": 3}))
packed = tmp / "run.packed.pt"
pack(run, packed, warm)
assert packed.stat().st_size < 16 * 2**20, packed.stat().st_size
unpack(packed, warm, back)
got = torch.load(back / "ckpt.pt")
assert torch.equal(got[WORD_EMBEDDINGS], state[WORD_EMBEDDINGS])
assert all(torch.allclose(got[k].float(), v.float(), atol=2e-3) for k, v in trained.items())
assert json.loads((back / "train_info.json").read_text())["steps"] == 3
other = tmp / "other"
other.mkdir()
torch.save({**state, WORD_EMBEDDINGS: state[WORD_EMBEDDINGS] * 2}, other / "ckpt.pt")
try:
    unpack(packed, other, tmp / "bad")
except ValueError as exc:
    assert "not the one" in str(exc)
else:
    sys.exit("a different init was accepted")
print("ok")
"""


@needs_torch
def test_packed_run_comes_back_whole() -> None:
    run_check(CHECK)
