"""Acceptance: a batch of 300 documents killed with SIGKILL at random moments, then
resumed, ends with exactly one output per input, no temp files, and an intact database;
only the parent is killed, and none of its worker processes survives it by 10 s."""

from __future__ import annotations

import contextlib
import csv
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.engine.store.fakes import letter
from tests.integration.processes import descendants

ROOT = Path(__file__).resolve().parents[2]
N_DOCS = 300


def _start(project: Path, in_dir: Path, out_dir: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(ROOT / "tests/integration/batch_runner.py"), str(project),
         str(in_dir), str(out_dir), "2"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True)  # its own group, to clean up after a failed test


def _exported(project: Path) -> int:
    if not project.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{project}?mode=ro", uri=True, timeout=5)
        try:
            n = conn.execute("SELECT count(*) FROM documents WHERE status='exported'"
                             ).fetchone()
        finally:
            conn.close()
    except sqlite3.OperationalError:  # the file is being created
        return 0
    return int(n[0])


ORPHAN_SECONDS = 10.0


def _descendants(pid: int) -> set[int]:
    return set(descendants(pid))


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited


def _assert_no_orphans(pids: set[int]) -> None:
    deadline = time.monotonic() + ORPHAN_SECONDS
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.2)
    survivors = sorted(p for p in pids if _alive(p))
    assert not survivors, f"ClearNote processes alive {ORPHAN_SECONDS:.0f}s after the kill"


def test_batch_survives_sigkill_and_resumes(tmp_path: Path) -> None:
    in_dir, out_dir = tmp_path / "in", tmp_path / "out"
    in_dir.mkdir()
    for i in range(N_DOCS):
        (in_dir / f"patient_{i:03d}.txt").write_text(letter(i).text(i), encoding="utf-8")
    project = tmp_path / "batch.clearnote"
    rng = random.Random(5)
    # One kill while starting up (project creation, worker spawn), then kills at random
    # points in the run, chosen by progress so a busy machine cannot make them miss.
    targets = [None, rng.randint(10, 90), rng.randint(100, 190), rng.randint(200, 280)]
    kills = 0
    progress: list[int] = []
    for target in targets:
        proc = _start(project, in_dir, out_dir)
        if target is None:
            time.sleep(rng.uniform(0.2, 1.5))
        else:
            deadline = time.monotonic() + 120
            while proc.poll() is None and _exported(project) < target \
                    and time.monotonic() < deadline:
                time.sleep(rng.uniform(0.01, 0.08))
        if proc.poll() is None:
            workers = _descendants(proc.pid)
            os.kill(proc.pid, signal.SIGKILL)  # the parent only: its workers must follow
            kills += 1
            proc.wait()
            try:
                _assert_no_orphans(workers | _descendants(proc.pid))
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)  # never leak them into other tests
        proc.wait()
        progress.append(_exported(project))
    # The kills landed mid-batch, not before the first or after the last document.
    assert sum(0 < n < N_DOCS for n in progress) >= 2, progress
    proc = _start(project, in_dir, out_dir)
    output, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, output.decode(errors="replace")[-2000:]
    assert kills >= 3, progress

    texts = sorted(out_dir.glob("*.deid.txt"))
    sidecars = sorted(out_dir.glob("*.json"))
    assert len(texts) == N_DOCS and len(sidecars) == N_DOCS
    hidden = [p.name for p in out_dir.iterdir() if p.name.startswith(".")]
    assert not hidden, hidden
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".cn-tmp-")]
    with open(out_dir / "report.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == N_DOCS
    assert {r["status"] for r in rows} == {"exported"}
    assert "source" not in rows[0]  # the key stays in the project
    named = {name for r in rows for name in r["outputs"].split(";")}
    assert named == {p.name for p in texts} | {p.name for p in sidecars}
    with sqlite3.connect(project) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM documents WHERE status='exported'"
                            ).fetchone()[0] == N_DOCS
    conn.close()
    sample = texts[0].read_text(encoding="utf-8")
    assert "Patient:" in sample
