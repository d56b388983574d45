"""Reading the shipped word lists and tables fast: they are read at every start.

The loops run in C (``split``, ``map``, one ``re.sub`` for the comments), not per line in
Python: the English list alone has 210,000 lines, and a line-by-line loop over the lists
was a third of a second of every ``clearnote detect``.
"""

from __future__ import annotations

import re

from engine.core.errors import ConfigError

_COMMENT_LINE = re.compile(r"^#[^\n]*$", re.MULTILINE)
_SECTION = re.compile(r"^\[([^\]\n]*)\][ \t]*$", re.MULTILINE)


def entries(raw: str) -> list[str]:
    """The entries of a list: its lines, stripped, without blank and '#' comment lines."""
    return list(filter(None, map(str.strip, _COMMENT_LINE.sub("", raw).split("\n"))))


def sections(raw: str, what: str) -> list[tuple[str, list[str]]]:
    """(name, entries) of each '[NAME]' section; an entry before the first one is an error
    (``what`` names the list in the message)."""
    parts = _SECTION.split(raw)
    if entries(parts[0]):
        raise ConfigError(f"the {what} has an entry outside any section")
    return [(name, entries(body)) for name, body in zip(parts[1::2], parts[2::2], strict=True)]
