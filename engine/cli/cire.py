"""`clearnote cire`: de-identify JSONL and flag clinical information that changed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.api import (
    LlamaJudge,
    PipelineConfig,
    Session,
    SessionConfig,
    assess,
    get_llama_runtime,
    settings_for,
    verify_model,
)
from engine.cli.common import EXIT_OK, JsonlWriter, read_documents, read_secret
from engine.core.context import RunContext
from engine.core.domain import SurrogateMode
from engine.core.policies import POLICIES


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "cire", help="de-identify JSONL and flag clinical information that changed",
        description="Read {\"id\",\"text\"} lines; de-identify each; write {\"id\",\"text\","
                    "\"retention_score\",\"flags\":[...]} lines. Without --llm only the "
                    "deterministic clinical guard runs.")
    p.add_argument("--input", type=Path, required=True, help="IN.jsonl (- for stdin)")
    p.add_argument("--output", type=Path, required=True, help="OUT.jsonl (- for stdout)")
    p.add_argument("--llm", metavar="MODEL", help="GGUF file or registered model name used as "
                                                  "the CIRE judge")
    p.add_argument("--policy", default="strict", choices=sorted(POLICIES))
    p.add_argument("--chunk-tokens", type=int, default=20, help="aligned tokens per chunk")
    p.add_argument("--mode", default="surrogate", choices=["surrogate", "tag", "redact"])
    p.add_argument("--secret-file", type=Path,
                   help="reuse this secret so surrogates stay consistent across runs")
    _add_llm_options(p)
    p.set_defaults(func=cmd_cire)


def _add_llm_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--n-gpu-layers", default="auto",
                   help="'auto' (all layers when llama.cpp has GPU support), 0 for CPU, or N")
    p.add_argument("--n-ctx", type=int, default=4096, help="model context size in tokens")
    p.add_argument("--threads", type=int, help="CPU threads for the model")


def resolve_model(ref: str) -> tuple[Path, str | None]:
    """A path to a .gguf file, or the name of a model in the registry (verified first)."""
    path = Path(ref).expanduser()
    if path.suffix.lower() == ".gguf" or path.exists():
        return path, None
    record = verify_model(ref)
    return Path(record.path), record.chat_format


def build_judge(ref: str, args: argparse.Namespace) -> Any:
    path, chat_format = resolve_model(ref)
    layers: int | str = args.n_gpu_layers if args.n_gpu_layers == "auto" else int(
        args.n_gpu_layers)
    overrides: dict[str, object] = {"n_gpu_layers": layers, "n_ctx": args.n_ctx,
                                    "n_threads": args.threads}
    if chat_format:
        overrides["chat_format"] = chat_format
    runtime = get_llama_runtime(settings_for(path, **overrides))
    print(f"clearnote: CIRE judge {runtime.name} on {runtime.device.description}",
          file=sys.stderr)  # a CPU run is said out loud, never silent
    return LlamaJudge(runtime)


def cmd_cire(args: argparse.Namespace) -> int:
    secret = {"secret": read_secret(args.secret_file)} if args.secret_file else {}
    session = Session(SessionConfig(pipeline=PipelineConfig(policy=args.policy),
                                    mode=SurrogateMode(args.mode), **secret))
    judge = build_judge(args.llm, args) if args.llm else None
    ctx = RunContext()
    documents = flagged = 0
    with JsonlWriter(args.output) as out:
        for record, doc in read_documents(args.input):
            _result, deid = session.process(doc, ctx)
            report = assess(doc, deid, policy=session.policy, judge=judge,
                            chunk_tokens=args.chunk_tokens, ctx=ctx)
            out.write({"id": record["id"], "text": deid.text,
                       "retention_score": round(report.retention_score, 4),
                       "chunks_total": report.chunks_total,
                       "chunks_changed": report.chunks_changed,
                       "flags": [f.to_json() for f in report.flags]})
            documents += 1
            flagged += bool(report.flags)
    print(f"clearnote: cire: {documents} documents, {flagged} with flags", file=sys.stderr)
    return EXIT_OK
