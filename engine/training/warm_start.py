"""Recover a trainable checkpoint from a shipped int8 model dir (training venv only).

The shipped model keeps no fp32 checkpoint, only ``model.onnx`` (dynamic int8). Its weights
are dequantized back into the PyTorch module of ``train.build_model`` so a new training run
can start from what the shipped model already knows instead of from the base encoder:

- named initializers (``<param>`` or ``<param>_quantized`` + ``_scale``/``_zero_point``) map
  to the module's parameters by name (biases, LayerNorms, embeddings, the shape embedding);
- the exporter names Linear weights ``onnx::MatMul_N`` (transposed, int8 per output channel):
  they appear in the order the module runs them, per layer query, key, value, attention
  output, intermediate, output, then the head;
- in a fused graph (export.fuse) query, key and value of layer i are one
  ``Attention_i_qkv_weight`` (input x [query | key | value]) with ``Attention_i_qkv_bias``,
  and the other Linear weights keep their ``onnx::MatMul_N`` names and order.
``verify`` runs both models on the same windows and reports tag agreement, so a wrong
mapping cannot pass silently.

    python -m engine.training.warm_start --model models/clearnote-ner-minilm --out DIR
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from engine.detectors.ner.features import TAGS
from engine.detectors.ner.manifest import load_manifest

_LINEAR_ORDER = (
    "attention.self.query",
    "attention.self.key",
    "attention.self.value",
    "attention.output.dense",
    "intermediate.dense",
    "output.dense",
)


def dequantized_initializers(model_path: Path) -> dict[str, np.ndarray]:
    """Every float parameter of the graph, int8/uint8 ones dequantized."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(model_path)).graph
    raw = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    out: dict[str, np.ndarray] = {}
    for name, arr in raw.items():
        if name.endswith("_quantized"):
            base = name[: -len("_quantized")]
            scale = raw[base + "_scale"].astype(np.float32)
            zero = raw[base + "_zero_point"].astype(np.float32)
            if scale.ndim == 1:  # per output channel: axis 1 of an (in, out) MatMul weight
                scale, zero = scale[None, :], zero[None, :]
            out[base] = (arr.astype(np.float32) - zero) * scale
        elif arr.dtype == np.float32 and not name.endswith(("_scale",)):
            out[name] = arr
    return out


def _matmul_key(name: str) -> int:
    match = re.fullmatch(r"onnx::MatMul_(\d+)", name)
    return int(match.group(1)) if match else -1


def _split_fused_attention(params: dict[str, np.ndarray], n_layers: int) -> dict[str, Any]:
    """Query, key and value weights and biases of each layer from the fused QKV tensors."""
    named: dict[str, Any] = {}
    for i in range(n_layers):
        weight = params.pop(f"Attention_{i}_qkv_weight")  # (in, 3 * out)
        bias = params.pop(f"Attention_{i}_qkv_bias")
        for part, w, b in zip(_LINEAR_ORDER[:3], np.split(weight, 3, axis=1),
                              np.split(bias, 3), strict=True):
            named[f"encoder.encoder.layer.{i}.{part}.weight"] = w.T
            named[f"encoder.encoder.layer.{i}.{part}.bias"] = b
    return named


def state_dict_from_onnx(model_path: Path, module: Any) -> dict[str, Any]:
    import torch

    params = dequantized_initializers(model_path)
    n_layers = module.encoder.config.num_hidden_layers
    fused = "Attention_0_qkv_weight" in params
    named = _split_fused_attention(params, n_layers) if fused else {}
    parts = _LINEAR_ORDER[3:] if fused else _LINEAR_ORDER
    linear = sorted((k for k in params if _matmul_key(k) >= 0), key=_matmul_key)
    targets = [
        f"encoder.encoder.layer.{i}.{part}.weight"
        for i in range(n_layers)
        for part in parts
    ] + ["head.weight"]
    if len(linear) != len(targets):
        raise ValueError(f"{len(linear)} MatMul weights for {len(targets)} Linear layers")
    named.update({t: params[src].T for t, src in zip(targets, linear, strict=True)})
    for key in module.state_dict():
        if key not in named and key in params:
            named[key] = params[key]
    state = module.state_dict()
    # The pooler is not part of the graph (the head reads token states): it keeps the
    # base encoder's weights, which nothing uses.
    missing = [
        k
        for k in state
        if k not in named and not k.endswith("position_ids") and ".pooler." not in k
    ]
    if missing:
        raise ValueError(f"no weight in the graph for {missing[:5]}")
    for key, value in named.items():
        if tuple(state[key].shape) != value.shape:
            raise ValueError(f"{key}: graph {value.shape} vs module {tuple(state[key].shape)}")
        state[key] = torch.from_numpy(np.ascontiguousarray(value))
    return state


