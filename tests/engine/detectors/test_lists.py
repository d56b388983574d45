"""The shipped lists are read a piece at a time (short C loops, so a desktop worker loading
them does not hold the GIL for a tenth of a second): the same entries as one pass."""

from __future__ import annotations

import re

import pytest

from engine.detectors.dictionary.lists import entries, pieces, sections

_COMMENT = re.compile(r"^#[^\n]*$", re.MULTILINE)


def _one_pass(raw: str) -> list[str]:
    return list(filter(None, map(str.strip, _COMMENT.sub("", raw).split("\n"))))


@pytest.mark.parametrize("raw", ["", "a", "a\n", "#x\nb\n\n c \n#y", "w\n" * 40000 + "#z\nlast",
                                 "x" * 70000 + "\ny\n# not an entry\n"])
def test_pieces_give_the_entries_of_one_pass(raw: str) -> None:
    assert "".join(pieces(raw, 5)) == raw and "".join(pieces(raw)) == raw
    assert all(p.endswith("\n") for p in list(pieces(raw, 5))[:-1])  # whole lines
    assert entries(raw) == _one_pass(raw)


def test_sections_read_the_same() -> None:
    raw = "# header\n[FIRST]\nanna\n" + "brian\n" * 30000 + "[LAST]\n# c\nkeller\n"
    assert [(n, len(e)) for n, e in sections(raw, "name list")] == [("FIRST", 30001),
                                                                   ("LAST", 1)]
