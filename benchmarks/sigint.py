"""How fast a cancel stops one huge document, and that it leaves nothing (issue 17: SIGINT
during a 10 MB document stops within 3 s, no partial file, a re-run finishes it).

    python benchmarks/sigint.py [--size 10M] [--no-ner] [--delay 2] [--phases read,detect]
                                [--signal] [--rerun]

In-process: the document goes through ``run_files`` into a ``FolderSink`` (what ``clearnote
deid`` runs) with txt + json outputs; ``--delay`` seconds after a phase starts (read, detect,
surrogates, export), a timer cancels the run's token as the Ctrl-C handler does. The stop
latency is the time from the cancel to ``run_files`` returning (also in CPU seconds of
the process: on a busy machine a wall-clock second may hold little work); the phase the cancel
landed in is printed (a phase shorter than the delay passes it on to the next). Each case
checks that the output folder holds no de-identified file and no temp file.

``--signal``: the real thing, ``python -m engine.cli deid`` in a child process, SIGINT once
its progress shows detection; latency = signal to exit, exit code 130 expected. ``--rerun``
then runs the same command to the end and checks that it finishes the document.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scaling import make_text, parse_size  # noqa: E402

PHASES = ("read", "detect", "surrogates", "export")
LIMIT_S = 3.0  # issue 17


def leftovers(out: Path) -> list[str]:
    """Names of any de-identified or temp file in ``out`` (report.csv is expected)."""
    return sorted(p.name for p in out.iterdir() if p.name != "report.csv") if out.exists() \
        else []


class PhaseCanceller:
    """Cancels ``ctx`` ``delay`` seconds after ``phase`` starts; records when and where."""

    def __init__(self, ctx: Any, phase: str, delay: float) -> None:
        self.ctx, self.phase, self.delay = ctx, phase, delay
        self.current = "start"
        self.cancelled_at: float | None = None
        self.cancelled_cpu = 0.0
        self.landed: str | None = None
        self._timer: threading.Timer | None = None

    def enter(self, phase: str) -> None:
        self.current = phase
        if phase == self.phase and self._timer is None:
            self._timer = threading.Timer(self.delay, self._fire)
            self._timer.daemon = True
            self._timer.start()

    def _fire(self) -> None:
        self.landed = self.current
        self.cancelled_cpu = time.process_time()
        self.cancelled_at = time.perf_counter()
        self.ctx.cancel.cancel()

    def wrap(self, phase: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def entered(*args: Any, **kwargs: Any) -> Any:
            self.enter(phase)
            return fn(*args, **kwargs)
        return entered

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()


def in_process(src: Path, phases: list[str], delay: float, no_ner: bool) -> list[str]:
    import engine.runs.folder as export_module
    from engine.api import FolderSink, Session, SessionConfig, SessionServices, run_files
    from engine.core.context import RunContext
    from engine.core.domain import Document
    from engine.pipeline import PipelineConfig

    session = Session(SessionConfig(pipeline=PipelineConfig(ner=False if no_ner else "auto")))
    session.process(Document.from_text(make_text(3000, "single")))  # warm-up: models load
    originals = {"load_document": SessionServices().loader,
                 "write_outputs": export_module.write_outputs}
    detect, deidentify = session.detect, session.deidentify
    failures = []
    for phase in phases:
        ctx = RunContext()
        canceller = PhaseCanceller(ctx, phase, delay)
        services = SessionServices(loader=canceller.wrap("read", originals["load_document"]))
        export_module.write_outputs = canceller.wrap("export", originals["write_outputs"])
        session.detect = canceller.wrap("detect", detect)  # type: ignore[method-assign]
        session.deidentify = canceller.wrap("surrogates",  # type: ignore[method-assign]
                                            deidentify)
        with tempfile.TemporaryDirectory(prefix="clearnote-sigint-") as tmp:
            out = Path(tmp) / "out"
            started = time.perf_counter()
            sink = FolderSink(session, formats=("txt", "json"),
                              key_file=Path(tmp) / "key.csv", services=services)
            report = run_files([src], out, sink, workers=1, ctx=ctx)
            ended, ended_cpu = time.perf_counter(), time.process_time()
            canceller.stop()
            left = leftovers(out)
        status = report.outcomes[0].status if report.outcomes else "?"
        if canceller.cancelled_at is None:
            print(f"{phase:<11} finished in {ended - started:.1f} s before the cancel "
                  f"({delay} s into the phase) fired: status {status}")
            continue
        latency = ended - canceller.cancelled_at
        ok = latency <= LIMIT_S and status == "not run" and not left
        print(f"{phase:<11} cancel landed in {canceller.landed:<11} stop latency "
              f"{latency:6.2f} s ({ended_cpu - canceller.cancelled_cpu:.2f} CPU s)"
              f"  status {status!r}  leftover files {left or 'none'}"
              f"  {'ok' if ok else 'FAIL'}", flush=True)
        if not ok:
            failures.append(phase)
    export_module.write_outputs = originals["write_outputs"]
    return failures


def _cpu_of(pid: int) -> float:
    """CPU seconds a running process has used (Linux /proc; fields 14 and 15 of stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def by_signal(src: Path, no_ner: bool, rerun: bool, tmp: Path) -> list[str]:
    out = tmp / "out-signal"
    args = [sys.executable, "-m", "engine.cli", "deid", str(src), "--output-dir", str(out),
            "--formats", "txt", "json", "--key-file", str(tmp / "key.csv")]
    if no_ner:
        args.append("--no-ner")
    log = tmp / "stderr.txt"
    with log.open("w") as err:
        child = subprocess.Popen(args, cwd=ROOT, stderr=err, stdout=subprocess.DEVNULL)
        while "detect:" not in log.read_text() and child.poll() is None:
            time.sleep(0.1)
        time.sleep(1.0)  # well inside detection
        cpu_before = _cpu_of(child.pid)
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        _, status, usage = os.wait4(child.pid, 0)
        latency = time.perf_counter() - sent
        code = os.waitstatus_to_exitcode(status)
        child.returncode = code
        stop_cpu = usage.ru_utime + usage.ru_stime - cpu_before
    text = log.read_text()
    left = leftovers(out)
    ok = code == 130 and latency <= LIMIT_S and not left and "Traceback" not in text
    print(f"SIGINT      during detection: exit {code} after {latency:.2f} s ({stop_cpu:.2f} CPU s"
          f" from the signal to the exit), leftover files {left or 'none'}"
          f"  {'ok' if ok else 'FAIL'}", flush=True)
    failures = [] if ok else ["signal"]
    if rerun:
        started = time.perf_counter()
        done = subprocess.run([*args, "--no-progress"], cwd=ROOT, capture_output=True,
                              text=True, check=False)
        outputs = sorted(p.name.split(".", 1)[1] for p in out.iterdir()
                         if not p.name.startswith("report"))
        ok = done.returncode == 0 and outputs == ["deid.txt", "json"]
        print(f"re-run      exit {done.returncode} after {time.perf_counter() - started:.0f} s,"
              f" outputs {outputs}  {'ok' if ok else 'FAIL'}", flush=True)
        if not ok:
            failures.append("rerun")
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="10M")
    parser.add_argument("--no-ner", action="store_true", help="rules and dictionaries only")
    parser.add_argument("--delay", type=float, default=2.0,
                        help="seconds into a phase before the cancel")
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--signal", action="store_true", help="also SIGINT a CLI child")
    parser.add_argument("--rerun", action="store_true", help="after --signal, finish the run")
    args = parser.parse_args()
    phases = [p for p in args.phases.split(",") if p]
    unknown = set(phases) - set(PHASES)
    if unknown:
        raise SystemExit(f"unknown phase(s): {', '.join(sorted(unknown))}")
    with tempfile.TemporaryDirectory(prefix="clearnote-sigint-") as tmp:
        src = Path(tmp) / "extract.txt"
        src.write_text(make_text(parse_size(args.size), "single"), encoding="utf-8")
        print(f"{src.stat().st_size / 1e6:.1f} MB single line; pipeline "
              f"{'rules + dictionaries' if args.no_ner else 'default (NER if installed)'}; "
              f"cancel {args.delay} s into each phase; limit {LIMIT_S} s")
        failures = in_process(src, phases, args.delay, args.no_ner) if phases else []
        if args.signal:
            failures += by_signal(src, args.no_ner, args.rerun, Path(tmp))
    if failures:
        raise SystemExit(f"over the limit or unclean: {', '.join(failures)}")


if __name__ == "__main__":
    main()
