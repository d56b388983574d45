"""CLI hooks: ``clearnote train-ner`` and ``clearnote models import-hf DIR``.

Training and import need torch + transformers, which are never app dependencies. The
commands therefore run their heavy steps in a *training interpreter*: ``--python``, else
``$CLEARNOTE_TRAIN_PYTHON``, else the current interpreter if it can import torch.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from engine.core.errors import UsageError

REPO = Path(__file__).resolve().parents[2]


def training_python(explicit: str | None) -> str:
    py = explicit or os.environ.get("CLEARNOTE_TRAIN_PYTHON")
    if py:
        if not Path(py).exists():
            raise UsageError(f"training interpreter {py} does not exist")
        return py
    if importlib.util.find_spec("torch") and importlib.util.find_spec("transformers"):
        return sys.executable
    raise UsageError(
        "this command needs torch + transformers: pass --python /path/to/train-venv/bin/python "
        "or set CLEARNOTE_TRAIN_PYTHON (see models/clearnote-ner-minilm/README.md)"
    )


def _run(cmd: list[str]) -> None:
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    proc = subprocess.run(cmd, cwd=REPO, env=env, check=False)
    if proc.returncode != 0:
        raise UsageError(f"step failed with exit code {proc.returncode}: {' '.join(cmd[1:4])} ...")


def cmd_train_ner(args: argparse.Namespace) -> int:
    py = training_python(args.python)
    ck = str(args.work)
    _run(
        [
            py,
            "-m",
            "engine.training.train",
            "--out",
            ck,
            "--seed",
            str(args.seed),
            "--minutes",
            str(args.minutes),
            "--max-steps",
            str(args.max_steps),
            "--n-train",
            str(args.n_train),
            "--threads",
            str(args.threads),
            "--shape-dim",
            str(args.shape_dim),
        ]
    )
    _run(
        [
            py,
            "-m",
            "engine.training.export",
            "--ckpt",
            ck,
            "--out",
            str(args.out),
            "--name",
            args.name,
            "--version",
            str(args.version),
            *(["--fp32"] if args.fp32 else []),
        ]
    )
    _run(
        [
            sys.executable,
            "-m",
            "engine.training.evaluate",
            "--model",
            str(args.out),
            "--seed",
            str(args.seed),
            "--set-thresholds",
            "--threads",
            str(args.threads),
            "--report",
            str(Path(ck) / "eval_report.json"),
        ]
    )
    return 0


def cmd_import_hf(args: argparse.Namespace) -> int:
    py = training_python(args.python)
    cmd = [
        py,
        "-m",
        "engine.training.import_hf",
        str(args.dir),
        "--out",
        str(args.out),
        "--version",
        str(args.version),
        "--max-tokens",
        str(args.max_tokens),
        "--overlap",
        str(args.overlap),
    ]
    if args.name:
        cmd += ["--name", args.name]
    if args.labels:
        cmd += ["--labels", str(args.labels)]
    if args.fp32:
        cmd.append("--fp32")
    _run(cmd)
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``train-ner`` to the top-level ``clearnote`` subcommands."""
    p = subparsers.add_parser(
        "train-ner", help="generate the synthetic corpus, fine-tune, export int8 ONNX"
    )
    p.add_argument("--out", type=Path, default=REPO / "models" / "clearnote-ner-minilm")
    p.add_argument(
        "--work",
        type=Path,
        default=Path.home() / ".cache" / "clearnote-train",
        help="checkpoint/report dir (outside the repo)",
    )
    p.add_argument("--name", default="clearnote-ner-minilm")
    p.add_argument("--version", type=int, default=1)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--minutes", type=float, default=40.0, help="wall-clock training budget")
    p.add_argument(
        "--max-steps", type=int, default=0, help="stop after N steps instead (deterministic)"
    )
    p.add_argument("--n-train", type=int, default=4000)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument(
        "--shape-dim", type=int, default=16, help="word-shape embedding size; 0 disables"
    )
    p.add_argument("--fp32", action="store_true", help="ship fp32 instead of int8")
    p.add_argument("--python", default=None, help="training interpreter with torch + transformers")
    p.set_defaults(func=cmd_train_ner)


def register_models(
        models_subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``import-hf`` under an existing ``clearnote models`` subcommand group."""
    p = models_subparsers.add_parser(
        "import-hf", help="convert a Hugging Face token-classification checkpoint"
    )
    p.add_argument("dir", type=Path, help="checkpoint directory (config.json, weights, tokenizer)")
    p.add_argument(
        "--out", type=Path, required=True, help="ClearNote model dir to write (e.g. models/<name>)"
    )
    p.add_argument("--name", default=None)
    p.add_argument("--version", type=int, default=1)
    p.add_argument(
        "--labels",
        type=Path,
        default=None,
        help='JSON {"<model entity type>": "<ClearNote label>" | null}',
    )
    p.add_argument("--max-tokens", type=int, default=256)
    p.add_argument("--overlap", type=int, default=64)
    p.add_argument("--fp32", action="store_true")
    p.add_argument("--python", default=None, help="training interpreter with torch + transformers")
    p.set_defaults(func=cmd_import_hf)
