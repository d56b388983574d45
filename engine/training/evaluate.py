"""Evaluate a ClearNote NER model dir (app venv: onnxruntime + tokenizers) and pick thresholds.

    python -m engine.training.evaluate --model models/clearnote-ner-minilm [--set-thresholds]

Token metrics use word tokens (``\\w+`` or one punctuation char): a token is PHI if any of its
characters is covered. Under the Strict policy every label is PHI, so the headline figures are
binary (PHI vs not); per-label recall additionally requires the right label.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.context import RunContext
from engine.core.domain import Document, Span
from engine.detectors.ner.detector import OnnxNerDetector
from engine.detectors.ner.manifest import load_manifest, write_manifest
from engine.paths import shared_data_dir

DATA = shared_data_dir()
_TOKEN = re.compile(r"\w+|[^\w\s]")


def word_tokens(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _TOKEN.finditer(text)]


def char_labels(n: int, spans: Iterable[tuple[int, int, str]]) -> list[str | None]:
    lab: list[str | None] = [None] * n
    for s, e, label in spans:
        for i in range(s, min(e, n)):
            lab[i] = label
    return lab


def token_counts(
    text: str, gold: list[tuple[int, int, str]], pred: list[tuple[int, int, str]], acc: Counter[str]
) -> None:
    g, p = char_labels(len(text), gold), char_labels(len(text), pred)
    for s, e in word_tokens(text):
        gl = next((x for x in g[s:e] if x), None)
        pl = next((x for x in p[s:e] if x), None)
        acc["tp"] += bool(gl and pl)
        acc["fp"] += bool(pl and not gl)
        acc["fn"] += bool(gl and not pl)
        if gl:
            acc[f"gold:{gl}"] += 1
            acc[f"hit:{gl}"] += pl == gl
            acc[f"any:{gl}"] += bool(pl)
        if pl:
            acc[f"pred:{pl}"] += 1
            acc[f"predok:{pl}"] += pl == gl


def summarize(acc: Counter[str]) -> dict[str, Any]:
    tp, fp, fn = acc["tp"], acc["fp"], acc["fn"]
    labels = sorted(k[5:] for k in acc if k.startswith("gold:"))
    return {
        "token_recall": round(tp / max(tp + fn, 1), 4),
        "token_precision": round(tp / max(tp + fp, 1), 4),
        "per_label": {
            lab: {
                "gold_tokens": acc[f"gold:{lab}"],
                "recall_any_label": round(acc[f"any:{lab}"] / max(acc[f"gold:{lab}"], 1), 4),
                "recall_same_label": round(acc[f"hit:{lab}"] / max(acc[f"gold:{lab}"], 1), 4),
                "precision_same_label": round(acc[f"predok:{lab}"] / max(acc[f"pred:{lab}"], 1), 4),
            }
            for lab in labels
        },
    }


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def predict(det: OnnxNerDetector, text: str) -> list[Span]:
    return det.detect(Document.from_text(text), RunContext())


def gold_of(doc: dict[str, Any]) -> list[tuple[int, int, str]]:
    return [(int(s["start"]), int(s["end"]), str(s["label"])) for s in doc["spans"]]


def eval_split(det: OnnxNerDetector, docs: list[dict[str, Any]]) -> dict[str, Any]:
    acc: Counter[str] = Counter()
    for d in docs:
        pred = [(s.start, s.end, s.label.value) for s in predict(det, d["text"])]
        token_counts(d["text"], gold_of(d), pred, acc)
    return summarize(acc)


def choose_thresholds(
    det: OnnxNerDetector, docs: list[dict[str, Any]], *, keep_recall: float = 0.995
) -> dict[str, float]:
    """Per label: the highest confidence cut that keeps ``keep_recall`` of the label's
    correctly-found tokens on dev data (recall first; precision is recovered elsewhere)."""
    saved = dict(det.manifest.thresholds)
    det.manifest.thresholds.clear()
    found: dict[str, list[tuple[float, int]]] = {}
    for d in docs:
        g = char_labels(len(d["text"]), gold_of(d))
        for s in predict(det, d["text"]):
            ntok = sum(1 for a, b in word_tokens(d["text"][s.start : s.end]) if g[s.start + a])
            found.setdefault(s.label.value, []).append((s.confidence, ntok))
    det.manifest.thresholds.update(saved)
    out: dict[str, float] = {}
    for lab, rows in found.items():
        rows.sort()
        total = sum(n for _, n in rows)
        lost, cut = 0, 0.0
        for conf, n in rows:
            if total and (lost + n) / total > 1 - keep_recall:
                break
            lost += n
            cut = conf
        out[lab] = round(min(cut, 0.5), 3)
    return out


def eval_aci(det: OnnxNerDetector) -> dict[str, Any]:
    docs = load_jsonl(DATA / "aci_bench_train_valid.jsonl")
    names = hit = occ = touched = 0
    missed_docs = 0
    for d in docs:
        spans = predict(det, d["text"])
        cover = np.zeros(len(d["text"]) + 1, dtype=bool)
        for s in spans:
            cover[s.start : s.end] = True
        miss = 0
        for g in d["spans"]:
            names += 1
            ok = bool(cover[g["start"] : g["end"]].all())
            hit += ok
            miss += not ok
        missed_docs += miss > 0
        for o in d["meta"].get("retention_term_occurrences", []):
            occ += 1
            touched += bool(cover[o["start"] : o["end"]].any())
    return {
        "docs": len(docs),
        "patient_name_mentions": names,
        "name_recall": round(hit / max(names, 1), 4),
        "docs_with_missed_name": missed_docs,
        "retention_occurrences": occ,
        "retention_touched_fraction": round(touched / max(occ, 1), 4),
    }


def eval_mts(det: OnnxNerDetector, limit: int | None = None) -> dict[str, Any]:
    docs = load_jsonl(DATA / "mts_dialog_sections.jsonl")[:limit]
    n_spans = n_tok = 0
    by_label: Counter[str] = Counter()
    for d in docs:
        spans = predict(det, d["text"])
        n_spans += len(spans)
        n_tok += len(word_tokens(d["text"]))
        by_label.update(s.label.value for s in spans)
    return {
        "sections": len(docs),
        "word_tokens": n_tok,
        "spans": n_spans,
        "spans_per_1000_tokens": round(1000 * n_spans / max(n_tok, 1), 2),
        "by_label": dict(by_label),
    }


def agreement(a: OnnxNerDetector, b: OnnxNerDetector, docs: list[dict[str, Any]]) -> dict[str, Any]:
    """Token-level argmax agreement of two models (e.g. int8 vs fp32) on whole documents."""
    b.manifest.thresholds.clear()  # compare the graphs, not the calibration
    b.manifest.thresholds.update(a.manifest.thresholds)
    same = total = 0
    acc_a: Counter[str] = Counter()
    acc_b: Counter[str] = Counter()
    for d in docs:
        _, pa = a.token_probs(d["text"])
        _, pb = b.token_probs(d["text"])
        same += int((pa.argmax(-1) == pb.argmax(-1)).sum())
        total += len(pa)
        token_counts(
            d["text"],
            gold_of(d),
            [(s.start, s.end, s.label.value) for s in predict(a, d["text"])],
            acc_a,
        )
        token_counts(
            d["text"],
            gold_of(d),
            [(s.start, s.end, s.label.value) for s in predict(b, d["text"])],
            acc_b,
        )
    sa, sb = summarize(acc_a), summarize(acc_b)
    return {
        "docs": len(docs),
        "model_tokens": total,
        "argmax_agreement": round(same / max(total, 1), 4),
        "a": {k: sa[k] for k in ("token_recall", "token_precision")},
        "b": {k: sb[k] for k in ("token_recall", "token_precision")},
    }


def main(args: argparse.Namespace) -> None:
    from engine.training.corpus import generate, load_bodies

    model = Path(args.model)
    det = OnnxNerDetector.from_model_dir(model, threads=args.threads)
    bodies = load_bodies()
    report: dict[str, Any] = {"model": det.spec.qualified}
    if args.set_thresholds:
        dev = list(generate(args.seed, "dev", args.n_dev, bodies))
        th = choose_thresholds(det, dev)
        raw = dict(load_manifest(model).raw)
        raw["thresholds"] = th
        raw["thresholds_note"] = (
            f"chosen on {len(dev)} synthetic dev docs (seed {args.seed}): "
            "keep 99.5% of found tokens"
        )
        files = list(raw.pop("files"))
        raw.pop("format", None)
        write_manifest(model, raw, files)
        det = OnnxNerDetector.from_model_dir(model, threads=args.threads)
        report["thresholds"] = th
    t0 = time.time()
    test = list(generate(args.seed, "test", args.n_test, bodies))
    report["synthetic_test"] = eval_split(det, test)
    report["aci"] = eval_aci(det)
    report["mts"] = eval_mts(det)
    if args.fp32:
        ref = OnnxNerDetector.from_model_dir(Path(args.fp32), threads=args.threads)
        report["int8_vs_fp32"] = agreement(det, ref, test[: args.n_agree])
    report["seconds"] = round(time.time() - t0, 1)
    text = json.dumps(report, indent=2)
    print(text)
    if args.report:
        Path(args.report).write_text(text + "\n")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", default="models/clearnote-ner-minilm")
    p.add_argument("--fp32", default=None, help="fp32 model dir to compare with (agreement)")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--n-dev", type=int, default=150)
    p.add_argument("--n-test", type=int, default=300)
    p.add_argument("--n-agree", type=int, default=60)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument(
        "--set-thresholds", action="store_true", help="write per-label thresholds into the manifest"
    )
    p.add_argument("--report", default=None, help="also write the JSON report here")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    add_arguments(ap)
    main(ap.parse_args())
