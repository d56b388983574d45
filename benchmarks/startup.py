"""Cold start: every figure from fresh interpreters (nothing cached in memory between runs).

    python benchmarks/startup.py [--runs 5] [--no-desktop]

Prints medians over ``--runs`` fresh processes of
- ``import engine.api`` (the façade every front end imports first);
- pipeline build and first document, rules only (``PipelineConfig(ner=False)``) and default
  (NER on when the shipped model is installed), so work moved from the build into first
  use still shows;
- the whole-process wall time of ``clearnote detect`` on one ~1,500-character note, rules
  only (``--no-ner``) and default: what a user or a coordinator's script waits for;
- the desktop: seconds from process start until the main window is shown (offscreen), and
  until the first highlights of a 10-page text PDF (create a project, import, detect, open
  the document: the spans the review view paints).

Issue 16 targets (idle machine): detect on one note <= 1.0 s, window shown <= 1.5 s, first
highlights of a 10-page PDF <= 2 s. On a busy machine compare runs, not absolute figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _notes import make_notes  # noqa: E402

IMPORT_API = """
import json, time
t0 = time.perf_counter()
import engine.api
print(json.dumps({"import engine.api": time.perf_counter() - t0}))
"""

# prints {"build": s, "first_doc": s}
BUILD = """
import json, sys, time
t0 = time.perf_counter()
from engine.core.domain import Document
from engine.pipeline import PipelineConfig, build_pipeline
pipeline = build_pipeline(PipelineConfig(**{config}))
t1 = time.perf_counter()
pipeline.run(Document(text="Seen by Dr. Mara Quinn at Lakeside Clinic, Toronto, on 3 March "
                           "2021. Call 416-555-0142."))
t2 = time.perf_counter()
print(json.dumps({{"build": t1 - t0, "first_doc": t2 - t1}}))
"""

CONFIGS = {"rules only (ner=False)": "{'ner': False}", "default": "{}"}

# The desktop child: ``started`` is the parent's time.time() just before the spawn, so the
# interpreter's own start-up counts. Prints {"shown": s, "first_highlights": s, "spans": n}.
DESKTOP = """
import atexit, json, os, shutil, sys, tempfile, time
from pathlib import Path
started = float(sys.argv[1]); pdf = Path(sys.argv[2]) if len(sys.argv) > 2 else None
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QEventLoop, QSettings, QTimer
from desktop.app import make_app
from desktop.settings import UserSettings
from desktop.views.main_window import MainWindow
app = make_app()
work = Path(tempfile.mkdtemp(prefix="clearnote-startup-"))
atexit.register(shutil.rmtree, work, True)
user = UserSettings(QSettings(str(work / "user.ini"), QSettings.Format.IniFormat))
window = MainWindow(user=user)
window.show()
def run_until(cond, timeout_s=300.0):
    loop = QEventLoop(); poll = QTimer(); poll.setInterval(5)
    poll.timeout.connect(lambda: loop.quit() if cond() else None); poll.start()
    QTimer.singleShot(int(timeout_s * 1000), loop.quit); loop.exec(); poll.stop()
    if not cond():
        raise TimeoutError("startup benchmark step timed out")
run_until(lambda: window.isVisible() and window.windowHandle() is not None
          and window.windowHandle().isExposed())
out = {"shown": time.time() - started}
if pdf is not None:
    c = window.controller
    loaded = []
    c.documentLoaded.connect(loaded.append)
    c.create_project(work / "startup.clearnote", policy="strict")
    run_until(lambda: c.is_open)
    window.import_paths([pdf])
    def detected():
        return [e.record.id for e in window.documents.model.entries()
                if e.record.status.value in ("detected", "reviewed", "exported")]
    run_until(lambda: bool(detected()) and not c.runner.busy)
    c.load_document(detected()[0])
    run_until(lambda: bool(loaded))
    out["first_highlights"] = time.time() - started
    out["spans"] = len(loaded[0].spans)
window.close()
print(json.dumps(out))
"""


def _child(code: str, *args: str, cwd: Path = ROOT) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    out = subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True,
                         text=True, cwd=cwd, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def _medians(samples: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def detect_wall(note: Path, out: Path, extra: list[str], runs: int, cwd: Path = ROOT) -> float:
    """Median wall seconds of a fresh ``python -m engine.cli detect`` on ``note``."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "engine.cli", "detect", "--input", str(note),
                        "--output", str(out), "--no-progress", *extra], check=True, cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def ten_page_pdf(folder: Path) -> Path:
    from tests.fixtures_docs import letter_pages, write_text_pdf

    pages = (letter_pages() * 5)[:10]
    return write_text_pdf(folder / "ten-pages.pdf", pages, extras=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-desktop", action="store_true", help="skip the desktop figures")
    args = ap.parse_args()
    runs = args.runs

    api = _medians([_child(IMPORT_API) for _ in range(runs)])
    print(f"import engine.api          {api['import engine.api']:.3f} s")
    for name, config in CONFIGS.items():
        result = _medians([_child(BUILD.format(config=config)) for _ in range(runs)])
        print(f"{name:26s} build {result['build']:.3f} s   first document "
              f"{result['first_doc']:.3f} s")

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        note = tmp / "note.jsonl"
        note.write_text(json.dumps({"id": "n1", "text": make_notes(1)[0]}) + "\n",
                        encoding="utf-8")
        for name, extra in (("rules only (--no-ner)", ["--no-ner"]), ("default", [])):
            wall = detect_wall(note, tmp / "out.jsonl", extra, runs)
            print(f"clearnote detect, 1 note, {name:22s} {wall:.3f} s wall (target <= 1.0)")
        if not args.no_desktop:
            shown = _medians([_child(DESKTOP, str(time.time())) for _ in range(runs)])
            print(f"desktop window shown       {shown['shown']:.3f} s (target <= 1.5)")
            pdf = ten_page_pdf(tmp)
            first = _medians([_child(DESKTOP, str(time.time()), str(pdf)) for _ in range(runs)])
            print(f"desktop first highlights, 10-page text PDF: {first['first_highlights']:.3f} s "
                  f"({first['spans']:.0f} spans; target <= 2.0)")
    print(f"(medians of {runs} fresh processes each)")


if __name__ == "__main__":
    main()
