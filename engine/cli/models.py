"""`clearnote models list|add|verify` (and `import-hf` from engine.training): the user
model registry of GGUF and ONNX files, with sha256."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.api import add_model, list_models, registry_path, verify_model
from engine.cli.common import EXIT_FAILURE, EXIT_OK
from engine.core.errors import ModelIntegrityError
from engine.training.cli import register_models as register_import_hf


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("models", help="register and verify local model files",
                              description="The user model registry (GGUF and ONNX files, "
                                          "with sha256). CLEARNOTE_CONFIG_DIR overrides "
                                          "where it is stored.")
    sub = p.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    q = sub.add_parser("list", help="list registered models")
    q.set_defaults(func=cmd_models_list)
    q = sub.add_parser("add", help="hash and register a .gguf or .onnx file")
    q.add_argument("path", type=Path)
    q.add_argument("--name", help="name to refer to the model by (default: file stem)")
    q.add_argument("--chat-format",
                   help="llama-cpp-python chat format when the GGUF has no chat template")
    q.set_defaults(func=cmd_models_add)
    q = sub.add_parser("verify", help="re-hash registered files (all when no name given)")
    q.add_argument("names", nargs="*")
    q.set_defaults(func=cmd_models_verify)
    register_import_hf(sub)


def _describe(record: Any) -> str:
    fmt = record.chat_format or ("template in file" if record.chat_template else "unknown")
    return (f"{record.name:<32} {record.kind:<5} {record.size / 1e6:>9.1f} MB  "
            f"sha256 {record.sha256[:12]}  chat: {fmt}  {record.path}")


def cmd_models_list(args: argparse.Namespace) -> int:
    records = list_models()
    if not records:
        print(f"no models registered ({registry_path()}); "
              "add one with `clearnote models add FILE.gguf`")
    for record in records:
        print(_describe(record))
    return EXIT_OK


def cmd_models_add(args: argparse.Namespace) -> int:
    record = add_model(args.path, name=args.name, chat_format=args.chat_format)
    print(_describe(record))
    for warning in record.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return EXIT_OK


def cmd_models_verify(args: argparse.Namespace) -> int:
    names = args.names or [r.name for r in list_models()]
    failed = 0
    for name in names:
        try:
            verify_model(name)
            print(f"ok      {name}")
        except ModelIntegrityError as exc:
            failed += 1
            print(f"FAILED  {exc}")
    return EXIT_OK if not failed else EXIT_FAILURE
