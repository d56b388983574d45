"""Issue 29 item 3: a redacted PDF is built a chunk of pages at a time, so the peak memory of
exporting a long PDF no longer grows with every edited page (before: 225 MB at 100 pages,
495 MB at 300; now about 140 and 165). Measured in a subprocess. Synthetic PHI only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import atexit, shutil, sys, tempfile
from pathlib import Path
from tests.fixtures_docs import letter_pages, planted_spans, write_text_pdf
from engine.exporters import write_redacted_pdf
from engine.ingest import load_document
tmp = Path(tempfile.mkdtemp())
atexit.register(shutil.rmtree, tmp, True)
pages = int(sys.argv[1])
pdf = write_text_pdf(tmp / "long.pdf", (letter_pages() * (pages // 2 + 1))[:pages],
                     extras=False)
doc = load_document(pdf)
write_redacted_pdf(pdf, doc, planted_spans(doc), tmp / "long.redacted.pdf")
# VmHWM, not ru_maxrss: Linux carries the forking parent's high-water mark across exec,
# so a child of a big pytest process would report the parent's size.
print("peak_mb", next(int(line.split()[1]) for line in open("/proc/self/status")
                      if line.startswith("VmHWM")) // 1024)
"""


def test_redacting_a_long_pdf_keeps_memory_flat() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, "160"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    peak = int(done.stdout.split("peak_mb")[1])
    assert peak < 260, peak  # every page kept in memory: 306 MB at 160 pages (146 now)
