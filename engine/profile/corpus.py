"""Corpus statistics: words the detectors mark as a patient's or relative's name in the
documents of many different patients, and that the notes also write as plain words, are
this institution's clinical language (``cont``, ``aline``, ``foley``), not names.

A word counts as clinical when, over the whole project:

- single-word PATIENT/PERSON candidates cover it in the documents of at least
  ``CORPUS_MIN_PATIENTS`` (k = 5) different patients (a document without a patient counts as
  a patient of its own), and
- it is written in lower case outside every candidate at least ``CORPUS_MIN_PLAIN`` (2) times
  and at least as often as it is marked (a real name the detectors miss now and then is
  marked far more often than it is missed, and is capitalised when missed);
- it is never a DOCTOR, HOSPITAL or LOCATION candidate anywhere: staff names and wards recur
  across patients too, and corpus statistics must not suppress them (review evidence and the
  dictionaries decide those).

The same pass counts every word's plain lower-case occurrences and, in the reviewed documents,
its occurrences inside and outside what the reviewer accepted or added: a word written plainly
twice, or left unmarked by the reviewer more often than marked, is one of the project's common
words (``CorpusStats.is_common``), which the local dictionary never takes for a name by
itself. A staff name or ward the reviewer marks every time is not one, however often it
recurs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core.domain import ACTIVE_STATUSES, Span
from engine.core.labels import Label
from engine.detectors.dictionary.gazetteer import tokenize
from engine.profile.model import TOKEN, normal_key

CORPUS_MIN_PATIENTS = 5
CORPUS_MIN_PLAIN = 2
_MARKED = frozenset({Label.PATIENT, Label.PERSON})
_NEVER = frozenset({Label.DOCTOR, Label.HOSPITAL, Label.LOCATION})


@dataclass(frozen=True)
class DocumentSample:
    """What corpus statistics read of one document: its patient (or its own id), its text
    and its candidates."""

    patient: str
    text: str
    spans: tuple[Span, ...]
    # A reviewed document's accepted and added ranges (what its reviewer said is PHI).
    reviewed: bool = False
    accepted: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, order=True)
class WordStat:
    word: str  # normalised
    patients: int  # distinct patients whose documents mark it PATIENT/PERSON
    marked: int  # PATIENT/PERSON candidates covering it
    plain: int  # lower-case occurrences outside every candidate
    staff_or_place: bool  # ever a DOCTOR / HOSPITAL / LOCATION candidate


@dataclass(frozen=True)
class CorpusStats:
    words: tuple[WordStat, ...] = ()
    documents: int = 0
    # Every word (case-folded): lower-case occurrences outside candidates; in the reviewed
    # documents, occurrences inside an accepted or added span and outside every one.
    plain: dict[str, int] = field(default_factory=dict)
    reviewed_inside: dict[str, int] = field(default_factory=dict)
    reviewed_outside: dict[str, int] = field(default_factory=dict)

    def is_common(self, word: str) -> bool:
        """One of the project's common words: written as a plain lower-case word
        (CORPUS_MIN_PLAIN times), or left unmarked by the reviewer more often than marked
        (a form header, "de la"; a ward or staff name the reviewer marks every time stays a
        name, however often it recurs and whatever the detectors found)."""
        outside = self.reviewed_outside.get(word, 0)
        return self.plain.get(word, 0) >= CORPUS_MIN_PLAIN or \
            (outside >= CORPUS_MIN_PLAIN and outside > self.reviewed_inside.get(word, 0))

    def clinical(self, *, min_patients: int = CORPUS_MIN_PATIENTS,
                 min_plain: int = CORPUS_MIN_PLAIN) -> list[str]:
        """The words that are clinical language here, sorted."""
        return sorted(w.word for w in self.words
                      if w.patients >= min_patients and not w.staff_or_place
                      and w.plain >= max(min_plain, w.marked))


def corpus_statistics(samples: Iterable[DocumentSample]) -> CorpusStats:
    patients: dict[str, set[str]] = {}
    marked: dict[str, int] = {}
    never: set[str] = set()
    plain: Counter[str] = Counter()  # lower-case words outside candidates
    inside: Counter[str] = Counter()  # reviewed documents: in accepted spans
    outside: Counter[str] = Counter()  # reviewed documents: outside every accepted span
    documents = 0
    for sample in samples:
        documents += 1
        text = sample.text
        active = sorted((s for s in sample.spans if s.status in ACTIVE_STATUSES),
                        key=lambda s: s.start)
        for span in active:
            words = tokenize(text[span.start:span.end])
            if span.label in _NEVER:
                never.update(normal_key(w.text) for w in words)
            elif span.label in _MARKED and len(words) == 1:
                key = normal_key(words[0].text)
                patients.setdefault(key, set()).add(sample.patient)
                marked[key] = marked.get(key, 0) + 1
        cursor = 0
        accepted = sorted(sample.accepted)
        for match in TOKEN.finditer(text):
            word = match.group()
            key = normal_key(word)
            while cursor < len(active) and active[cursor].end <= match.start():
                cursor += 1
            covered = cursor < len(active) and active[cursor].start < match.end()
            if not covered and word.islower():
                plain[key] += 1
            if sample.reviewed:
                decided = any(a < match.end() and match.start() < b for a, b in accepted)
                (inside if decided else outside)[key] += 1
    stats = tuple(sorted(WordStat(k, len(p), marked[k], plain.get(k, 0), k in never)
                         for k, p in patients.items()))
    return CorpusStats(stats, documents, dict(plain), dict(inside), dict(outside))
