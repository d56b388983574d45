"""Nothing leaves the machine (issue 15, item 5): a real detect + deidentify run over many
notes, ONNX NER included, makes no network system call of any kind, native code included
(strace sees what a Python-level socket guard cannot: onnxruntime's own DNS lookups), and
writes nothing under ~/.cache/Microsoft (onnxruntime's telemetry queue)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
N_NOTES = 400

CHILD = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import engine  # sets ORT_DISABLE_TELEMETRY for this process and its children
from engine.api import Session, SessionConfig
from engine.core.domain import Document
from engine.pipeline import PipelineConfig
session = Session(SessionConfig(pipeline=PipelineConfig(ner=True)))  # the ONNX model required
for i in range({N_NOTES}):
    doc = Document.from_text(
        f"Patient Zebulon Quill{{i}} (MRN {{10000000 + i}}) was seen by Dr. Ellery Marlo "
        f"on 2024-03-{{i % 28 + 1:02d}} at Larkspur Clinic. He reports a cough; call "
        f"416-555-{{i % 10000:04d}}.")
    session.process(doc)
print("done", {N_NOTES})
"""


def _strace_works() -> bool:
    if shutil.which("strace") is None:
        return False
    probe = subprocess.run(["strace", "-f", "-qq", "-e", "trace=network", "-o", os.devnull,
                            "true"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _strace_works(), reason="strace cannot run here (install strace)")
def test_detect_run_makes_no_network_call_and_no_telemetry_files(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log = tmp_path / "trace.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ORT_")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), HF_HUB_OFFLINE="1")
    proc = subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=network", "-o", str(log),
         sys.executable, "-c", CHILD],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"done {N_NOTES}" in proc.stdout
    trace = log.read_text().splitlines()
    # Local user lookups (getpwuid -> the nscd socket, absent here) are not network; any
    # other socket family, and any other connect/send/bind target, is.
    calls = [line for line in trace
             if re.search(r"\b(socket|connect|sendto|sendmsg|bind)\(", line)
             and not re.search(r"socket\(AF_UNIX|sun_path=\"/var/run/nscd/socket\"", line)]
    assert calls == [], calls[:5]
    assert not any("AF_INET" in line or "AF_NETLINK" in line for line in trace)
    assert not (home / ".cache" / "Microsoft").exists()
    assert not list(home.rglob("*Microsoft*"))


def test_engine_import_switches_ort_telemetry_off_for_children() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ORT_")}
    out = subprocess.run(
        [sys.executable, "-c", "import engine, subprocess, sys; print(subprocess.run("
         "[sys.executable, '-c', 'import os; print(os.environ[\"ORT_DISABLE_TELEMETRY\"])'],"
         " capture_output=True, text=True).stdout.strip())"],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert out.stdout.strip() == "1"


def test_onnxruntime_is_handed_out_with_telemetry_disabled() -> None:
    from engine.runtimes import onnxruntime

    ort = onnxruntime()
    assert getattr(ort, "_clearnote_telemetry_off", False) is True
    assert onnxruntime() is ort
