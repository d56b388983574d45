"""Two NER models in the full pipeline, paired on the same documents, with bootstrap CIs.

    python benchmarks/compare_models.py --old DIR --new DIR [SPLIT.jsonl ...]
                                        [--policy hipaa] [--rounds 1000] [--json OUT]

Sets: every SPLIT given (the corpus generator's held-out test split, say) and the shared
presidio_research_synth set in the messy styles of benchmarks/messy.py (original, upper,
lower, telegraphic). For each set and model: token precision and recall (a word token counts
when any span touches it) with 95% percentile bootstrap CIs over documents, and the paired
difference new - old with its CI (the same resampled documents for both models). A new model
"holds" a figure when its point estimate lies inside the old model's CI; the paired CI says
whether a difference is real. Numeric tokens touched (non-PHI) are reported beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from messy import STYLES, Record, phi_filter, read_records, restyle, score  # noqa: E402

from engine.api import Session, SessionConfig  # noqa: E402
from engine.core.domain import Document  # noqa: E402
from engine.core.policies import get_policy  # noqa: E402
from engine.evaluation.bootstrap import FloatArray, Metric, bootstrap_ci, ratio  # noqa: E402
from engine.paths import shared_data_dir  # noqa: E402
from engine.pipeline import PipelineConfig  # noqa: E402

COUNTS = ("tp", "fp", "fn", "numeric", "numeric_touched")


def per_document(session: Session, records: list[Record], policy: str) -> dict[str, list[int]]:
    """Token counts per document (arrays over documents, for the bootstrap)."""
    is_phi = phi_filter(get_policy(policy).phi_labels)

    def detect(doc: Document) -> list[tuple[int, int]]:
        return [(s.start, s.end) for s in session.detect(doc).active]

    out: dict[str, list[int]] = {k: [] for k in COUNTS}
    for record in records:
        tally = score(detect, [record], phi=is_phi)
        for key in COUNTS:
            out[key].append(getattr(tally, key))
    return out


def _side_metric(side: str, den: str) -> Metric:
    """Precision (den "fp") or recall (den "fn") of one side from summed counts."""
    def metric(c: Mapping[str, FloatArray]) -> FloatArray:
        return c[f"{side}_tp"] / np.maximum(c[f"{side}_tp"] + c[f"{side}_{den}"], 1)
    return metric


def paired_difference(old: dict[str, list[int]], new: dict[str, list[int]], *, rounds: int,
                      seed: int) -> dict[str, tuple[float, float] | None]:
    """CI of new - old for precision and recall: one bootstrap over documents resamples
    both sides' counts with the same weights, so the difference is paired."""
    counts = {f"{side}_{k}": values[k] for side, values in (("old", old), ("new", new))
              for k in ("tp", "fp", "fn")}

    def difference(den: str) -> Metric:
        newer, older = _side_metric("new", den), _side_metric("old", den)
        return lambda c: newer(c) - older(c)

    return bootstrap_ci(counts, {"precision": difference("fp"), "recall": difference("fn")},
                        rounds=rounds, seed=seed)


def point(counts: dict[str, list[int]]) -> dict[str, float]:
    tp, fp, fn = (sum(counts[k]) for k in ("tp", "fp", "fn"))
    return {"precision": tp / max(tp + fp, 1), "recall": tp / max(tp + fn, 1),
            "numeric_touched": sum(counts["numeric_touched"]) / max(sum(counts["numeric"]), 1)}


def compare(name: str, records: list[Record], sessions: dict[str, Session], policy: str,
            rounds: int) -> dict[str, Any]:
    counts = {}
    for side, session in sessions.items():
        started = time.perf_counter()
        counts[side] = per_document(session, records, policy)
        print(f"   {name}: {side} model {time.perf_counter() - started:.0f} s", flush=True)
    result: dict[str, Any] = {"docs": len(records)}
    for side in sessions:
        arrays = {"tp": counts[side]["tp"],
                  "tp_fp": [a + b for a, b in zip(counts[side]["tp"], counts[side]["fp"],
                                                  strict=True)],
                  "tp_fn": [a + b for a, b in zip(counts[side]["tp"], counts[side]["fn"],
                                                  strict=True)]}
        ci = bootstrap_ci(arrays, {"precision": ratio("tp", "tp_fp"),
                                   "recall": ratio("tp", "tp_fn")}, rounds=rounds, seed=13)
        result[side] = {**point(counts[side]), "ci": ci}
    result["new_minus_old_ci"] = paired_difference(counts["old"], counts["new"], rounds=rounds,
                                                   seed=13)
    return result


def print_result(name: str, result: dict[str, Any]) -> None:
    print(f"== {name} ({result['docs']} docs)")
    for metric in ("precision", "recall"):
        old, new = result["old"], result["new"]
        lo, hi = old["ci"][metric]
        dlo, dhi = result["new_minus_old_ci"][metric]
        holds = "holds" if new[metric] >= lo else "BELOW old CI"
        print(f"   {metric:<9} old {old[metric]:.4f} [{lo:.4f}, {hi:.4f}]  "
              f"new {new[metric]:.4f}  new-old CI [{dlo:+.4f}, {dhi:+.4f}]  {holds}")
    print(f"   numeric touched: old {result['old']['numeric_touched']:.2%} "
          f"new {result['new']['numeric_touched']:.2%}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("splits", nargs="*", type=Path)
    ap.add_argument("--old", type=Path, required=True, help="NER model dir (baseline)")
    ap.add_argument("--new", type=Path, required=True, help="NER model dir (candidate)")
    ap.add_argument("--policy", default="hipaa")
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--no-messy", action="store_true", help="skip the presidio messy styles")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    sessions = {side: Session(SessionConfig(pipeline=PipelineConfig(
        policy=args.policy, ner_model=model))) for side, model in
        (("old", args.old), ("new", args.new))}
    sets = [(path.stem, read_records(path)) for path in args.splits]
    if not args.no_messy:
        presidio = read_records(shared_data_dir() / "presidio_research_synth.jsonl")
        sets += [(f"presidio_{style}", [restyle(r, style) for r in presidio])
                 for style in STYLES]
    results = {}
    for name, records in sets:
        results[name] = compare(name, records, sessions, args.policy, args.rounds)
        print_result(name, results[name])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
