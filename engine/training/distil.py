"""Distillation pieces of ``train``: a student's layers from its teacher's, and the mixed loss."""

from __future__ import annotations

from typing import Any

IGNORE = -100  # a token no gold tag is learned for (padding, teacher-only text)


def teacher_layer_map(n_teacher: int, n_student: int) -> list[int]:
    """Student layer i starts from teacher layer k (evenly spaced, the top layer kept)."""
    return [round((i + 1) * n_teacher / n_student) - 1 for i in range(n_student)]


def student_from(teacher_state: dict[str, Any], student: Any, n_teacher: int) -> None:
    """Copy embeddings, head and evenly spaced encoder layers of the teacher into the student."""
    n_student = student.encoder.config.num_hidden_layers
    mapping = teacher_layer_map(n_teacher, n_student)
    state = {}
    for name in student.state_dict():
        src = name
        prefix = "encoder.encoder.layer."
        if name.startswith(prefix):
            idx, rest = name[len(prefix) :].split(".", 1)
            src = f"{prefix}{mapping[int(idx)]}.{rest}"
        if src in teacher_state:
            state[name] = teacher_state[src]
    missing = student.load_state_dict(state, strict=False).missing_keys
    if any(not k.endswith("position_ids") for k in missing):
        raise RuntimeError(f"student parameters without a teacher source: {missing[:5]}")


def mixed_loss(
    logits: Any, soft: Any, lab: Any, mask: Any, distil: Any, alpha: float, temperature: float
) -> Any:
    """Distillation where a row asks for it, gold tags alone where it does not.

    A distilled row's loss is ``alpha * KL(teacher || student) + (1 - alpha) * CE``; a gold-only
    row (text the teacher reads wrongly: hand-written notes) has only its CE. Tokens are averaged
    over the batch, so a batch of distilled rows gives the loss this file always used."""
    import torch

    n_tags = logits.shape[-1]
    ce = torch.nn.functional.cross_entropy(
        logits.view(-1, n_tags), lab.view(-1), ignore_index=IGNORE, reduction="none"
    ).view(lab.shape)
    labelled = (lab != IGNORE).float()
    row_weight = torch.where(distil, 1.0 - alpha, 1.0).unsqueeze(1)
    loss = (ce * labelled * row_weight).sum() / labelled.sum().clamp(min=1.0)
    keep = mask.bool() & distil.unsqueeze(1)
    if keep.any():
        t = temperature
        kd = torch.nn.functional.kl_div(
            torch.log_softmax(logits[keep] / t, -1),
            torch.log_softmax(soft[keep] / t, -1),
            log_target=True,
            reduction="batchmean",
        ) * (t * t)
        loss = loss + alpha * kd * keep.sum() / mask.bool().sum().clamp(min=1)
    return loss
