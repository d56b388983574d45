"""Clinical content finders for the guard: lexicon terms, measurements, doses, labs, ages.

Each finder returns ``Hit(start, end, kind, category)`` over the original text; the guard
flags a replacement that overlaps a hit. Everything here is deterministic and model-free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engine.paths import resource

_WORD = re.compile(r"[a-z0-9]+")
MAX_TERM_WORDS = 6

# Categories whose loss could change diagnosis or management.
HIGH_CATEGORIES = frozenset({"drug", "drug_class", "diagnosis", "symptom", "procedure", "lab",
                             "history", "device", "allergy", "organism"})


@dataclass(frozen=True, slots=True)
class Hit:
    start: int
    end: int
    kind: str  # "term" | "measurement" | "dose" | "lab_value" | "age" | "year"
    category: str  # lexicon category or unit family


def _key(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.casefold()))


class Lexicon:
    def __init__(self, terms: dict[tuple[str, ...], str]) -> None:
        self.terms = terms
        self.max_words = max((len(k) for k in terms), default=1)

    @classmethod
    def load(cls, path: Path | None = None) -> Lexicon:
        terms: dict[tuple[str, ...], str] = {}
        for line in (path or resource("lexicons", "clinical_terms.tsv")).read_text(
                encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            term, _, category = line.partition("\t")
            key = _key(term)
            if key and len(key) <= MAX_TERM_WORDS:
                terms.setdefault(key, category.strip() or "clinical")
        return cls(terms)

    def find(self, text: str) -> list[Hit]:
        """Longest lexicon terms at each word, whole words, case-insensitive, plurals too."""
        words = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text.casefold())]
        hits: list[Hit] = []
        i = 0
        while i < len(words):
            for n in range(min(self.max_words, len(words) - i), 0, -1):
                key = tuple(w for w, _, _ in words[i:i + n])
                category = self.terms.get(key)
                if category is None and key[-1].endswith("s") and len(key[-1]) > 3:
                    category = self.terms.get((*key[:-1], key[-1][:-1]))
                if category is not None:
                    hits.append(Hit(words[i][1], words[i + n - 1][2], "term", category))
                    i += n
                    break
            else:
                i += 1
        return hits

    def whole(self, text: str) -> Hit | None:
        """The term that is the whole of ``text`` ("FERRITIN", "Amicar"), or None."""
        hits = self.find(text)
        return hits[0] if len(hits) == 1 and (hits[0].start, hits[0].end) == (0, len(text)) \
            else None


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    return Lexicon.load()


_NUM = r"(?<![\w.])\d+(?:[.,]\d+)?(?:\s*(?:-|to)\s*\d+(?:[.,]\d+)?)?"
DOSE_UNITS = (r"mg|mcg|µg|ug|g|grams?|milligrams?|micrograms?|ml|mL|cc|units?|iu|IU|meq|mEq|"
              r"tabs?|tablets?|caps?|capsules?|puffs?|drops?|sprays?|patch(?:es)?|"
              r"mg/kg|mg/m2|units/kg|mg/day|mcg/hr|ml/hr")
MEASURE_UNITS = (r"%|percent|kg|lbs?|pounds?|cm|mm|m|inches|in|ft|feet|mmhg|mmHg|bpm|"
                 r"beats per minute|breaths per minute|°\s?[cf]|degrees|mmol/l|mg/dl|g/dl|"
                 r"ng/ml|pg/ml|u/l|iu/l|meq/l|cells/mm3|x10\^?9/l|k/ul|l/min|liters?|"
                 r"weeks?|days?|hours?|months?|years?|minutes?|mins?|hrs?|wks?")
_DOSE = re.compile(rf"{_NUM}\s*(?:{DOSE_UNITS})(?![\w/])", re.IGNORECASE)
_MEASURE = re.compile(rf"{_NUM}\s*(?:{MEASURE_UNITS})(?!\w)", re.IGNORECASE)
_RATIO = re.compile(r"(?<![\w/])\d{2,3}/\d{2,3}(?:\s*mm\s?hg)?(?![\w/])", re.IGNORECASE)
_FREQUENCY = re.compile(
    r"\b(?:once|twice|three times|four times)\s+(?:a\s+|per\s+)?(?:day|daily|week|weekly)\b|"
    r"\b(?:daily|nightly|b\.?i\.?d|t\.?i\.?d|q\.?i\.?d|q\.?d|q\.?h\.?s|p\.?r\.?n|"
    r"q\s?\d+\s?h(?:ours|rs)?|every\s+\d+\s+hours|at bedtime)\b", re.IGNORECASE)
_AGE = re.compile(
    r"\b(\d{1,3})(?:\s*|-)(?:years?|yrs?|y)(?:\s*|-)old\b|\b(\d{1,3})-year\b|"
    r"\b(\d{1,3})\s*(?:yo|y/o|y\.o\.)(?!\w)|\bage[ds]?\s*:?\s*(\d{1,3})\b|"
    r"\b(\d{1,3})\s+years?\s+of\s+age\b", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_LAB_VALUE_GAP = re.compile(r"\s*(?:level\s+)?(?:of|is|was|at|=|:|-)?\s*(?:of\s+)?[<>≤≥~]?\s*"
                            r"\d+(?:[.,]\d+)?\s*%?")


def find_clinical(text: str, lexicon: Lexicon | None = None) -> list[Hit]:
    """Every clinical hit in ``text`` (may overlap: a term and its lab value)."""
    lex = lexicon or default_lexicon()
    hits = lex.find(text)
    for hit in list(hits):
        if hit.category == "lab":  # "hemoglobin of 9.1", "A1c 7.2%": the value belongs to it
            m = _LAB_VALUE_GAP.match(text, hit.end, min(len(text), hit.end + 24))
            if m:
                hits.append(Hit(hit.start, m.end(), "lab_value", "lab"))
    hits += [Hit(m.start(), m.end(), "dose", "dose") for m in _DOSE.finditer(text)]
    hits += [Hit(m.start(), m.end(), "dose", "frequency") for m in _FREQUENCY.finditer(text)]
    hits += [Hit(m.start(), m.end(), "measurement", "unit") for m in _MEASURE.finditer(text)]
    hits += [Hit(m.start(), m.end(), "measurement", "ratio") for m in _RATIO.finditer(text)]
    return sorted(hits, key=lambda h: (h.start, h.end))


def find_ages(text: str) -> list[tuple[int, int, int]]:
    """(start, end, age in years) for each age expression."""
    out = []
    for m in _AGE.finditer(text):
        value = next(g for g in m.groups() if g is not None)
        out.append((m.start(), m.end(), int(value)))
    return out


def find_years(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _YEAR.finditer(text)]
