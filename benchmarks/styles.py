"""Detection quality per note style on a JSONL split with gold spans (the messy-text report).

    python benchmarks/styles.py SPLIT.jsonl [--policy hipaa] [--no-ner] [--model DIR]
        [--no-guards] [--dump PRED.jsonl] [--ner-cache NER.jsonl] [--recase upper|lower]

SPLIT is what `python -m engine.training.corpus OUT SEED N` writes (records carry
`meta.style` and `meta.casing`) or any JSONL with `{id, text, spans}`. Per style and casing:
token precision/recall (a word token is PHI if any of its characters is covered; gold and
predictions both filtered by the policy), the share of non-PHI numeric tokens that a span
touches (vitals, lab strings and times rewritten), punctuation-only spans (must be 0), false
tokens per 1,000 non-PHI tokens and the share of tokens that are PHI. Precision depends on how
dense the PHI is; at a PHI share d and recall R, fp/1k = f gives P = R*d / (R*d + f/1000*(1-d)),
which carries a figure from these PHI-dense sets to sparse real notes.
``--no-guards`` (benchmark only) skips engine.resolution.guards to see what the guards drop;
``--dump`` writes every document's predicted and guard-dropped spans for error analysis.
``--ner-cache`` records the model's raw spans per text on the first run and replays them on later
runs, so that rule and guard changes can be measured with the model in a fraction of the time.
``--recase upper|lower`` scores the split's mixed-case notes rewritten in one case: a view of
notes already read as ALL CAPS or lower-case charting writes them, where case tells nothing.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.resolution.guards  # noqa: E402
from engine.api import Session, SessionConfig  # noqa: E402
from engine.core.context import RunContext  # noqa: E402
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
        acc["tokens"] += 1
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
        # False tokens per 1,000 non-PHI tokens and the share of PHI tokens: precision depends
        # on how dense the PHI is, these two carry over to notes of another density.
        "fp_per_1k": 1000 * acc["fp"] / max(acc["tokens"] - acc["tp"] - acc["fn"], 1),
        "phi_share": (acc["tp"] + acc["fn"]) / max(acc["tokens"], 1),
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


class GuardProbe:
    """Wraps the pipeline's guard step: records what it drops, or skips it (``--no-guards``)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.dropped: list[Span] = []
        # The pipeline imports guard from engine.resolution.guards when it first runs.
        self._guard = engine.resolution.guards.guard
        engine.resolution.guards.guard = self  # type: ignore[assignment]

    def __call__(self, doc: Document, spans: Any) -> tuple[list[Span], list[Span]]:
        if not self.enabled:
            return list(spans), []
        kept, dropped = self._guard(doc, spans)
        self.dropped.extend(dropped)
        return kept, dropped


class NerCache:
    """Stands in for the NER detector: replays its recorded spans, records them when absent."""

    def __init__(self, detector: Any, path: Path) -> None:
        self.detector, self.spec, self.path = detector, detector.spec, path
        self.spans: dict[str, list[list[Any]]] = {}
        if path.exists():
            self.spans = json.loads(path.read_text(encoding="utf-8"))
        self.recorded = 0

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        key = hashlib.sha256(doc.text.encode("utf-8")).hexdigest()
        if key not in self.spans:
            self.spans[key] = [[s.start, s.end, s.label.value, s.subtype, s.confidence]
                               for s in self.detector.detect(doc, ctx)]
            self.recorded += 1
        return [Span(a, b, Label(lab), source=Source.NER, detector=self.spec.qualified,
                     confidence=conf, subtype=sub) for a, b, lab, sub, conf in self.spans[key]]

    def save(self) -> None:
        if self.recorded:
            self.path.write_text(json.dumps(self.spans), encoding="utf-8")


def _with_ner_cache(session: Session, path: Path) -> NerCache | None:
    pipeline = session.pipeline
    for i, det in enumerate(pipeline.detectors):
        if det.spec.source is Source.NER:
            cache = NerCache(det, path)
            pipeline.detectors = (*pipeline.detectors[:i], cache, *pipeline.detectors[i + 1:])
            return cache
    return None


