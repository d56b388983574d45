"""Quality figures for the deterministic detectors (run by hand; not a test).

    .venv/bin/python tests/engine/detectors/measure.py [presidio|mts|aci|speed|all]

Prints counts, rates and labels only; with --show it prints matched strings from the
public corpora for error analysis (never from real patient data).
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import Document, Span
from engine.core.labels import ACI_BENCH, PRESIDIO
from engine.detectors.dictionary import LocationGazetteerDetector, NameGazetteerDetector
from engine.detectors.regex import default_rule_detectors
from engine.resolution.allowlist import ClinicalAllowlist

DATA = Path(__file__).resolve().parents[4] / "shared" / "data"
if not DATA.exists():
    DATA = Path("/work/shared/data")
WORD = re.compile(r"\S+")


def detectors() -> list:
    return [*default_rule_detectors(), NameGazetteerDetector(), LocationGazetteerDetector()]


def run_all(dets: list, allow: ClinicalAllowlist, doc: Document) -> list[Span]:
    ctx = RunContext()
    spans = [s for d in dets for s in d.detect(doc, ctx)]
    kept, _ = allow.recover(doc, spans)
    return kept


def rows(name: str) -> list[dict]:
    with (DATA / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def presidio(show: bool) -> None:
    dets, allow = detectors(), ClinicalAllowlist.default()
    found, total = Counter(), Counter()
    pred_tokens = pred_hit = 0
    missed: Counter[str] = Counter()
    for row in rows("presidio_research_synth.jsonl"):
        doc = Document.from_text(row["text"])
        spans = run_all(dets, allow, doc)
        gold = [(g["start"], g["end"], g["label"]) for g in row["spans"]]
        for m in WORD.finditer(row["text"]):
            in_gold = [lab for s, e, lab in gold if s < m.end() and m.start() < e]
            in_pred = any(s.start < m.end() and m.start() < s.end for s in spans)
            ignored = [lab for lab in in_gold if PRESIDIO[lab] is None]
            phi = [lab for lab in in_gold if PRESIDIO[lab] is not None]
            if phi:
                total[phi[0]] += 1
                found[phi[0]] += in_pred
                if not in_pred:
                    missed[f"{phi[0]}:{m.group()}"] += 1
            if in_pred and not ignored:
                pred_tokens += 1
                pred_hit += bool(phi)
    print("presidio token recall by gold label:")
    for lab in sorted(total, key=lambda k: -total[k]):
        print(f"  {lab:18s} {found[lab] / total[lab]:.3f}  ({found[lab]}/{total[lab]})")
    print(f"  ALL                {sum(found.values()) / sum(total.values()):.3f}")
    print(f"  token precision    {pred_hit / max(pred_tokens, 1):.3f}")
    if show:
        print(missed.most_common(80))


def mts(show: bool) -> None:
    dets, allow = detectors(), ClinicalAllowlist.default()
    n_tokens = 0
    by_label: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for row in rows("mts_dialog_sections.jsonl"):
        doc = Document.from_text(row["text"])
        n_tokens += len(row["text"].split())
        for s in run_all(dets, allow, doc):
            key = f"{s.detector.split('@')[0]}/{s.label.value}"
            by_label[key] += 1
            seen[f"{key}:{doc.slice(s)}"] += 1
    total = sum(by_label.values())
    print(f"mts: {total} spans over {n_tokens} tokens = {1000 * total / n_tokens:.1f} per 1k")
    for key, n in by_label.most_common():
        print(f"  {key:32s} {n}")
    if show:
        for item, n in seen.most_common(150):
            print(f"  {n:3d} {item!r}")


def aci(show: bool) -> None:
    dets, allow = detectors(), ClinicalAllowlist.default()
    hit = total = 0
    missed: Counter[str] = Counter()
    for row in rows("aci_bench_train_valid.jsonl"):
        doc = Document.from_text(row["text"])
        spans = run_all(dets, allow, doc)
        for g in row["spans"]:
            if ACI_BENCH.get(g["label"]) is None or not g["label"].startswith("PATIENT"):
                continue
            total += 1
            ok = any(s.start < g["end"] and g["start"] < s.end for s in spans)
            hit += ok
            if not ok:
                missed[row["text"][g["start"]:g["end"]]] += 1
    print(f"aci patient-name recall {hit / max(total, 1):.3f} ({hit}/{total})")
    if show:
        print(missed.most_common(40))


def speed() -> None:
    dets, allow = detectors(), ClinicalAllowlist.default()
    texts = [r["text"] for r in rows("aci_bench_train_valid.jsonl")[:20]]
    notes = [t[:1500] for t in texts]
    started = time.perf_counter()
    for _ in range(5):
        for t in notes:
            run_all(dets, allow, Document.from_text(t))
    per = (time.perf_counter() - started) / (5 * len(notes))
    print(f"speed: {per * 1000:.2f} ms per 1,500-char note (all detectors + allowlist)")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    show = "--show" in sys.argv
    for name, fn in (("presidio", presidio), ("mts", mts), ("aci", aci)):
        if what in (name, "all"):
            fn(show)
    if what in ("speed", "all"):
        speed()
