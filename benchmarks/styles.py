"""Detection quality per note style on a JSONL split with gold spans (the messy-text report).

    python benchmarks/styles.py SPLIT.jsonl [--policy hipaa] [--no-ner] [--model DIR]

SPLIT is what `python -m engine.training.corpus OUT SEED N` writes (records carry
`meta.style` and `meta.casing`) or any JSONL with `{id, text, spans}`. Per style and casing:
token precision/recall (a word token is PHI if any of its characters is covered; gold and
predictions both filtered by the policy), the share of non-PHI numeric tokens that a span
touches (vitals, lab strings and times rewritten), and punctuation-only spans (must be 0).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.api import Session, SessionConfig  # noqa: E402
from engine.core.domain import Document, Source, Span  # noqa: E402
from engine.core.labels import Label  # noqa: E402
from engine.core.policies import get_policy  # noqa: E402
from engine.pipeline import PipelineConfig  # noqa: E402

WORD = re.compile(r"\w+|[^\w\s]")
NUMERIC = re.compile(r"\d")


def _covered(n: int, ranges: list[tuple[int, int]]) -> bytearray:
    mask = bytearray(n)
    for start, end in ranges:
        mask[start:end] = b"\x01" * (end - start)
    return mask


def score_document(text: str, gold: list[tuple[int, int]],
                   pred: list[tuple[int, int]], acc: collections.Counter[str]) -> None:
    g, p = _covered(len(text), gold), _covered(len(text), pred)
    for m in WORD.finditer(text):
        s, e = m.span()
        in_gold, in_pred = any(g[s:e]), any(p[s:e])
        acc["tp"] += in_gold and in_pred
        acc["fp"] += in_pred and not in_gold
        acc["fn"] += in_gold and not in_pred
        if NUMERIC.search(m.group()) and not in_gold:
            acc["numeric"] += 1
            acc["numeric_touched"] += in_pred
    for s, e in pred:
        acc["punct_only"] += not any(c.isalnum() for c in text[s:e])


def figures(acc: collections.Counter[str]) -> dict[str, float]:
    return {
        "precision": acc["tp"] / max(acc["tp"] + acc["fp"], 1),
        "recall": acc["tp"] / max(acc["tp"] + acc["fn"], 1),
        "numeric_touched": acc["numeric_touched"] / max(acc["numeric"], 1),
        "punct_only": acc["punct_only"],
        "docs": acc["docs"],
    }


def gold_spans(record: dict[str, Any], policy_name: str) -> list[tuple[int, int]]:
    policy, text = get_policy(policy_name), record["text"]
    out = []
    for sp in record.get("spans", []):
        span = Span(start=int(sp["start"]), end=int(sp["end"]), label=Label(sp["label"]),
                    source=Source.GOLD, detector="gold")
        if policy.is_phi(span, text):
            out.append((span.start, span.end))
    return out


def run(path: Path, session: Session, policy: str) -> dict[str, collections.Counter[str]]:
    groups: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    with path.open(encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    for rec in records:
        result = session.detect(Document.from_text(rec["text"], id=str(rec["id"])))
        pred = [(s.start, s.end) for s in result.active]
        meta = rec.get("meta", {})
        keys = ("all", f"style:{meta.get('style', '?')}", f"casing:{meta.get('casing', '?')}")
        for key in keys:
            groups[key]["docs"] += 1
            score_document(rec["text"], gold_spans(rec, policy), pred, groups[key])
    return groups


def report(groups: dict[str, collections.Counter[str]]) -> str:
    lines = [f"{'group':28} {'docs':>5} {'P':>6} {'R':>6} {'num.touched':>11} {'punct':>5}"]
    for key in sorted(groups, key=lambda k: (k != "all", k)):
        f = figures(groups[key])
        lines.append(f"{key:28} {f['docs']:5.0f} {f['precision']:6.3f} {f['recall']:6.3f} "
                     f"{f['numeric_touched']:11.2%} {f['punct_only']:5.0f}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("split", type=Path)
    ap.add_argument("--policy", default="hipaa")
    ap.add_argument("--no-ner", action="store_true")
    ap.add_argument("--model", type=Path, default=None, help="NER model dir (default: shipped)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args()
    config = PipelineConfig(policy=args.policy, ner=not args.no_ner, ner_model=args.model)
    session = Session(SessionConfig(pipeline=config))
    started = time.perf_counter()
    groups = run(args.split, session, args.policy)
    print(report(groups))
    print(f"({time.perf_counter() - started:.1f} s, policy {args.policy}, "
          f"{'rules only' if args.no_ner else 'model ' + str(args.model or 'shipped')})")
    if args.json:
        args.json.write_text(json.dumps({k: figures(v) for k, v in groups.items()}, indent=2))


if __name__ == "__main__":
    main()