def verify(model_dir: Path, module: Any, texts: list[str]) -> float:
    """Share of the graph's PHI tokens (tag not O) on which the recovered module agrees.

    Counted on PHI tokens only: most tokens are O, so a broken module that says O everywhere
    would agree on nearly all tokens.
    """
    import onnxruntime as ort
    import torch

    from engine.training.train import collate, load_tokenizer, make_windows

    tok = load_tokenizer(model_dir / "tokenizer.json")
    docs = [{"text": t, "spans": []} for t in texts]
    wins = make_windows(docs, tok, 256, 32, tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]"))
    ids, mask, shp, _ = collate(wins)
    sess = ort.InferenceSession(str(model_dir / "model.onnx"), providers=["CPUExecutionProvider"])
    onnx_tags = sess.run(
        None, {"input_ids": ids.numpy(), "attention_mask": mask.numpy(), "shape_ids": shp.numpy()}
    )[0].argmax(-1)
    module.eval()
    with torch.no_grad():
        torch_tags = module(ids, mask, shp).argmax(-1).numpy()
    keep = mask.numpy().astype(bool) & (onnx_tags != 0)
    return float((onnx_tags[keep] == torch_tags[keep]).mean())


def main(args: argparse.Namespace) -> None:
    import torch

    from engine.training.train import build_model, find_minilm

    model_dir = Path(args.model)
    manifest = load_manifest(model_dir)
    if list(manifest.tags) != list(TAGS):
        raise SystemExit("the model's tags differ from this code's TAGS")
    shape_dim = 16 if manifest.raw.get("shape_features") else 0
    enc_dir = Path(args.encoder) if args.encoder else find_minilm()
    layers = int(manifest.raw.get("training", {}).get("layers", 0) or 0)  # a student's depth
    module = build_model(enc_dir, len(TAGS), shape_dim, layers)
    module.load_state_dict(state_dict_from_onnx(model_dir / "model.onnx", module))
    sample = [
        "Referral for Mr. John Smith (MRN 448120), seen 03/14/2023 at St. Mary's Hospital.",
        "Pt is a 67 yo man with CHF, EF 35%, on metoprolol 25 mg BID. Call 403-555-0199.",
        "Dear Dr. Patel, thank you for seeing Anna Kowalski, born 1958-02-11, Calgary AB.",
    ]
    agreement = verify(model_dir, module, sample)
    print(f"tag agreement with the int8 graph: {agreement:.4f}")
    if agreement < args.min_agreement:
        raise SystemExit("recovered weights disagree with the graph: mapping is wrong")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.save(module.state_dict(), out / "ckpt.pt")
    info = {
        "shape_dim": shape_dim,
        "layers": module.encoder.config.num_hidden_layers,
        "warm_start_from": f"{manifest.name} v{manifest.version} (int8, dequantized)",
        "warm_start_agreement": agreement,
    }
    (out / "train_info.json").write_text(json.dumps(info, indent=2))


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", required=True, help="a ClearNote NER model dir (int8 ONNX)")
    ap.add_argument("--out", required=True, help="where to write ckpt.pt and train_info.json")
    ap.add_argument("--encoder", default=None, help="base encoder dir (its config is used)")
    ap.add_argument("--min-agreement", type=float, default=0.97)
    main(ap.parse_args())
