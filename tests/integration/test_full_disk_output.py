"""Issue 29, items 4 and 5 for the output folder: on a full disk the summary and the list
of failures still reach the terminal (report.csv could not be written), each failure named
by its file relative to the input folder and in words, the exit status is non-zero, and no
partial file is left. The output folder is a full tmpfs, mounted in a private mount
namespace of the command's own (skipped where one cannot be made)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LETTER = ("Referral letter\nPatient: Maris Oakhollow\nDOB: 1961-03-14\nMRN: 4471290\n"
          "Seen on 2024-02-03 by Dr. Haldane. Call 780-555-0142.\n")
NO_NAMESPACE = 97


def _in_small_tmpfs(out: Path, *command: str) -> subprocess.CompletedProcess[str]:
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare here: cannot mount a small tmpfs for the test")
    script = (f'mount -t tmpfs -o size=16k tmpfs "$1" || exit {NO_NAMESPACE}; '
              'cat /dev/zero > "$1/filler" 2>/dev/null; shift; exec "$@"')  # full from the start
    run = subprocess.run([unshare, "-rm", "sh", "-c", script, "sh", str(out), *command],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    if run.returncode == NO_NAMESPACE or "unshare failed" in run.stderr:
        pytest.skip(f"cannot mount a tmpfs in a private namespace here: {run.stderr[-200:]}")
    return run


def _letters(tmp_path: Path) -> Path:
    src = tmp_path / "letters"
    (src / "2024").mkdir(parents=True)
    for i in range(6):
        folder = src / "2024" if i % 2 else src
        (folder / f"letter_{i}.txt").write_text(LETTER.replace("4471290", f"447129{i}"),
                                                encoding="utf-8")
    return src


def test_full_output_disk_still_prints_the_summary_and_failures(tmp_path: Path) -> None:
    src = _letters(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    run = _in_small_tmpfs(out, sys.executable, "-m", "engine.cli", "deid", str(src),
                          "--output-dir", str(out), "--no-ner", "--no-progress",
                          "--workers", "1", "--key-file", str(tmp_path / "key.csv"))
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    # The log keeps error types; what the person is told is in words.
    err = "\n".join(line for line in run.stderr.splitlines() if not line.startswith("WARNING "))
    assert "Error" not in err, err
    assert "6 input(s):" in err  # the summary
    failed = [line for line in err.splitlines() if line.startswith("  failed: ")]
    assert failed, err
    for line in failed:  # named relative to the input folder, with the problem in words
        assert line.endswith("cannot write the output (no space left on device)"), line
        assert str(tmp_path) not in line and "letters" not in line
    assert len(failed) == 6 and "  failed: 2024/letter_1.txt [" in err
    assert "not written: report.csv in the output folder (no space left on device)" in err, err
    assert f"The disk holding {out} is full: free space and run the same command again" \
        in err
    assert (tmp_path / "key.csv").is_file()  # the key, beside the inputs, links ids and files
    assert not list(out.iterdir())  # the mount is gone with its namespace: nothing leaked


def test_a_batch_into_a_full_output_folder_says_so_and_the_project_stays_sound(
        tmp_path: Path) -> None:
    src = _letters(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    project = tmp_path / "study.clearnote"
    run = _in_small_tmpfs(out, sys.executable, "-m", "engine.cli", "batch", str(src),
                          "--output-dir", str(out), "--project", str(project),
                          "--no-encryption", "--ner", "off", "--workers", "1")
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    err = run.stderr
    assert err.count("cannot write the output (no space left on device)") == 6, err
    assert "  failed: 2024/letter_3.txt [" in err
    assert "not written: report.csv in the output folder (no space left on device)" in err
    assert "is full: free space and run the same command again" in err
    # The re-run on a disk with room finishes every document.
    again = subprocess.run([sys.executable, "-m", "engine.cli", "batch", str(src),
                            "--output-dir", str(out), "--project", str(project),
                            "--workers", "1"], cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0, again.stderr
    assert "de-identified 6" in again.stderr
    assert len(list(out.glob("*.deid.txt"))) == 6 and (out / "report.csv").is_file()
