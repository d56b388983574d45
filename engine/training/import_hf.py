"""Convert a Hugging Face token-classification checkpoint dir into a ClearNote ONNX model dir.

    python -m engine.training.import_hf CHECKPOINT_DIR --out models/<name> [--labels map.json]

The label mapping file is JSON ``{"<model entity type>": "<ClearNote label>" | null}``
(e.g. ``{"NAME": "PATIENT", "STAFF": "DOCTOR", "MISC": null}``); entity types are read from
the checkpoint's ``id2label`` after stripping B-/I-/E-/S-/L-/U- prefixes. Without a file,
known schemas (i2b2, SHIELD, MEDDOCAN, Presidio, ClearNote) are tried; anything unmapped
becomes O, and the written ``label_map.json`` records the decision. Needs torch +
transformers (training venv); the result runs with onnxruntime + tokenizers only.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import shutil
from pathlib import Path
from typing import Any

from engine.core.labels import Label, map_label
from engine.detectors.ner.manifest import write_manifest

_BEGIN = ("B", "S", "U")
_INSIDE = ("I", "E", "L", "M")


def split_tag(tag: str) -> tuple[str | None, str]:
    """("B"|"I"|None, entity type) of a model tag; (None, "O") for outside."""
    if tag in ("O", "o", "OUTSIDE"):
        return None, "O"
    for sep in ("-", "_"):
        head, _, rest = tag.partition(sep)
        if rest and head in _BEGIN + _INSIDE:
            return ("B" if head in _BEGIN else "I"), rest
    return "I", tag  # IO scheme: a bare entity type continues an entity


def map_tags(
    id2label: dict[int, str], mapping: dict[str, str | None] | None
) -> tuple[list[str], dict[str, str | None]]:
    """ClearNote tags in model output order, and the entity-type mapping used."""
    used: dict[str, str | None] = {}
    tags = []
    for i in range(len(id2label)):
        prefix, etype = split_tag(id2label[i])
        if prefix is None:
            tags.append("O")
            continue
        if mapping is not None:
            target = mapping.get(etype)
            if target is not None and target not in Label.__members__:
                raise ValueError(f"label map: {etype!r} -> {target!r} is not a ClearNote label")
        else:
            try:
                lab = map_label(etype.upper())
                target = lab.value if lab is not None else None
            except ValueError:
                target = None
        used[etype] = target
        tags.append("O" if target is None else f"{prefix}-{target}")
    return tags, used


def convert(
    src: Path,
    out: Path,
    *,
    name: str,
    version: int = 1,
    label_map: Path | None = None,
    max_tokens: int = 256,
    overlap: int = 64,
    int8: bool = True,
) -> dict[str, Any]:
    import torch
    from transformers import AutoConfig, AutoModelForTokenClassification, AutoTokenizer

    from engine.training.export import OPSET, git_commit, quantize

    config = AutoConfig.from_pretrained(str(src), local_files_only=True)
    id2label = {int(k): str(v) for k, v in config.id2label.items()}
    mapping = json.loads(label_map.read_text(encoding="utf-8")) if label_map else None
    tags, used = map_tags(id2label, mapping)
    model = AutoModelForTokenClassification.from_pretrained(str(src), local_files_only=True)
    model.eval()
    tok = AutoTokenizer.from_pretrained(str(src), local_files_only=True)
    if not getattr(tok, "is_fast", False):
        raise ValueError(f"{src}: needs a fast tokenizer (tokenizer.json) for the runtime")
    out.mkdir(parents=True, exist_ok=True)
    tok.backend_tokenizer.save(str(out / "tokenizer.json"))
    max_pos = int(getattr(config, "max_position_embeddings", max_tokens) or max_tokens)
    max_tokens = min(max_tokens, max_pos)
    use_tti = (
        "token_type_ids" in inspect.signature(model.forward).parameters
        and int(getattr(config, "type_vocab_size", 0) or 0) > 0
    )

    class Wrapper(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.m = model

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            kw = {"token_type_ids": torch.zeros_like(input_ids)} if use_tti else {}
            return self.m(input_ids=input_ids, attention_mask=attention_mask, **kw).logits

    cls_t, sep_t = tok.cls_token or tok.bos_token, tok.sep_token or tok.eos_token
    pad_t = tok.pad_token or sep_t
    if cls_t is None or sep_t is None:
        raise ValueError(f"{src}: tokenizer defines no CLS/BOS or SEP/EOS token")
    ids = torch.tensor([[tok.convert_tokens_to_ids(cls_t), tok.convert_tokens_to_ids(sep_t)]])
    fp32 = out / "model.fp32.onnx"
    names = ["input_ids", "attention_mask"]
    axes = {n: {0: "batch", 1: "seq"} for n in [*names, "logits"]}
    with torch.no_grad():
        torch.onnx.export(
            Wrapper(),
            (ids, torch.ones_like(ids)),
            str(fp32),
            input_names=names,
            output_names=["logits"],
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )
    if int8:
        quantize(fp32, out / "model.onnx")
        fp32.unlink()
    else:
        fp32.replace(out / "model.onnx")
    (out / "label_map.json").write_text(
        json.dumps({"id2label": id2label, "entity_map": used, "tags": tags}, indent=2) + "\n",
        encoding="utf-8",
    )
    data = {
        "name": name,
        "version": version,
        "description": f"imported from a Hugging Face {config.model_type} "
        "token-classification checkpoint",
        "labels": sorted({t[2:] for t in tags if t != "O"}),
        "tags": tags,
        "max_tokens": max_tokens,
        "overlap": overlap,
        "stride": max_tokens - 2 - overlap,
        "special_tokens": {"cls": cls_t, "sep": sep_t, "pad": pad_t},
        "inputs": names,
        "shape_features": False,
        "onnx_opset": OPSET,
        "quantization": "onnxruntime dynamic int8 (QInt8 per-channel weights)"
        if int8
        else "none (fp32)",
        "thresholds": {},
        "base_model": f"{config.model_type} checkpoint {src.name}",
        "training": {"data": "unknown (imported checkpoint)"},
        "git_commit": git_commit(Path(__file__).resolve().parents[2]),
    }
    return write_manifest(out, data, ["model.onnx", "tokenizer.json", "label_map.json"])


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "dir", type=Path, help="Hugging Face checkpoint directory (config.json, weights, tokenizer)"
    )
    p.add_argument("--out", type=Path, required=True, help="ClearNote model dir to write")
    p.add_argument("--name", default=None, help="model name (default: the checkpoint dir name)")
    p.add_argument("--version", type=int, default=1)
    p.add_argument("--labels", type=Path, default=None, help="JSON label mapping file")
    p.add_argument("--max-tokens", type=int, default=256)
    p.add_argument("--overlap", type=int, default=64)
    p.add_argument("--fp32", action="store_true", help="keep fp32 weights (default: dynamic int8)")


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.out.exists() and any(args.out.iterdir()):
        shutil.rmtree(args.out) if (args.out / "manifest.json").exists() else None
    m = convert(
        args.dir,
        args.out,
        name=args.name or args.dir.name,
        version=args.version,
        label_map=args.labels,
        max_tokens=args.max_tokens,
        overlap=args.overlap,
        int8=not args.fp32,
    )
    print(f"wrote {args.out}: {len(m['tags'])} tags -> labels {', '.join(m['labels'])}")
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    add_arguments(ap)
    raise SystemExit(run(ap.parse_args()))
