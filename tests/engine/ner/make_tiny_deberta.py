"""Build a tiny randomly initialised DeBERTa-v2 token classifier + a `tokenizers` WordPiece
tokenizer, import it with engine.training.import_hf, and check ONNX logits against torch.

Run with the training venv (torch + transformers):  python make_tiny_deberta.py OUT_DIR
Prints one JSON line with the max |torch - onnx| logit difference of the fp32 import.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def build(ckpt: Path) -> None:
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import (
        DebertaV2Config,
        DebertaV2ForTokenClassification,
        PreTrainedTokenizerFast,
    )

    torch.manual_seed(0)
    words = [
        "patient",
        "john",
        "smith",
        "was",
        "seen",
        "by",
        "dr",
        "lee",
        "on",
        "march",
        "at",
        "general",
        "hospital",
        "phone",
        "the",
        "and",
        "a",
        "of",
        "in",
        "with",
        "for",
        "pain",
        "chest",
        "history",
        "2021",
        "03",
        "04",
        ".",
        ",",
        ":",
        "-",
        "(",
        ")",
    ]
    vocab = {
        t: i
        for i, t in enumerate(
            [
                "[PAD]",
                "[UNK]",
                "[CLS]",
                "[SEP]",
                "[MASK]",
                *words,
                *(f"##{c}" for c in "abcdefghijklmnopqrstuvwxyz0123456789"),
                *"abcdefghijklmnopqrstuvwxyz0123456789",
            ]
        )
    }
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )
    labels = [
        "O",
        "B-NAME",
        "I-NAME",
        "B-DATE",
        "I-DATE",
        "B-HOSPITAL",
        "I-HOSPITAL",
        "B-MISC",
        "I-MISC",
    ]
    cfg = DebertaV2Config(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        type_vocab_size=0,
        relative_attention=True,
        position_buckets=32,
        pos_att_type=["p2c", "c2p"],
        num_labels=len(labels),
        id2label=dict(enumerate(labels)),
        label2id={v: k for k, v in enumerate(labels)},
    )
    model = DebertaV2ForTokenClassification(cfg)
    ckpt.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(ckpt))
    fast.save_pretrained(str(ckpt))


def check(ckpt: Path, out: Path) -> float:
    import numpy as np
    import onnxruntime as ort
    import torch
    from transformers import AutoModelForTokenClassification

    model = AutoModelForTokenClassification.from_pretrained(str(ckpt)).eval()
    ids = torch.tensor([[2, 5, 6, 7, 8, 9, 10, 11, 3]])
    with torch.no_grad():
        ref = model(input_ids=ids, attention_mask=torch.ones_like(ids)).logits.numpy()
    sess = ort.InferenceSession(str(out / "model.onnx"), providers=["CPUExecutionProvider"])
    got = sess.run(None, {"input_ids": ids.numpy(), "attention_mask": np.ones_like(ids.numpy())})[0]
    return float(np.abs(ref - got).max())


if __name__ == "__main__":
    root = Path(sys.argv[1])
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from engine.training.import_hf import convert

    build(root / "ckpt")
    (root / "map.json").write_text(
        json.dumps({"NAME": "PATIENT", "DATE": "DATE", "HOSPITAL": "HOSPITAL", "MISC": None})
    )
    convert(
        root / "ckpt",
        root / "fp32",
        name="tiny-deberta",
        label_map=root / "map.json",
        max_tokens=64,
        overlap=16,
        int8=False,
    )
    convert(
        root / "ckpt",
        root / "int8",
        name="tiny-deberta",
        label_map=root / "map.json",
        max_tokens=64,
        overlap=16,
        int8=True,
    )
    print(json.dumps({"max_abs_diff": check(root / "ckpt", root / "fp32")}))
