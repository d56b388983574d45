"""What a whole document says about its names, read once before replacing anything.

- One string, one label: "Morrow" tagged LOCATION in one sentence and DOCTOR in the next
  is replaced as a person everywhere (PATIENT first, then PERSON, then DOCTOR), so it gets
  one surrogate and a kept-provider policy cannot leave a patient's name in place.
- Gender: titles (Mr./Mrs./Ms.) and the pronouns that follow a person's mentions, summed
  per person (label and surname), decide when the first name alone does not.
- The originals a surrogate must not reproduce: every original string and every word of
  one, of this document and of any other strings the caller passes (a patient's other
  letters).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.core.domain import Document, Span
from engine.core.labels import NAME_LABELS, Label
from engine.surrogates.guard import WORD, Avoid
from engine.surrogates.names import SUFFIXES, TITLE_BEFORE, TITLES, Gender, split_inflection

# Privacy first: a string that is the patient's name anywhere is the patient's name.
_PREFERENCE = (Label.PATIENT, Label.PERSON, Label.DOCTOR)
_TEXT_LABELS = NAME_LABELS | {Label.LOCATION, Label.HOSPITAL, Label.OTHER}
_PRONOUNS = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
_MALE = frozenset({"he", "him", "his", "himself"})
_WINDOW = 250  # characters after a mention in which pronouns count for it
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def string_key(value: str) -> str:
    """A mention without its titles and its possessive: "Dr. Morrow's" -> "morrow"."""
    words = value.split()
    while words and words[0].strip(".,").casefold() in TITLES:
        words = words[1:]
    if words:
        words[-1] = split_inflection(words[-1].rstrip(".,;:"))[0]
    return " ".join(words).casefold()


def surname_key(value: str) -> str:
    """The last word of a name that is neither a title nor a suffix."""
    words = [split_inflection(w.strip(".,;:()\""))[0].casefold() for w in value.split()]
    words = [w for w in words if w and w not in TITLES and w.replace(".", "") not in SUFFIXES]
    return words[-1] if words else ""


def unify_labels(doc: Document, spans: Sequence[Span]) -> dict[str, Label]:
    """span id -> the label its string has in this whole document (only where it differs
    from the span's own)."""
    by_key: dict[str, set[Label]] = {}
    for s in spans:
        if s.label in _TEXT_LABELS:
            by_key.setdefault(string_key(doc.slice(s)), set()).add(s.label)
    out: dict[str, Label] = {}
    for s in spans:
        if s.label not in _TEXT_LABELS:
            continue
        labels = by_key[string_key(doc.slice(s))]
        if len(labels) < 2:
            continue
        best = next((lab for lab in _PREFERENCE if lab in labels), s.label)
        if best is not s.label:
            out[s.id] = best
    return out


@dataclass
class DocContext:
    """Per-document reading of the spans; built by ``read``."""

    labels: Mapping[str, Label]
    avoid: Avoid
    name_words: frozenset[str]
    genders: Mapping[tuple[Label, str], Gender] = field(default_factory=dict)

    def label(self, span: Span) -> Label:
        return self.labels.get(span.id, span.label)

    def gender(self, label: Label, surname: str) -> Gender:
        return self.genders.get((label, surname))


def read(doc: Document, spans: Sequence[Span], *, also: Iterable[str] = ()) -> DocContext:
    labels = unify_labels(doc, spans)
    originals = [doc.slice(s) for s in spans]
    extra = list(also)
    name_words = {split_inflection(w)[0].casefold()
                  for s in spans if labels.get(s.id, s.label) in NAME_LABELS
                  for w in WORD.findall(doc.slice(s))}
    # Phrases: every original, plus the longer words of names (a place surrogate must not
    # bring back "Emily" in "Port Emily"); words: every word of every original.
    phrases = originals + extra + [w for w in name_words if len(w) > 2 and w not in TITLES]
    words = {w.casefold() for v in originals + extra for w in WORD.findall(v)}
    avoid = Avoid(phrases, words=words | name_words)
    return DocContext(labels, avoid, frozenset(name_words), _genders(doc, spans, labels))


def _genders(doc: Document, spans: Sequence[Span],
             labels: Mapping[str, Label]) -> dict[tuple[Label, str], Gender]:
    people = sorted((s for s in spans if labels.get(s.id, s.label) in NAME_LABELS),
                    key=lambda s: s.start)
    votes: dict[tuple[Label, str], Counter[str]] = {}
    text = doc.text
    for i, s in enumerate(people):
        key = (labels.get(s.id, s.label), surname_key(doc.slice(s)))
        if not key[1]:
            continue
        tally = votes.setdefault(key, Counter())
        # A title inside the mention or just before it counts most.
        first = doc.slice(s).split()[0].strip(".,").casefold() if doc.slice(s).split() else ""
        before = TITLE_BEFORE.search(text[max(0, s.start - 12):s.start])
        for title in (first, before.group(1).casefold() if before else ""):
            g = TITLES.get(title)
            if g:
                tally[g] += 3
        # Pronouns after the mention, until the next person, a blank line or the window.
        stop = min(people[i + 1].start if i + 1 < len(people) else len(text),
                   s.end + _WINDOW)
        window = text[s.end:stop]
        blank = _BLANK_LINE.search(window)
        if blank:
            window = window[:blank.start()]
        for p in _PRONOUNS.findall(window):
            tally["M" if p.casefold() in _MALE else "F"] += 1
    out: dict[tuple[Label, str], Gender] = {}
    for key, tally in votes.items():
        m, f = tally["M"], tally["F"]
        if m != f:
            out[key] = "M" if m > f else "F"
    return out
