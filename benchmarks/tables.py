"""Tables: rows/s and peak memory of a CSV extract through `clearnote deid` (issue 28: a
table streams, memory bounded and time linear in rows).

    python benchmarks/tables.py [--rows 2000 20000] [--ner off|auto] [--note-every 1]

Each size runs in a fresh interpreter: a synthetic extract of 10 columns (MRN, name, DOB,
visit date, ZIP, phone, two clinical columns, a visit number and a short note naming the
patient; ``--note-every K`` leaves the note empty on all but every K-th row) goes through
``run_files`` into a ``FolderSink`` (what `clearnote deid FILE.csv --output-dir` runs).
Printed per size: rows, seconds, rows/s, and the process's peak RSS before and after the
table (VmHWM, else ``ru_maxrss``). ``--sink project`` runs `clearnote batch`'s sink instead.

Figures (2 shared cores, load 3-5, rules only, a short note on every row, 4 rows per
patient, folder sink):

         rows     seconds   rows/s   peak RSS
       10,000        23.8      421     127 MB
       30,000        48.8      614     140 MB
      100,000       195.5      511     177 MB
      300,000       455.9      658     254 MB
    1,000,000     1,554.7      643     487 MB   (137.5 MB of CSV; a later stop, load 2-4)
       20,000 (project sink)  45.6   439     141 MB

Time is linear in rows (rows/s does not fall with size). Memory is bounded by distinct
patients, not by rows: the table streams; what grows is the run's surrogate map and patient
linker, about 1.5 KB per patient here (the 300,000-row run has 75,000 patients; the
1,000,000-row run, 250,000 patients, peaked at 487 MB, under the 1.5 GB bound).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import csv, json, random, resource, sys, tempfile, time
from datetime import date, timedelta
from pathlib import Path
sys.path.insert(0, sys.argv[1])
rows, ner, every, sink = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
from engine.api import (FolderSink, PipelineConfig, Project, ProjectSink, Session,
                        SessionConfig, run_files)
from tests.engine.tables.extract import FIRST, LAST, ZIPS

def hwm():  # this process's own peak (ru_maxrss carries a forking parent's across exec)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

rng = random.Random(28)
with tempfile.TemporaryDirectory() as tmp:
    src = Path(tmp) / "extract.csv"
    with src.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["mrn", "patient_name", "dob", "visit_date", "zip", "phone",
                         "hba1c", "icd10", "visit", "note"])
        for i in range(rows):
            first, last = rng.choice(FIRST), rng.choice(LAST)
            mrn = str(1000000 + i // 4)
            seen = date(2020, 1, 1) + timedelta(days=rng.randint(0, 1800))
            note = (f"Plan reviewed with {first}; seen {seen.isoformat()}, stable."
                    if i % every == 0 else "")
            writer.writerow([mrn, f"{first} {last}", "1961-03-14", seen.isoformat(),
                             rng.choice(ZIPS), f"617-555-{i % 10000:04d}",
                             f"{rng.uniform(5, 11):.1f}", "E11.9", str(i % 4 + 1), note])
    config = PipelineConfig(policy="hipaa", ner=False if ner == "off" else "auto")
    session = Session(SessionConfig(pipeline=config))
    session.detect(__import__("engine.api", fromlist=["Document"]).Document.from_text("x"))
    before = hwm()
    started = time.perf_counter()
    if sink == "project":
        project = Project.create(Path(tmp) / "p.clearnote", pipeline=config)
        chosen = ProjectSink(project)
    else:
        chosen = FolderSink(session, key_file=Path(tmp) / "k.csv")
    report = run_files([src], Path(tmp) / "out", chosen, workers=1)
    seconds = time.perf_counter() - started
    assert report.ok, report.summary()
    peak = hwm()
    print(json.dumps({"rows": rows, "seconds": seconds, "rss_before_mb": before,
                      "peak_rss_mb": peak, "mb": src.stat().st_size / 1e6}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--ner", choices=["off", "auto"], default="off")
    parser.add_argument("--note-every", type=int, default=1)
    parser.add_argument("--sink", choices=["folder", "project"], default="folder",
                        help="clearnote deid (folder) or clearnote batch (project)")
    args = parser.parse_args()
    print(f"ner {args.ner}, a note on every {args.note_every} row(s), {args.sink} sink")
    print(f"{'rows':>9} {'MB':>7} {'seconds':>9} {'rows/s':>9} {'RSS before':>11} "
          f"{'peak RSS':>9}")
    for rows in args.rows:
        out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(rows), args.ner,
                              str(args.note_every), args.sink], capture_output=True, text=True,
                             check=True, cwd=ROOT)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{r['rows']:>9} {r['mb']:>7.1f} {r['seconds']:>9.1f} "
              f"{r['rows'] / r['seconds']:>9.0f} {r['rss_before_mb']:>9.0f} MB "
              f"{r['peak_rss_mb']:>6.0f} MB")


if __name__ == "__main__":
    main()
