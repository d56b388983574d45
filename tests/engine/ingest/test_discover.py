"""Discovery gives every input an answer: links, FIFOs and twice-reached files are listed
with a reason (never silently dropped, never opened)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.core.errors import UsageError
from engine.ingest.discover import discover_inputs


def _folder(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("one", encoding="utf-8")
    (src / "b.txt").write_text("two", encoding="utf-8")
    (src / "notes.xml").write_text("not read", encoding="utf-8")
    (src / ".hidden.txt").write_text("hidden", encoding="utf-8")
    os.symlink("loop.txt", src / "loop.txt")
    os.symlink("nowhere.txt", src / "dangling.txt")
    os.mkfifo(src / "pipe.txt")
    os.symlink("a.txt", src / "alias.txt")
    os.symlink(".", src / "self")
    return src


def test_folder_lists_every_problem_with_a_reason(tmp_path: Path) -> None:
    src = _folder(tmp_path)
    found = discover_inputs([src])  # returns at once: the FIFO is never opened
    assert [p.name for p in found.files] == ["a.txt", "b.txt"]
    reasons = {p.name: r for p, r in ((s.path, s.reason) for s in found.skipped)}
    assert reasons["loop.txt"] == "symbolic link loop"
    assert "dangling" in reasons["dangling.txt"]
    assert "FIFO" in reasons["pipe.txt"]
    assert reasons["alias.txt"] == "same file as a.txt"
    assert "loop" in reasons["self"]
    assert all(str(tmp_path) not in s.reason for s in found.skipped)


def test_named_inputs(tmp_path: Path) -> None:
    src = _folder(tmp_path)
    found = discover_inputs([src / "loop.txt", src / "pipe.txt", src / "a.txt",
                             src / "a.txt"])
    assert [p.name for p in found.files] == ["a.txt"]
    assert [s.path.name for s in found.skipped] == ["loop.txt", "pipe.txt"]
    with pytest.raises(UsageError) as exc:
        discover_inputs([tmp_path / "typo" / "letter_of_jane_doe.txt"])
    assert "typo" not in str(exc.value)  # the short name only, not the folders
