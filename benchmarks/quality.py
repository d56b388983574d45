"""Detection quality on the public development sets in ../shared/data.

    python benchmarks/quality.py [--no-ner] [--policy strict] [--show 20]
    python benchmarks/quality.py --messy [--extra split.jsonl ...]   # styles report only

- presidio_research_synth: token/span metrics through `engine.evaluation` (labels mapped to
  ClearNote's; labels that are not PHI under the policy are ignored).
- aci_bench_train_valid: recall of the annotated patient names (gold is names only, so no
  precision) and the share of clinical retention-term occurrences touched by any span.
- mts_dialog_sections: spans proposed per 1,000 tokens on clinical prose with almost no PHI.
- benchmarks/data/icu_notes_*.jsonl: ICU nursing notes written by hand (not by our generator),
  token P/R under HIPAA, as benchmarks/styles.py scores them. ``dev`` (260 notes, five
  authors' sets) was read while building the rules; ``held apart`` (100 notes, two sets by
  authors with no access to the code, one written after the first dev sets, one after all of
  them) is only measured: its figure is the one to quote. A second round by six more authors:
  ``dev 2`` (150 notes: a community hospital in an invented region, ALL CAPS notes, social
  work and case management) was read; ``held apart 2`` (150 notes: lower-case notes, social
  work notes, a mix from an invented hospital system) is only measured. A third round by three
  more: ``dev 3`` (100 notes: transfers and the places patients come from, relatives named in
  lower case; dates among lab values, cultures, lines and vent settings, mostly ALL CAPS) was
  read; ``held apart 3`` (50 notes, every note type, a third lower case) is only measured.
- --messy: the same sets (and any --extra JSONL with gold) in upper, lower and telegraphic
  styles: token P/R, non-PHI numeric tokens touched, punctuation-only spans (benchmarks/messy.py).

These sets are for development; acceptance uses held-out corpora nobody tunes on.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.api import Session, SessionConfig  # noqa: E402
from engine.core.domain import Document  # noqa: E402
from engine.evaluation import evaluate  # noqa: E402
from engine.evaluation.io import PredictedSpan, Prediction, load_gold  # noqa: E402
from engine.pipeline import PipelineConfig  # noqa: E402

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
WORD = re.compile(r"\w+|[^\w\s]")


def _records(name: str) -> list[dict]:
    with (DATA / name).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def presidio(session: Session, policy: str) -> None:
    gold = load_gold(DATA / "presidio_research_synth.jsonl")
    started = time.perf_counter()
    predictions = {}
    for doc in gold:
        result = session.detect(Document.from_text(doc.text, id=doc.id))
        predictions[doc.id] = Prediction(doc.id, tuple(
            PredictedSpan(s.start, s.end, s.label) for s in result.active))
    seconds = time.perf_counter() - started
    from engine.core.policies import get_policy

    report = evaluate(gold, predictions, phi_labels=get_policy(policy).phi_labels,
                      bootstrap=200)
    print(f"== presidio_research_synth ({len(gold)} docs, {seconds:.1f}s)")
    print(report.to_text())


def aci(session: Session, show: int) -> None:
    records = _records("aci_bench_train_valid.jsonl")
    names_total = names_found = terms_total = terms_touched = 0
    touched_examples: collections.Counter[str] = collections.Counter()
    for record in records:
        text = record["text"]
        result = session.detect(Document.from_text(text, id=record["id"]))
        covered = bytearray(len(text))
        for span in result.active:
            covered[span.start:span.end] = b"\x01" * (span.end - span.start)
        for gold in record["spans"]:
            if gold["label"].startswith("PATIENT"):
                names_total += 1
                names_found += all(covered[gold["start"]:gold["end"]])
        for occ in record["meta"].get("retention_term_occurrences", []):
            terms_total += 1
            if any(covered[occ["start"]:occ["end"]]):
                terms_touched += 1
                touched_examples[occ["term"]] += 1
    print(f"== aci_bench_train_valid ({len(records)} notes)")
    print(f"patient-name recall (fully covered): {names_found}/{names_total} = "
          f"{names_found / max(names_total, 1):.4f}")
    print(f"retention-term occurrences touched: {terms_touched}/{terms_total} = "
          f"{terms_touched / max(terms_total, 1):.4%}")
    for term, count in touched_examples.most_common(show):
        print(f"   touched: {term!r} x{count}")


def mts(session: Session, show: int) -> None:
    records = _records("mts_dialog_sections.jsonl")
    tokens = 0
    by_label: collections.Counter[str] = collections.Counter()
    examples: collections.Counter[tuple[str, str]] = collections.Counter()
    for record in records:
        text = record["text"]
        tokens += len(WORD.findall(text))
        for span in session.detect(Document.from_text(text, id=record["id"])).active:
            by_label[span.label.value] += 1
            examples[(span.label.value, text[span.start:span.end])] += 1
    total = sum(by_label.values())
    print(f"== mts_dialog_sections ({len(records)} sections, {tokens} tokens)")
    print(f"spans per 1,000 tokens: {1000 * total / tokens:.2f}  by label: {dict(by_label)}")
    for (label, covered), count in examples.most_common(show):
        print(f"   {label:<9} {covered!r} x{count}")


ICU_SETS = (("dev", "icu_notes_dev.jsonl"), ("held apart", "icu_notes_heldapart.jsonl"),
            ("dev 2", "icu_notes_dev2.jsonl"), ("held apart 2", "icu_notes_heldapart2.jsonl"),
            ("dev 3", "icu_notes_dev3.jsonl"), ("held apart 3", "icu_notes_heldapart3.jsonl"),
            ("dev 4", "icu_notes_dev4.jsonl"), ("held apart 4", "icu_notes_heldapart4.jsonl"),
            ("dev 5", "icu_notes_dev5.jsonl"), ("dev 6 (sparse PHI)", "icu_notes_dev6.jsonl"),
            ("held apart 5 (sparse PHI)", "icu_notes_heldapart5.jsonl"),
            ("held apart 6 (sparse PHI)", "icu_notes_heldapart6.jsonl"),
            ("dev 7 (sparse PHI)", "icu_notes_dev7.jsonl"),
            ("held apart 7 (sparse PHI)", "icu_notes_heldapart7.jsonl"),
            ("dev 8 (sparse PHI)", "icu_notes_dev8.jsonl"),
            ("held apart 8 (sparse PHI)", "icu_notes_heldapart8.jsonl"),
            ("dev 9 (sparse PHI)", "icu_notes_dev9.jsonl"),
            ("held apart 9 (sparse PHI)", "icu_notes_heldapart9.jsonl"),
            ("dev 10 (sparse PHI)", "icu_notes_dev10.jsonl"),
            ("held apart 10 (sparse PHI)", "icu_notes_heldapart10.jsonl"),
            ("dev 11 (sparse PHI)", "icu_notes_dev11.jsonl"),
            ("held apart 11 (sparse PHI)", "icu_notes_heldapart11.jsonl"),
            ("dev 12 (sparse PHI)", "icu_notes_dev12.jsonl"),
            ("held apart 12 (sparse PHI)", "icu_notes_heldapart12.jsonl"),
            ("dev 13 (sparse PHI)", "icu_notes_dev13.jsonl"),
            ("dev 14 (sparse PHI)", "icu_notes_dev14.jsonl"),
            ("dev 15 (sparse PHI)", "icu_notes_dev15.jsonl"),
            ("dev 16 (sparse PHI)", "icu_notes_dev16.jsonl"),
            ("dev 17 (sparse PHI)", "icu_notes_dev17.jsonl"),
            ("dev 18 (sparse PHI)", "icu_notes_dev18.jsonl"),
            ("dev 19 (sparse PHI)", "icu_notes_dev19.jsonl"),
            ("dev 20 (sparse PHI)", "icu_notes_dev20.jsonl"),
            ("dev 21 (sparse PHI)", "icu_notes_dev21.jsonl"),
            ("dev 22 (sparse PHI)", "icu_notes_dev22.jsonl"),
            ("dev 23 (sparse PHI)", "icu_notes_dev23.jsonl"),
            ("dev 24 (sparse PHI)", "icu_notes_dev24.jsonl"),
            ("dev 25 (sparse PHI)", "icu_notes_dev25.jsonl"),
            ("dev 26 (sparse PHI)", "icu_notes_dev26.jsonl"),
            ("dev 27 (sparse PHI)", "icu_notes_dev27.jsonl"),
            ("dev 28 (sparse PHI)", "icu_notes_dev28.jsonl"),
            ("dev 29 (sparse PHI)", "icu_notes_dev29.jsonl"),
            ("dev 30 (sparse PHI)", "icu_notes_dev30.jsonl"),
            ("dev 31 (sparse PHI)", "icu_notes_dev31.jsonl"),
            ("dev 32 (sparse PHI)", "icu_notes_dev32.jsonl"),
            ("dev 33 (sparse PHI)", "icu_notes_dev33.jsonl"),
            ("dev 34 (sparse PHI)", "icu_notes_dev34.jsonl"),
            ("dev 35 (sparse PHI)", "icu_notes_dev35.jsonl"),
            ("dev 36 (sparse PHI)", "icu_notes_dev36.jsonl"),
            ("dev 37 (sparse PHI)", "icu_notes_dev37.jsonl"),
            ("dev 38 (sparse PHI)", "icu_notes_dev38.jsonl"),
            ("dev 39 (sparse PHI)", "icu_notes_dev39.jsonl"),
            ("dev 40 (sparse PHI)", "icu_notes_dev40.jsonl"),
            ("dev 41 (sparse PHI)", "icu_notes_dev41.jsonl"),
            ("dev 42 (sparse PHI)", "icu_notes_dev42.jsonl"),
            ("dev 43 (sparse PHI)", "icu_notes_dev43.jsonl"),
            ("dev 44 (sparse PHI)", "icu_notes_dev44.jsonl"),
            ("dev 45 (sparse PHI)", "icu_notes_dev45.jsonl"),
            ("dev 46 (sparse PHI)", "icu_notes_dev46.jsonl"),
            ("dev 47 (sparse PHI)", "icu_notes_dev47.jsonl"),
            ("dev 48 (sparse PHI)", "icu_notes_dev48.jsonl"),
            ("dev 49 (sparse PHI)", "icu_notes_dev49.jsonl"),
            ("dev 50 (sparse PHI)", "icu_notes_dev50.jsonl"),
            ("dev 51 (sparse PHI)", "icu_notes_dev51.jsonl"),
            ("dev 52 (sparse PHI)", "icu_notes_dev52.jsonl"),
            ("dev 53 (sparse PHI)", "icu_notes_dev53.jsonl"),
            ("dev 54 (sparse PHI)", "icu_notes_dev54.jsonl"),
            ("dev 55 (sparse PHI)", "icu_notes_dev55.jsonl"),
            ("dev 56 (sparse PHI)", "icu_notes_dev56.jsonl"),
            ("dev 57 (sparse PHI)", "icu_notes_dev57.jsonl"),
            ("dev 58 (sparse PHI)", "icu_notes_dev58.jsonl"),
            ("dev 59 (sparse PHI)", "icu_notes_dev59.jsonl"),
            ("dev 60 (sparse PHI)", "icu_notes_dev60.jsonl"),
            ("dev 61 (sparse PHI)", "icu_notes_dev61.jsonl"),
            ("dev 62 (sparse PHI)", "icu_notes_dev62.jsonl"),
            ("dev 63 (sparse PHI)", "icu_notes_dev63.jsonl"),
            ("dev 64 (sparse PHI)", "icu_notes_dev64.jsonl"),
            ("dev 65 (sparse PHI)", "icu_notes_dev65.jsonl"),
            ("dev 66 (sparse PHI)", "icu_notes_dev66.jsonl"),
            ("dev 67 (sparse PHI)", "icu_notes_dev67.jsonl"),
            ("dev 68 (sparse PHI)", "icu_notes_dev68.jsonl"),
            ("dev 69 (sparse PHI)", "icu_notes_dev69.jsonl"),
            ("dev 70 (sparse PHI)", "icu_notes_dev70.jsonl"),
            ("dev 71 (sparse PHI)", "icu_notes_dev71.jsonl"),
            ("dev 72 (sparse PHI)", "icu_notes_dev72.jsonl"),
            ("dev 73 (sparse PHI)", "icu_notes_dev73.jsonl"),
            ("dev 74 (sparse PHI)", "icu_notes_dev74.jsonl"),
            ("dev 75 (sparse PHI)", "icu_notes_dev75.jsonl"),
            ("dev 76 (sparse PHI)", "icu_notes_dev76.jsonl"),
            ("dev 77 (sparse PHI)", "icu_notes_dev77.jsonl"),
            ("dev 78 (sparse PHI)", "icu_notes_dev78.jsonl"),
            ("dev 79 (sparse PHI)", "icu_notes_dev79.jsonl"),
            ("dev 80 (sparse PHI)", "icu_notes_dev80.jsonl"),
            ("dev 81", "icu_notes_dev81.jsonl"),
            ("dev 82", "icu_notes_dev82.jsonl"),
            ("dev 83", "icu_notes_dev83.jsonl"),
            ("dev 84", "icu_notes_dev84.jsonl"),
            ("dev 85", "icu_notes_dev85.jsonl"),
            ("dev 86", "icu_notes_dev86.jsonl"),
            ("dev 87", "icu_notes_dev87.jsonl"),
            ("dev 88", "icu_notes_dev88.jsonl"),
            ("dev 89", "icu_notes_dev89.jsonl"),
            ("dev 90", "icu_notes_dev90.jsonl"),
            ("dev 91", "icu_notes_dev91.jsonl"),
            ("dev 92", "icu_notes_dev92.jsonl"),
            ("dev 93", "icu_notes_dev93.jsonl"),
            ("dev 94", "icu_notes_dev94.jsonl"),
            ("dev 95", "icu_notes_dev95.jsonl"),
            ("dev 96", "icu_notes_dev96.jsonl"),
            ("dev 97", "icu_notes_dev97.jsonl"),
            ("dev 98", "icu_notes_dev98.jsonl"),
            ("dev 99", "icu_notes_dev99.jsonl"),
            ("dev 100", "icu_notes_dev100.jsonl"),
            ("dev 101", "icu_notes_dev101.jsonl"),
            ("dev 102", "icu_notes_dev102.jsonl"),
            ("dev 103", "icu_notes_dev103.jsonl"),
            ("dev 104", "icu_notes_dev104.jsonl"),
            ("dev 105", "icu_notes_dev105.jsonl"),
            ("dev 106", "icu_notes_dev106.jsonl"),
            ("dev 107", "icu_notes_dev107.jsonl"),
            ("held apart 13 (sparse PHI)", "icu_notes_heldapart13.jsonl"),
            ("held apart 14 (sparse PHI)", "icu_notes_heldapart14.jsonl"),
            ("held apart 15 (sparse PHI)", "icu_notes_heldapart15.jsonl"),
            ("held apart 16 (sparse PHI)", "icu_notes_heldapart16.jsonl"),
            ("held apart 17 (sparse PHI)", "icu_notes_heldapart17.jsonl"),
            ("held apart 18 (sparse PHI)", "icu_notes_heldapart18.jsonl"),
            ("held apart 19 (sparse PHI)", "icu_notes_heldapart19.jsonl"),
            ("held apart 20 (sparse PHI)", "icu_notes_heldapart20.jsonl"),
            ("held apart 21 (sparse PHI)", "icu_notes_heldapart21.jsonl"),
            ("held apart 22 (sparse PHI)", "icu_notes_heldapart22.jsonl"),
            ("held apart 23 (sparse PHI)", "icu_notes_heldapart23.jsonl"),
            ("held apart 24 (sparse PHI)", "icu_notes_heldapart24.jsonl"),
            ("held apart 25 (sparse PHI)", "icu_notes_heldapart25.jsonl"),
            ("held apart 26 (sparse PHI)", "icu_notes_heldapart26.jsonl"),
            ("held apart 27 (sparse PHI)", "icu_notes_heldapart27.jsonl"),
            ("held apart 28 (sparse PHI)", "icu_notes_heldapart28.jsonl"),
            ("held apart 29 (sparse PHI)", "icu_notes_heldapart29.jsonl"),
            ("held apart 30 (sparse PHI)", "icu_notes_heldapart30.jsonl"),
            ("held apart 31 (sparse PHI)", "icu_notes_heldapart31.jsonl"),
            ("held apart 32 (sparse PHI)", "icu_notes_heldapart32.jsonl"),
            ("held apart 33 (sparse PHI)", "icu_notes_heldapart33.jsonl"),
            ("held apart 34 (sparse PHI)", "icu_notes_heldapart34.jsonl"),
            ("held apart 35 (sparse PHI)", "icu_notes_heldapart35.jsonl"),
            ("held apart 36 (sparse PHI)", "icu_notes_heldapart36.jsonl"),
            ("held apart 37 (sparse PHI)", "icu_notes_heldapart37.jsonl"),
            ("held apart 38 (sparse PHI)", "icu_notes_heldapart38.jsonl"),
            ("held apart 39 (sparse PHI)", "icu_notes_heldapart39.jsonl"),
            ("held apart 40 (sparse PHI)", "icu_notes_heldapart40.jsonl"),
            ("held apart 41 (sparse PHI)", "icu_notes_heldapart41.jsonl"),
            ("held apart 42 (sparse PHI)", "icu_notes_heldapart42.jsonl"),
            ("held apart 43 (sparse PHI)", "icu_notes_heldapart43.jsonl"),
            ("held apart 44 (sparse PHI)", "icu_notes_heldapart44.jsonl"),
            ("held apart 45 (sparse PHI)", "icu_notes_heldapart45.jsonl"),
            ("held apart 46 (sparse PHI)", "icu_notes_heldapart46.jsonl"),
            ("held apart 47 (sparse PHI)", "icu_notes_heldapart47.jsonl"),
            ("held apart 48 (sparse PHI)", "icu_notes_heldapart48.jsonl"),
            ("held apart 49 (sparse PHI)", "icu_notes_heldapart49.jsonl"),
            ("held apart 50 (sparse PHI)", "icu_notes_heldapart50.jsonl"),
            ("held apart 51 (sparse PHI)", "icu_notes_heldapart51.jsonl"),
            ("held apart 52 (sparse PHI)", "icu_notes_heldapart52.jsonl"),
            ("held apart 53 (sparse PHI)", "icu_notes_heldapart53.jsonl"),
            ("held apart 54 (sparse PHI)", "icu_notes_heldapart54.jsonl"),
            ("held apart 55 (sparse PHI)", "icu_notes_heldapart55.jsonl"),
            ("held apart 56 (sparse PHI)", "icu_notes_heldapart56.jsonl"),
            ("held apart 57 (sparse PHI)", "icu_notes_heldapart57.jsonl"),
            ("held apart 58 (sparse PHI)", "icu_notes_heldapart58.jsonl"),
            ("held apart 59 (sparse PHI)", "icu_notes_heldapart59.jsonl"),
            ("held apart 60 (sparse PHI)", "icu_notes_heldapart60.jsonl"),
            ("held apart 61 (sparse PHI)", "icu_notes_heldapart61.jsonl"),
            ("held apart 62 (sparse PHI)", "icu_notes_heldapart62.jsonl"),
            ("held apart 63 (sparse PHI)", "icu_notes_heldapart63.jsonl"),
            ("held apart 64 (sparse PHI)", "icu_notes_heldapart64.jsonl"),
            ("held apart 65 (sparse PHI)", "icu_notes_heldapart65.jsonl"),
            ("held apart 66 (sparse PHI)", "icu_notes_heldapart66.jsonl"),
            ("held apart 67 (sparse PHI)", "icu_notes_heldapart67.jsonl"),
            ("held apart 68 (sparse PHI)", "icu_notes_heldapart68.jsonl"),
            ("held apart 69 (sparse PHI)", "icu_notes_heldapart69.jsonl"),
            ("held apart 70", "icu_notes_heldapart70.jsonl"),
            ("held apart 71", "icu_notes_heldapart71.jsonl"),
            ("held apart 72", "icu_notes_heldapart72.jsonl"),
            ("held apart 73", "icu_notes_heldapart73.jsonl"),
            ("held apart 74", "icu_notes_heldapart74.jsonl"),
            ("held apart 75", "icu_notes_heldapart75.jsonl"),
            ("held apart 76", "icu_notes_heldapart76.jsonl"),
            ("held apart 77", "icu_notes_heldapart77.jsonl"),
            ("held apart 78", "icu_notes_heldapart78.jsonl"),
            ("held apart 79", "icu_notes_heldapart79.jsonl"),
            ("held apart 80", "icu_notes_heldapart80.jsonl"),
            ("held apart 81", "icu_notes_heldapart81.jsonl"),
            ("held apart 82", "icu_notes_heldapart82.jsonl"),
            ("held apart 83", "icu_notes_heldapart83.jsonl"),
            ("held apart 84", "icu_notes_heldapart84.jsonl"),
            ("held apart 85", "icu_notes_heldapart85.jsonl"),
            ("held apart 86", "icu_notes_heldapart86.jsonl"),
            ("held apart 87", "icu_notes_heldapart87.jsonl"),
            ("held apart 88", "icu_notes_heldapart88.jsonl"),
            ("held apart 89", "icu_notes_heldapart89.jsonl"),
            ("held apart 90", "icu_notes_heldapart90.jsonl"),
            ("held apart 91", "icu_notes_heldapart91.jsonl"),
            ("held apart 92", "icu_notes_heldapart92.jsonl"),
            ("held apart 93", "icu_notes_heldapart93.jsonl"),
            ("held apart 94", "icu_notes_heldapart94.jsonl"),
            ("held apart 95", "icu_notes_heldapart95.jsonl"),
            ("held apart 96", "icu_notes_heldapart96.jsonl"))


def icu(ner: bool) -> None:
    """Hand-written ICU nursing notes, scored under HIPAA (the policy the ICU bar names)."""
    from styles import GuardProbe, figures, run

    session = Session(SessionConfig(pipeline=PipelineConfig(
        policy="hipaa", ner="auto" if ner else False)))
    probe = GuardProbe(enabled=True)
    for name, file in ICU_SETS:
        groups = run(Path(__file__).resolve().parent / "data" / file, session, "hipaa", probe)
        f = figures(groups["all"])
        print(f"== ICU notes, {name} ({f['docs']:.0f} notes, hipaa): token P {f['precision']:.3f}"
              f" R {f['recall']:.3f}; false tokens per 1,000 non-PHI {f['fp_per_1k']:.2f} (PHI"
              f" {f['phi_share']:.1%} of tokens); non-PHI numbers touched "
              f"{f['numeric_touched']:.2%}; punctuation-only spans {f['punct_only']:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-ner", action="store_true")
    parser.add_argument("--policy", default="strict")
    parser.add_argument("--show", type=int, default=0, help="print the N most common findings")
    parser.add_argument("--only", choices=["presidio", "aci", "mts", "icu"])
    parser.add_argument("--messy", action="store_true",
                        help="only the messy-text report (upper/lower/telegraphic styles)")
    parser.add_argument("--extra", type=Path, action="append", default=[],
                        help="another JSONL split with gold spans for the messy report")
    args = parser.parse_args()
    session = Session(SessionConfig(pipeline=PipelineConfig(
        policy=args.policy, ner=False if args.no_ner else "auto")))
    print(f"detectors: {', '.join(session.pipeline.detector_ids)}; policy: {args.policy}")
    if args.messy or args.extra:
        from messy import report

        from engine.core.policies import get_policy

        report(lambda doc: [(s.start, s.end) for s in session.detect(doc).active], DATA,
               get_policy(args.policy).phi_labels, args.extra, args.show)
        return
    if args.only in (None, "presidio"):
        presidio(session, args.policy)
    if args.only in (None, "aci"):
        aci(session, args.show)
    if args.only in (None, "mts"):
        mts(session, args.show)
    if args.only in (None, "icu"):
        icu(not args.no_ner)


if __name__ == "__main__":
    main()
