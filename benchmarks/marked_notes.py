"""Gold ICU notes from an author's marked text (how benchmarks/data/icu_notes_*.jsonl are made).

An author who never saw the code writes notes from ``benchmarks/icu_notes_prompt.md`` (its
``__THEME__`` and ``__OUT__`` filled in), PHI marked inline as ``⟦LABEL|text⟧``, notes separated by
a line ``=====`` and each opened by ``casing: mixed|upper|lower``. This turns such a file into
the JSONL the benchmarks score: the marks removed, gold offsets kept, ids ``icuN-NNN`` and
``meta.style = icu_setN``. Problems (an unknown label, a mark with blanks at its edges, a stray
bracket) are reported, never silently fixed.

    python benchmarks/marked_notes.py NOTES.txt SET_NUMBER OUT.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core.labels import Label  # noqa: E402

_MARK = re.compile(r"⟦([A-Z]+)\|([^⟦⟧]*?)⟧")
_SEPARATOR = re.compile(r"^=====\s*$", re.MULTILINE)
_CASING = re.compile(r"\s*casing:\s*(mixed|upper|lower)\s*")
_LABELS = frozenset(label.value for label in Label)


def unmark(block: str) -> tuple[str, list[dict[str, Any]], list[str]]:
    """(text, gold spans, problems) of one marked note."""
    pieces: list[str] = []
    spans: list[dict[str, Any]] = []
    problems: list[str] = []
    at = length = 0
    for mark in _MARK.finditer(block):
        pieces.append(block[at:mark.start()])
        length += mark.start() - at
        label, value = mark.groups()
        core = value.strip()
        if label not in _LABELS or not core:
            problems.append(f"unusable mark {mark.group()!r}")
        elif core != value:
            problems.append(f"blanks inside the mark {mark.group()!r}")
        if label in _LABELS and core:
            start = length + value.index(core)
            spans.append({"start": start, "end": start + len(core), "label": label})
        pieces.append(value)
        length += len(value)
        at = mark.end()
    pieces.append(block[at:])
    text = "".join(pieces)
    if "⟦" in text or "⟧" in text:
        problems.append("a bracket without its mark")
    return text, spans, problems


def convert(raw: str, number: int) -> tuple[list[dict[str, Any]], list[str]]:
    """Every note of an author's file as a gold record, and the problems found."""
    records: list[dict[str, Any]] = []
    problems: list[str] = []
    blocks = [b.strip("\n") for b in _SEPARATOR.split(raw) if b.strip()]
    for index, block in enumerate(blocks, start=1):
        first, _, body = block.partition("\n")
        casing = _CASING.fullmatch(first)
        text, spans, found = unmark(body if casing else block)
        lead = len(text) - len(text.lstrip("\n"))
        text = text.strip("\n")
        for span in spans:
            span["start"] -= lead
            span["end"] -= lead
        note_id = f"icu{number}-{index:03d}"
        problems += [f"{note_id}: {p}" for p in found]
        records.append({"id": note_id, "text": text, "spans": spans,
                        "meta": {"style": f"icu_set{number}",
                                 "casing": casing.group(1) if casing else "mixed"}})
    return records, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("notes", type=Path)
    parser.add_argument("number", type=int)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    records, problems = convert(args.notes.read_text(encoding="utf-8"), args.number)
    for problem in problems:
        print(problem, file=sys.stderr)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                        encoding="utf-8")
    print(f"{len(records)} notes, {sum(len(r['spans']) for r in records)} spans, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
