"""Generated letters where people share first names and surnames (seeded Faker, synthetic PHI
only), and the collision count the surrogate tests assert on.

A collision is a surrogate that a reader could take for a leak: the whole surrogate equal to
an original identifier of the same document, a name part of a surrogate equal to any word of
an original, or a non-name surrogate containing a word of an original name.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from faker import Faker

from engine.core.domain import DeidentifiedText, Document, Span
from engine.core.labels import NAME_LABELS, Label

# Words a name surrogate keeps as written (titles, suffixes), never a collision.
_KEPT = frozenset({"mr", "mrs", "ms", "miss", "dr", "prof", "jr", "sr", "md", "phd", "s"})
_WORDS = re.compile(r"[^\W\d_]+")
_SURNAME_PLACES = ("Morrow", "Ravensworth", "Kingsley", "Ashford", "Whitby")
_UNGENDERED = ("Zebulon", "Quill", "Marlo", "Tarquin", "Ellery", "Sasha", "Rowan")


@dataclass(frozen=True)
class GeneratedDoc:
    doc: Document
    spans: tuple[Span, ...]
    patient: str  # a patient id: letters of one patient share it
    gender: str  # "M" / "F": the patient's gender as the text's pronouns say


class _Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[Span] = []
        self.size = 0

    def text(self, value: str) -> None:
        self.parts.append(value)
        self.size += len(value)

    def phi(self, value: str, label: Label, subtype: str | None = None) -> None:
        self.spans.append(Span(self.size, self.size + len(value), label, subtype=subtype))
        self.text(value)


def _pools(fake: Faker) -> tuple[list[str], list[str], list[str]]:
    male = sorted({fake.first_name_male() for _ in range(40)})[:8]
    female = sorted({fake.first_name_female() for _ in range(40)})[:8]
    last = sorted({fake.last_name() for _ in range(40)})[:8] + list(_SURNAME_PLACES)
    return male, female, last


def generate(n: int, *, seed: int = 15, patients: int = 0) -> Iterator[GeneratedDoc]:
    """``n`` letters; with ``patients`` > 0 they are spread over that many patients (the
    same person, name and gender, in each of a patient's letters)."""
    fake = Faker("en_US")
    fake.seed_instance(seed)
    male, female, last = _pools(fake)
    people: dict[int, tuple[str, str, str]] = {}
    for i in range(n):
        rng = random.Random(seed * 100_003 + i)
        pid = rng.randrange(patients) if patients else i
        if pid not in people:
            prng = random.Random(seed * 7919 + pid)
            gender = prng.choice("MF")
            pool = male if gender == "M" else female
            first = prng.choice(pool + list(_UNGENDERED))
            people[pid] = (first, prng.choice(last), gender)
        first, surname, gender = people[pid]
        yield _letter(rng, fake, first, surname, gender, male, female, last, f"p{pid}")


def _letter(rng: random.Random, fake: Faker, first: str, surname: str, gender: str,
            male: list[str], female: list[str], last: list[str], patient: str) -> GeneratedDoc:
    he, his = ("He", "His") if gender == "M" else ("She", "Her")
    title = "Mr." if gender == "M" else rng.choice(("Mrs.", "Ms."))
    # The doctor often shares the patient's first name or surname; so does a relative.
    d_first = first if rng.random() < 0.3 else rng.choice(male + female)
    d_last = surname if rng.random() < 0.2 else rng.choice(last)
    r_first = rng.choice(male + female)
    place = rng.choice(_SURNAME_PLACES)  # a surname that is also a street or a town here
    b = _Builder()
    b.text("Re: ")
    b.phi(f"{first} {surname}", Label.PATIENT)
    b.text(", MRN ")
    b.phi(str(rng.randrange(10_000_000, 99_999_999)), Label.ID, "MRN")
    b.text("\n\nDear ")
    b.phi(f"Dr. {d_first} {d_last}", Label.DOCTOR)
    b.text(",\n\nI saw ")
    b.phi(surname, Label.PATIENT)
    b.text(" on ")
    b.phi(fake.date(pattern="%B %d, %Y"), Label.DATE)
    b.text(" at ")
    b.phi(f"{rng.choice(last)} General Hospital", Label.HOSPITAL)
    b.text(f". {he} lives at ")
    b.phi(f"{rng.randrange(2, 999)} {place} Street", Label.LOCATION, "STREET")
    b.text(" in ")
    b.phi(rng.choice((fake.city(), place)), Label.LOCATION, "CITY")
    b.text(f". {his} sister ")
    b.phi(f"{r_first} {surname}", Label.PERSON)
    b.text(" can be reached at ")
    b.phi(fake.numerify("(###) 555-####"), Label.PHONE)
    b.text(f".\n{title} ")
    b.phi(surname, Label.PATIENT)
    b.text(" reports less pain. ")
    b.phi(f"{surname}'s", Label.PATIENT)
    b.text(f" medications were reviewed; {he.lower()} will call ")
    b.phi(f"Dr. {place}", Label.DOCTOR)
    b.text(" if needed. The ")
    b.phi(f"{surname}s'", Label.PATIENT)
    b.text(" home care continues.\n\nSincerely,\n")
    b.phi(f"{d_first} {d_last}", Label.DOCTOR)
    b.text(", MD\n")
    doc = Document.from_text("".join(b.parts))
    return GeneratedDoc(doc, tuple(b.spans), patient, gender)


def original_words(doc: Document, spans: Iterable[Span]) -> tuple[set[str], set[str], set[str]]:
    """(whole originals, words of any original, words of name originals), casefolded."""
    whole, words, names = set(), set(), set()
    for s in spans:
        value = doc.slice(s)
        whole.add(" ".join(value.split()).casefold())
        ws = {w.casefold() for w in _WORDS.findall(value)} - _KEPT
        words |= {w for w in ws if len(w) > 1}
        if s.label in NAME_LABELS:
            names |= {w for w in ws if len(w) > 2}
    return whole, words, names


def collisions(doc: Document, spans: Iterable[Span], deid: DeidentifiedText,
               also: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(label, kind) of each colliding replacement; ``also`` adds originals of the same
    patient's other letters."""
    spans = list(spans)
    whole, words, names = original_words(doc, spans)
    for value in also:
        whole.add(" ".join(value.split()).casefold())
        words |= {w.casefold() for w in _WORDS.findall(value)} - _KEPT
    out = []
    for r in deid.replacements:
        new = deid.text[r.output_start:r.output_end]
        norm = " ".join(new.split()).casefold()
        new_words = {w.casefold() for w in _WORDS.findall(new)} - _KEPT
        if norm in whole:
            out.append((r.label.value, "whole"))
        elif r.label in NAME_LABELS and new_words & words:
            out.append((r.label.value, "name part"))
        elif r.label not in NAME_LABELS and new_words & names:
            out.append((r.label.value, "name inside"))
    return out
