"""Desktop responsiveness: the longest the Qt event loop goes without running while the
window loads the detectors and then imports and detects a batch of synthetic notes.

    QT_QPA_PLATFORM=offscreen python benchmarks/desktop_responsiveness.py [--docs 50]

A 10 ms QTimer heartbeat records when the event loop gets to run; the gaps between beats are
how long a user's click would wait. Prints the worst gap while the detectors load (a worker
thread, but compiling regexes and reading gazetteers holds the GIL in stretches no Python
thread can interrupt) and during the batch, and how many gaps exceeded 100 ms. For the
worst batch gap it also says how much CPU the GUI thread and the whole process got in it:
GUI-thread work shows as GUI CPU; a worker holding the GIL as process CPU with none on the
GUI thread; a machine too busy to run us (other jobs on few cores) as little of either.
Figures, not a test: tests/desktop/test_responsiveness.py asserts that the work stays off
the GUI thread.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _notes import short_letter  # noqa: E402

SLOW_GAP_S = 0.100


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=50)
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QEventLoop, QSettings, QTimer

    from desktop.app import make_app
    from desktop.controllers.project_controller import ProjectController
    from desktop.settings import UserSettings
    from desktop.views.main_window import MainWindow
    from engine.api import PipelineConfig

    make_app()
    work = Path(tempfile.mkdtemp(prefix="clearnote-responsiveness-"))
    atexit.register(shutil.rmtree, work, True)
    ticks: list[float] = []
    cpu: list[tuple[float, float]] = []  # (GUI thread, process) CPU seconds at each beat

    def beat() -> None:
        ticks.append(time.perf_counter())
        cpu.append((time.thread_time(), time.process_time()))

    heartbeat = QTimer()
    heartbeat.setInterval(10)
    heartbeat.timeout.connect(beat)

    def run_until(cond: Callable[[], bool], timeout_s: float = 600.0) -> None:
        """Run the real event loop (not processEvents in a sleep loop) until ``cond``."""
        loop = QEventLoop()
        poll = QTimer()
        poll.setInterval(20)
        poll.timeout.connect(lambda: loop.quit() if cond() else None)
        poll.start()
        QTimer.singleShot(int(timeout_s * 1000), loop.quit)
        loop.exec()
        poll.stop()
        if not cond():
            raise TimeoutError("benchmark step timed out")

    def worst_gap(start: int) -> tuple[float, int]:
        gaps = [b - a for a, b in pairwise(ticks[start:])]
        return max(gaps, default=0.0), sum(g > SLOW_GAP_S for g in gaps)

    def cpu_in_worst_gap(start: int) -> tuple[float, float]:
        gaps = [(ticks[i + 1] - ticks[i], i) for i in range(start, len(ticks) - 1)]
        if not gaps:
            return 0.0, 0.0
        _gap, i = max(gaps)
        return cpu[i + 1][0] - cpu[i][0], cpu[i + 1][1] - cpu[i][1]

    user = UserSettings(QSettings(str(work / "user.ini"), QSettings.Format.IniFormat))
    controller = ProjectController(threads=2)
    window = MainWindow(controller, user=user)
    ready: list[object] = []
    controller.detectorsReady.connect(ready.append)
    window.show()
    heartbeat.start()
    controller.create_project(work / "bench.clearnote", policy="strict",
                              pipeline=PipelineConfig(policy="strict", ner=False))
    run_until(lambda: controller.is_open and bool(ready))
    load_gap, load_slow = worst_gap(0)

    folder = work / "batch"
    folder.mkdir()
    for i in range(args.docs):
        (folder / f"note{i:03d}.txt").write_text(short_letter(i), encoding="utf-8")
    first_batch_tick = len(ticks)
    started = time.perf_counter()
    window.import_paths([folder])

    def detected() -> int:
        return sum(1 for e in window.documents.model.entries()
                   if e.record.status.value in ("detected", "reviewed", "exported"))

    run_until(lambda: detected() == args.docs and not controller.runner.busy)
    elapsed = time.perf_counter() - started
    heartbeat.stop()
    batch_gap, batch_slow = worst_gap(first_batch_tick)
    print(f"loading detectors: worst event-loop gap {load_gap * 1000:.0f} ms "
          f"({load_slow} gaps > {SLOW_GAP_S * 1000:.0f} ms)")
    print(f"batch of {args.docs} notes in {elapsed:.1f} s: worst event-loop gap "
          f"{batch_gap * 1000:.0f} ms ({batch_slow} gaps > {SLOW_GAP_S * 1000:.0f} ms, "
          f"{len(ticks) - first_batch_tick} heartbeats)")
    gui_cpu, process_cpu = cpu_in_worst_gap(first_batch_tick)
    print(f"in the worst batch gap the GUI thread ran {gui_cpu * 1000:.0f} ms, the process "
          f"{process_cpu * 1000:.0f} ms")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