def _row(s: Span) -> list[Any]:
    return [s.start, s.end, str(s.label), s.detector]


def recased(records: list[dict[str, Any]], case: str) -> list[dict[str, Any]]:
    """The mixed-case notes written in one case ("upper" or "lower"), gold spans kept: a view
    of read notes as ALL CAPS or lower-case charting writes them (notes whose length the case
    change alters, "ß", are left out)."""
    out = []
    for rec in records:
        text = rec["text"]
        new = text.upper() if case == "upper" else text.lower()
        if rec.get("meta", {}).get("casing") != "mixed" or len(new) != len(text):
            continue
        out.append({**rec, "id": f"{case}-{rec['id']}", "text": new,
                    "meta": {**rec.get("meta", {}), "casing": case}})
    return out


def run(path: Path, session: Session, policy: str, probe: GuardProbe,
        dump: Any = None, recase: str | None = None) -> dict[str, collections.Counter[str]]:
    groups: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    with path.open(encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    if recase:
        records = recased(records, recase)
    for rec in records:
        probe.dropped = []
        result = session.detect(Document.from_text(rec["text"], id=str(rec["id"])))
        pred = [(s.start, s.end) for s in result.active]
        if dump is not None:
            dump.write(json.dumps({"id": rec["id"], "pred": [_row(s) for s in result.active],
                                   "guarded": [_row(s) for s in probe.dropped]}) + "\n")
        meta = rec.get("meta", {})
        keys = ("all", f"style:{meta.get('style', '?')}", f"casing:{meta.get('casing', '?')}")
        for key in keys:
            groups[key]["docs"] += 1
            score_document(rec["text"], gold_spans(rec, policy), pred, groups[key])
    return groups


def report(groups: dict[str, collections.Counter[str]]) -> str:
    lines = [f"{'group':28} {'docs':>5} {'P':>6} {'R':>6} {'num.touched':>11} {'punct':>5}"
             f" {'fp/1k':>6} {'phi':>6}"]
    for key in sorted(groups, key=lambda k: (k != "all", k)):
        f = figures(groups[key])
        lines.append(f"{key:28} {f['docs']:5.0f} {f['precision']:6.3f} {f['recall']:6.3f} "
                     f"{f['numeric_touched']:11.2%} {f['punct_only']:5.0f}"
                     f" {f['fp_per_1k']:6.2f} {f['phi_share']:6.1%}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("split", type=Path)
    ap.add_argument("--policy", default="hipaa")
    ap.add_argument("--no-ner", action="store_true")
    ap.add_argument("--model", type=Path, default=None, help="NER model dir (default: shipped)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument("--no-guards", action="store_true",
                    help="benchmark only: skip the resolution guards")
    ap.add_argument("--dump", type=Path, default=None,
                    help="write predicted and guard-dropped spans per document (JSONL)")
    ap.add_argument("--ner-cache", type=Path, default=None,
                    help="replay the model's spans from this file (recorded when missing)")
    ap.add_argument("--recase", choices=("upper", "lower"), default=None,
                    help="score the mixed-case notes written in this case instead")
    args = ap.parse_args()
    config = PipelineConfig(policy=args.policy, ner=not args.no_ner, ner_model=args.model)
    session = Session(SessionConfig(pipeline=config))
    started = time.perf_counter()
    probe = GuardProbe(enabled=not args.no_guards)
    cache = _with_ner_cache(session, args.ner_cache) if args.ner_cache else None
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as dump:
            groups = run(args.split, session, args.policy, probe, dump, args.recase)
    else:
        groups = run(args.split, session, args.policy, probe, recase=args.recase)
    if cache is not None:
        cache.save()
    print(report(groups))
    print(f"({time.perf_counter() - started:.1f} s, policy {args.policy}, "
          f"{'rules only' if args.no_ner else 'model ' + str(args.model or 'shipped')}"
          f"{', no guards' if args.no_guards else ''})")
    if args.json:
        args.json.write_text(json.dumps({k: figures(v) for k, v in groups.items()}, indent=2))


if __name__ == "__main__":
    main()
