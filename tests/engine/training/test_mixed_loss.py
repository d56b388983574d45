"""train.py's mixed loss: distilled rows get the loss the file always used, gold-only rows (the
hand-written notes of --gold-only-style) their cross-entropy alone. Runs in the training
interpreter ($CLEARNOTE_TRAIN_PYTHON; `make test` builds and sets it)."""

from __future__ import annotations

from tests.engine.training.training_python import needs_torch, run_check

CHECK = """
import torch
from engine.training.distil import IGNORE, mixed_loss
torch.manual_seed(0)
logits, soft = torch.randn(3, 5, 23), torch.randn(3, 5, 23)
lab = torch.randint(0, 23, (3, 5))
lab[0, 0] = IGNORE
mask = torch.ones(3, 5, dtype=torch.long)
t, alpha = 2.0, 0.7
ce = torch.nn.functional.cross_entropy(logits.view(-1, 23), lab.view(-1), ignore_index=IGNORE)
kd = torch.nn.functional.kl_div(torch.log_softmax(logits.view(-1, 23) / t, -1),
                                torch.log_softmax(soft.view(-1, 23) / t, -1),
                                log_target=True, reduction="batchmean") * t * t
every = mixed_loss(logits, soft, lab, mask, torch.tensor([True] * 3), alpha, t)
none = mixed_loss(logits, soft, lab, mask, torch.tensor([False] * 3), alpha, t)
some = mixed_loss(logits, soft, lab, mask, torch.tensor([True, False, True]), alpha, t)
assert torch.isclose(every, alpha * kd + (1 - alpha) * ce, atol=1e-5), (every, kd, ce)
assert torch.isclose(none, ce, atol=1e-6), (none, ce)
tok = torch.nn.functional.cross_entropy(logits.view(-1, 23), lab.view(-1), ignore_index=IGNORE,
                                      reduction="none").view(3, 5)
labelled = (lab != IGNORE).float()
weight = torch.tensor([1 - alpha, 1.0, 1 - alpha]).unsqueeze(1)
rows = torch.tensor([0, 2])
kd_rows = torch.nn.functional.kl_div(torch.log_softmax(logits[rows].reshape(-1, 23) / t, -1),
                                     torch.log_softmax(soft[rows].reshape(-1, 23) / t, -1),
                                     log_target=True, reduction="batchmean") * t * t
expected = (tok * labelled * weight).sum() / labelled.sum() + alpha * kd_rows * 10 / 15
assert torch.isclose(some, expected, atol=1e-5), (some, expected)
print("ok")
"""


@needs_torch
def test_gold_only_rows_learn_the_gold_alone() -> None:
    run_check(CHECK)
