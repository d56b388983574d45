"""Per-project user dictionaries: institution names, clinic abbreviations, staff lists."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from pathlib import Path

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.errors import InputError
from engine.core.labels import Label, map_label
from engine.detectors.base import DetectorSpec


def _phrase_pattern(phrase: str) -> str:
    # Whitespace inside an entry matches any run of whitespace (line breaks in PDFs).
    return r"\s+".join(re.escape(part) for part in phrase.split())


class UserDictionaryDetector:
    """Every case-insensitive, whole-word occurrence of each entry."""

    def __init__(self, entries: Iterable[tuple[str, Label]], *,
                 name: str = "dictionary.user", version: int = 1) -> None:
        by_key: dict[str, Label] = {}
        for phrase, label in entries:
            phrase = " ".join(phrase.split())
            if phrase:
                by_key.setdefault(phrase.casefold(), Label(label))
        self.labels = by_key
        self.spec = DetectorSpec(id=name, version=version, source=Source.DICTIONARY,
                                 description=f"{len(by_key)} user entries")
        # Longest first so "St. Mary's Hospital" wins over "St. Mary's".
        ordered = sorted(by_key, key=len, reverse=True)
        self._regex = (re.compile(r"(?<!\w)(?:" + "|".join(_phrase_pattern(p) for p in ordered)
                                  + r")(?!\w)", re.IGNORECASE) if ordered else None)

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        ctx.check()
        if self._regex is None:
            return []
        spans = []
        for match in self._regex.finditer(doc.text):
            label = self.labels.get(" ".join(match.group().split()).casefold())
            if label is None:  # case folding changed the length; fall back to a scan
                label = next(lab for key, lab in self.labels.items()
                             if re.fullmatch(_phrase_pattern(key), match.group(), re.I))
            spans.append(Span(match.start(), match.end(), label, source=Source.DICTIONARY,
                              detector=self.spec.qualified, confidence=0.9))
        return spans


def load_user_dictionary(path: str | Path) -> list[tuple[str, Label]]:
    """Read ``term,label`` rows from a CSV or TSV file (header optional, '#' comments).

    Labels may be ClearNote labels or any known schema's (HOSPITAL, DOCTOR, ORGANIZATION...).
    Errors name the file and line, never the term.
    """
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(path, f"cannot read user dictionary ({type(exc).__name__})") from exc
    except UnicodeDecodeError as exc:
        raise InputError(path, "user dictionary is not UTF-8 text") from exc
    delimiter = "\t" if path.suffix.lower() in (".tsv", ".tab") or "\t" in raw[:4096] else ","
    entries: list[tuple[str, Label]] = []
    for lineno, row in enumerate(csv.reader(raw.splitlines(), delimiter=delimiter), start=1):
        if not row or not row[0].strip() or row[0].lstrip().startswith("#"):
            continue
        if len(row) < 2:
            raise InputError(path, f"line {lineno}: expected two columns (term, label)")
        term, raw_label = row[0].strip(), row[1].strip().upper()
        if lineno == 1 and term.casefold() in ("term", "text", "entry", "name") \
                and raw_label in ("LABEL", "TYPE", "CATEGORY"):
            continue
        try:
            label = map_label(raw_label)
        except ValueError:
            label = None
        if label is None:
            raise InputError(path, f"line {lineno}: unknown or non-PHI label")
        entries.append((term, label))
    return entries
