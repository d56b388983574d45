"""Reading the shipped word lists and tables fast: they are read at every start.

The loops run in C (``split``, ``map``, one ``re.sub`` for the comments), not per line in
Python: the English list alone has 210,000 lines, and a line-by-line loop over the lists
was a third of a second of every ``clearnote detect``. They run a piece of about 64 KB at a
time: a C loop holds the GIL until it ends, and one over the whole English list kept the
desktop's event loop waiting a tenth of a second while a worker loaded the detectors.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.core.errors import ConfigError

_COMMENT_LINE = re.compile(r"^#[^\n]*$", re.MULTILINE)
_SECTION = re.compile(r"^\[([^\]\n]*)\][ \t]*$", re.MULTILINE)
PIECE = 1 << 16  # characters per C loop: about a millisecond each


def pieces(raw: str, size: int = PIECE) -> Iterator[str]:
    """``raw`` in whole lines of about ``size`` characters."""
    start = 0
    while start < len(raw):
        end = raw.find("\n", start + size)
        end = len(raw) if end < 0 else end + 1
        yield raw[start:end]
        start = end


def entries(raw: str) -> list[str]:
    """The entries of a list: its lines, stripped, without blank and '#' comment lines."""
    found: list[str] = []
    for piece in pieces(raw):  # the GIL can change hands between pieces
        found += filter(None, map(str.strip, _COMMENT_LINE.sub("", piece).split("\n")))
    return found


def sections(raw: str, what: str) -> list[tuple[str, list[str]]]:
    """(name, entries) of each '[NAME]' section; an entry before the first one is an error
    (``what`` names the list in the message)."""
    parts = _SECTION.split(raw)
    if entries(parts[0]):
        raise ConfigError(f"the {what} has an entry outside any section")
    return [(name, entries(body)) for name, body in zip(parts[1::2], parts[2::2], strict=True)]
