"""Carry a training run's checkpoint back from a GPU machine in files of under 16 MiB.

A run with ``--freeze-word-embeddings`` leaves the word-embedding matrix (30,522 x 384, 60 % of
the model) exactly as its ``--init`` had it, so ``pack`` drops it and stores the rest in fp16
(about 14 MB); ``unpack`` puts the matrix back from the same init on this machine (a warm start
recovered from the shipped model is the same on both) and writes a checkpoint dir that
``export`` reads. Training venv only.

    python -m engine.training.transport pack --ckpt RUN --out run.packed.pt
    python -m engine.training.transport unpack --packed run.packed.pt --base WARM --out RUN
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

WORD_EMBEDDINGS = "encoder.embeddings.word_embeddings.weight"


def fingerprint(tensor: Any) -> str:
    """A digest of a tensor's fp32 bytes: the two machines' inits must agree exactly."""
    return hashlib.sha256(tensor.float().contiguous().numpy().tobytes()).hexdigest()[:16]


def pack(ckpt_dir: Path, out: Path, base_dir: Path) -> None:
    import torch

    from engine.training.train import load_state

    info = json.loads((ckpt_dir / "train_info.json").read_text())
    state = load_state(ckpt_dir / "ckpt.pt")
    dropped: dict[str, str] = {}
    if info.get("frozen_word_embeddings"):
        base = load_state(base_dir / "ckpt.pt")[WORD_EMBEDDINGS]
        if not torch.equal(base, state[WORD_EMBEDDINGS]):
            raise ValueError("word embeddings were meant to be frozen but differ from the init")
        dropped[WORD_EMBEDDINGS] = fingerprint(state.pop(WORD_EMBEDDINGS))
    half = {k: v.half() if v.is_floating_point() else v for k, v in state.items()}
    tmp = out.with_suffix(out.suffix + ".tmp")
    torch.save({"state": half, "info": info, "dropped": dropped}, tmp)
    tmp.replace(out)


def unpack(packed: Path, base_dir: Path, out_dir: Path) -> None:
    import torch

    from engine.training.train import load_state

    blob = torch.load(packed, map_location="cpu")
    state = {k: v.float() if v.is_floating_point() else v for k, v in blob["state"].items()}
    if blob["dropped"]:
        base = load_state(base_dir / "ckpt.pt")
        for name, digest in blob["dropped"].items():
            if fingerprint(base[name]) != digest:
                raise ValueError(f"{name} of {base_dir} is not the one the run was trained from")
            state[name] = base[name]
    out_dir.mkdir(parents=True, exist_ok=True)
    torch.save(state, out_dir / "ckpt.pt")
    (out_dir / "train_info.json").write_text(json.dumps(blob["info"], indent=2))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack")
    p.add_argument("--ckpt", type=Path, required=True)
    p.add_argument("--base", type=Path, required=True, help="the run's --init dir")
    p.add_argument("--out", type=Path, required=True)
    u = sub.add_parser("unpack")
    u.add_argument("--packed", type=Path, required=True)
    u.add_argument("--base", type=Path, required=True, help="the same init, on this machine")
    u.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.cmd == "pack":
        pack(args.ckpt, args.out, args.base)
    else:
        unpack(args.packed, args.base, args.out)


if __name__ == "__main__":
    main()
