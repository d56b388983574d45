"""Choose a candidate NER model's ``o_threshold`` (entity-first decoding) against the shipped one.

    python benchmarks/tune_o_threshold.py --old models/clearnote-ner-minilm --new DIR
        [--grid 0.5,0.7,0.8,0.9,0.95] [--policy hipaa] [--write]

A distilled student tends to be surer of O than its teacher on text unlike the synthetic
corpus: at the decoding rule of 1/2 it gives precision for recall. Recall comes first, so
the rule here is: the smallest ``o_threshold`` in the grid whose token recall, pooled over the
four messy styles of the presidio set (benchmarks/messy.py), reaches the shipped model's on
the odd-numbered documents (the tuning half). The grid is tried in ascending order, each
value printed with its pooled precision, until one reaches it; the chosen value is then
checked on the even-numbered half, which took no part in the choice (the full paired
comparison is benchmarks/compare_models.py's). Per-label thresholds are set to 0 in the
candidates: o_threshold alone decides. ``--write`` stores the chosen value, ``decode:
entity-first`` and the zero thresholds in DIR's manifest (the manifest lists the other
files' sha256; itself is not hashed).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from messy import STYLES, Record, phi_filter, read_records, restyle, score  # noqa: E402

from engine.api import Session, SessionConfig  # noqa: E402
from engine.core.domain import Document  # noqa: E402
from engine.core.policies import get_policy  # noqa: E402
from engine.paths import shared_data_dir  # noqa: E402
from engine.pipeline import PipelineConfig  # noqa: E402


def pooled(model: Path, records: list[Record], policy: str) -> tuple[float, float]:
    """Token (precision, recall) over every style of ``records``, counts pooled."""
    session = Session(SessionConfig(pipeline=PipelineConfig(policy=policy, ner_model=model)))
    is_phi = phi_filter(get_policy(policy).phi_labels)

    def detect(doc: Document) -> list[tuple[int, int]]:
        return [(s.start, s.end) for s in session.detect(doc).active]

    tp = fp = fn = 0
    for style in STYLES:
        tally = score(detect, [restyle(r, style) for r in records], phi=is_phi)
        tp, fp, fn = tp + tally.tp, fp + tally.fp, fn + tally.fn
    return tp / max(tp + fp, 1), tp / max(tp + fn, 1)


def store_threshold(model_dir: Path, tau: float) -> None:
    """Entity-first decoding at ``tau`` with zero per-label thresholds, in the dir's manifest."""
    path = model_dir / "manifest.json"
    manifest: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    manifest.update(decode="entity-first", o_threshold=tau,
                    thresholds=dict.fromkeys(manifest.get("thresholds", {}), 0.0))
    path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def variant(src: Path, tau: float, folder: Path) -> Path:
    dst = folder / f"o{tau:g}"
    shutil.copytree(src, dst)
    store_threshold(dst, tau)
    return dst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True, help="the shipped model dir")
    ap.add_argument("--new", type=Path, required=True, help="the candidate model dir")
    ap.add_argument("--grid", default="0.5,0.7,0.8,0.9,0.95")
    ap.add_argument("--policy", default="hipaa")
    ap.add_argument("--write", action="store_true", help="store the choice in --new")
    args = ap.parse_args()
    grid = sorted(float(x) for x in args.grid.split(","))
    if not all(0.0 < t <= 1.0 for t in grid):
        raise SystemExit("every grid value must be in (0, 1]")
    records = read_records(shared_data_dir() / "presidio_research_synth.jsonl")
    tuning, held_out = records[1::2], records[0::2]

    old_p, old_r = pooled(args.old, tuning, args.policy)
    print(f"tuning half ({len(tuning)} docs x {len(STYLES)} styles)")
    print(f"  old            P {old_p:.4f}  R {old_r:.4f}", flush=True)
    chosen = None
    with tempfile.TemporaryDirectory() as tmp:
        for tau in grid:
            p, r = pooled(variant(args.new, tau, Path(tmp)), tuning, args.policy)
            print(f"  new o={tau:<5g}    P {p:.4f}  R {r:.4f}", flush=True)
            if r >= old_r:
                chosen = tau
                break
        if chosen is None:
            raise SystemExit("no grid value reaches the old model's recall: do not ship")
        hp, hr = pooled(variant(args.new, chosen, Path(tmp) / "held"), held_out, args.policy)
    op, orr = pooled(args.old, held_out, args.policy)
    print(f"held-out half ({len(held_out)} docs x {len(STYLES)} styles), o_threshold {chosen:g}")
    print(f"  old P {op:.4f}  R {orr:.4f}\n  new P {hp:.4f}  R {hr:.4f}")
    if args.write:
        store_threshold(args.new, chosen)
        print(f"wrote o_threshold {chosen:g} into {args.new / 'manifest.json'}")


if __name__ == "__main__":
    main()
