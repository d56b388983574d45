"""Cost of project adaptation at the acceptance's scale (issue 25): a synthetic project of
2,400 nursing-style notes (MTS-Dialog sections with inserted patients, relatives, staff,
wards and ICU shorthand; 600 patients linked by MRN), 100 reviewed by the simulated
reviewer (candidates overlapping a gold span accepted, others rejected, untouched gold
added). Prints `project adapt` time and peak memory (its own process), and plain detection
against re-detection with the profile (one worker each, per document).

Quality is benchmarks/adapt.py's business; this measures cost only.

    python benchmarks/adapt_scale.py [--notes 2400] [--reviewed 100] [--ner]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core.domain import SpanStatus  # noqa: E402
from engine.core.labels import Label  # noqa: E402
from engine.pipeline import PipelineConfig  # noqa: E402
from engine.project import Project, Services  # noqa: E402

SECTIONS = Path("/work/shared/data/mts_dialog_sections.jsonl")
FIRST = ["Quilla", "Maris", "Tobin", "Odile", "Perrin", "Nestor", "Ysolde", "Bertram",
         "Hesper", "Corwin", "Lisbet", "Anselm"]
LAST = ["Lindqvist", "Vantreight", "Oakhollow", "Marchetti", "Haldane", "Sorensen",
        "Dubrovka", "Fairweather", "Castellanos", "Whitcombe", "Okonkwo", "Thibodeau"]
STAFF = ["Dana Lang", "Beatrice Toller", "Ravi Menon", "Ingrid Sahlberg"]
WARDS = ["Kessler", "Bramwell", "Ostrander"]
SHORTHAND = ["cont abx", "aline intact", "foley draining", "cont gtt", "pt turned q2h"]


def _note(rng: random.Random, body: str, patient: tuple[str, str, str]
          ) -> tuple[str, list[tuple[int, int, Label]]]:
    first, last, mrn = patient
    staff = rng.choice(STAFF)
    parts: list[tuple[str, Label | None]] = [
        ("MRN: ", None), (mrn, Label.ID), ("\nPt ", None),
        (rng.choice([f"{first} {last}", f"{last.upper()}, {first[0]}.", f"{last}"]),
         Label.PATIENT),
        (f" on {''}", None), (f"{rng.choice(WARDS)} {rng.randint(1, 6)}", Label.HOSPITAL),
        (f". {rng.choice(SHORTHAND)}, {rng.choice(SHORTHAND)}. ", None), (body, None),
        ("\nDaughter ", None), (rng.choice(FIRST), Label.PERSON), (" called. RN ", None),
        (rng.choice([staff, f"{staff[0]}. {staff.split()[1]}", staff.split()[1]]),
         Label.DOCTOR), ("\n", None)]
    text, gold = "", []
    for piece, label in parts:
        if label is not None:
            gold.append((len(text), len(text) + len(piece), label))
        text += piece
    return text, gold


def build(folder: Path, notes: int, seed: int) -> dict[str, list[tuple[int, int, Label]]]:
    rng = random.Random(seed)
    bodies = [json.loads(line)["text"] for line in SECTIONS.open(encoding="utf-8")]
    patients = [(rng.choice(FIRST), rng.choice(LAST), str(4_000_000 + i))
                for i in range(max(1, notes // 4))]
    gold = {}
    for i in range(notes):
        text, spans = _note(rng, bodies[i % len(bodies)], patients[i % len(patients)])
        name = f"note_{i:05d}.txt"
        (folder / name).write_text(text, encoding="utf-8")
        gold[name] = spans
    return gold


def review(project: Project, gold: dict[str, list[tuple[int, int, Label]]], n: int) -> int:
    """The simulated reviewer on the first ``n`` documents; returns decisions made."""
    made = 0
    docs = sorted(project.documents(), key=lambda d: Path(d.source_path).name)[:n]
    for doc in docs:
        spans_gold = gold[Path(doc.source_path).name]
        touched = set()
        for span in project.spans(doc.id):
            hits = [g for g in spans_gold if g[0] < span.end and span.start < g[1]]
            touched.update(hits)
            project.set_span_status(span.id, SpanStatus.ACCEPTED if hits else
                                    SpanStatus.REJECTED)
            made += 1
        for start, end, label in spans_gold:
            if (start, end, label) not in touched:
                project.add_manual_span(doc.id, start, end, label)
                made += 1
    return made


def adapt_only(path: Path) -> None:
    """`project adapt` alone, in this (fresh) process: its time and peak memory."""
    project = Project.open(path, services=Services())
    started = time.perf_counter()
    r = project.adaptation.adapt()
    seconds = time.perf_counter() - started
    project.close()
    print(f"adapt: {seconds:.1f} s, {r.documents_reviewed} reviewed documents, "
          f"{r.decisions} decisions, peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; "
          f"entries {r.counts}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=2400)
    parser.add_argument("--reviewed", type=int, default=100)
    parser.add_argument("--ner", action="store_true", help="with the NER model (slower)")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--adapt-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.adapt_only:
        adapt_only(args.adapt_only)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "notes"
        folder.mkdir()
        gold = build(folder, args.notes, args.seed)
        path = Path(tmp) / "scale.clearnote"
        project = Project.create(path, services=Services(),
                                 pipeline=PipelineConfig(ner=args.ner))
        project.import_paths([folder])
        started = time.perf_counter()
        project.detect()
        plain = time.perf_counter() - started
        made = review(project, gold, args.reviewed)
        project.close()
        print(f"{args.notes} notes, NER {'on' if args.ner else 'off'}: plain detect "
              f"{plain:.1f} s ({plain / args.notes * 1000:.1f} ms/document); "
              f"{made} review decisions on {args.reviewed} documents")
        subprocess.run([sys.executable, __file__, "--adapt-only", str(path)], check=True)
        project = Project.open(path, services=Services())
        started = time.perf_counter()
        report = project.adaptation.redetect()
        again = time.perf_counter() - started
        n = len(report.detected)
        print(f"re-detect with the profile: {n} unreviewed documents in {again:.1f} s "
              f"({again / max(n, 1) * 1000:.1f} ms/document, "
              f"{again / max(n, 1) / (plain / args.notes):.2f}x plain)")
        # The same documents through both pipelines, interleaved: the machine's load changes
        # between the two timings above, not between these.
        from engine.pipeline import build_pipeline

        profile = project.adaptation.profile
        texts = [project.load_document(d) for d in report.detected]
        pipelines = {"plain": build_pipeline(ner=args.ner),
                     "profile": build_pipeline(ner=args.ner, profile=profile)}
        spent = dict.fromkeys(pipelines, 0.0)
        for doc in texts:
            for name, pipeline in pipelines.items():
                started = time.perf_counter()
                pipeline.run(doc)
                spent[name] += time.perf_counter() - started
        print(f"pipelines interleaved on those documents: plain "
              f"{spent['plain'] / max(n, 1) * 1000:.2f} ms, with the profile "
              f"{spent['profile'] / max(n, 1) * 1000:.2f} ms per document "
              f"({spent['profile'] / max(spent['plain'], 1e-9):.2f}x)")
        print(f"this process's peak RSS "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
        project.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
