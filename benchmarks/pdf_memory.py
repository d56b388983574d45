"""Peak memory of `clearnote deid` on long text-layer PDFs (issue 29: the hostile tester saw
431 MB at 100 pages and 1.0 GB at 500). Each run is a fresh process; its peak RSS comes
from wait4. Prints figures; not a test.
Usage: python benchmarks/pdf_memory.py [pages ...]   (default: 100 500)"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures_docs import letter_pages, write_text_pdf  # noqa: E402


def peak_rss_mb(command: list[str]) -> tuple[float, float, int]:
    """(peak RSS in MB, seconds, exit code) of ``command`` run alone."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    started = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    scale = 1024 if sys.platform != "darwin" else 1024 * 1024  # kB on Linux, bytes on macOS
    return usage.ru_maxrss / scale, time.perf_counter() - started, proc.returncode


def main(counts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for pages in counts:
            spec = (letter_pages() * (pages // 2 + 1))[:pages]
            pdf = write_text_pdf(tmp / f"letter-{pages}.pdf", spec, extras=False)
            out = tmp / f"out-{pages}"
            for ner in ("--no-ner", None):
                command = [sys.executable, "-m", "engine.cli", "deid", str(pdf),
                           "--output-dir", str(out / (ner or "ner")), "--no-progress",
                           "--formats", "txt", "json", "pdf"]
                if ner:
                    command.append(ner)
                peak, seconds, code = peak_rss_mb(command)
                print(f"{pages:4d} pages ({'rules only' if ner else 'with NER'}): peak RSS "
                      f"{peak:6.0f} MB, {seconds:5.1f} s, exit {code}", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 500])
