"""The local PHI dictionary finds a listed name in every variant a note writes it."""

from __future__ import annotations

import time

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document
from engine.core.labels import Label
from engine.detectors.dictionary.local import LocalDictionaryDetector
from engine.profile import EntrySource, PhiEntry, PhiKind

ENTRIES = (
    PhiEntry("quilla lindqvist", Label.PATIENT, PhiKind.PATIENT, EntrySource.LIST, "P00001"),
    PhiEntry("dana lang", Label.DOCTOR, PhiKind.STAFF, EntrySource.REVIEW),
    PhiEntry("beatrice toller", Label.DOCTOR, PhiKind.STAFF, EntrySource.LIST),
    PhiEntry("kessler", Label.HOSPITAL, PhiKind.WARD, EntrySource.LIST),
    PhiEntry("mary-anne rose", Label.PERSON, PhiKind.RELATIVE, EntrySource.REVIEW),
)
DETECTOR = LocalDictionaryDetector(ENTRIES)


def _found(text: str) -> list[tuple[str, Label]]:
    doc = Document.from_text(text)
    return [(doc.slice(s), s.label) for s in DETECTOR.detect(doc, RunContext())]


@pytest.mark.parametrize("written", [
    "Quilla Lindqvist", "QUILLA LINDQVIST", "quilla lindqvist",  # case
    "Q. Lindqvist", "q lindqvist", "Lindqvist, Quilla", "LINDQVIST, Q.",  # initials, order
    "Lindqvist's", "LINDQVIST'S", "Lindqvist",  # possessive, surname alone
    "Quilla Lindqvlst", "Qui1la Lindqvist", "Lindqist",  # OCR: one edit
    "Quilla",  # the given name alone (patients and relatives)
])
def test_a_listed_patient_is_found_in_every_variant(written: str) -> None:
    found = _found(f"Seen today: {written} was comfortable overnight.")
    assert found == [(written, Label.PATIENT)]


@pytest.mark.parametrize(("written", "label"), [
    ("d lang", Label.DOCTOR), ("D. Lang", Label.DOCTOR), ("B. TOLLER", Label.DOCTOR),
    ("Toller", Label.DOCTOR), ("Kessler 3", Label.HOSPITAL), ("kessler-4B", Label.HOSPITAL),
    ("KESSLER", Label.HOSPITAL), ("Mary Anne Rose", Label.PERSON),
    ("Mary-Anne Rose", Label.PERSON),
])
def test_staff_wards_and_hyphens(written: str, label: Label) -> None:
    assert _found(f"Plan discussed with {written} today.") == [(written, label)]


def test_common_words_need_a_capital_and_staff_given_names_stand_alone_never() -> None:
    # "rose" (relative's surname) is an English word: lower case is the verb.
    assert _found("BP rose to 150 overnight") == []
    assert _found("Daughter Rose called") == [("Rose", Label.PERSON)]
    assert _found("Dana will call") == []  # a staff member's given name alone: not enough
    assert _found("Lindqvists and Lindqvistt") != []  # one edit: still the patient
    assert _found("Quilting and Lindberg") == []  # further than one edit


def test_a_large_dictionary_scans_fast() -> None:
    entries = [PhiEntry(f"given{i} surname{i}x", Label.PATIENT, PhiKind.PATIENT,
                        EntrySource.LIST) for i in range(5000)]
    detector = LocalDictionaryDetector(entries)
    doc = Document.from_text("Patient resting comfortably, vitals stable, plan unchanged. " * 400)
    started = time.perf_counter()
    assert detector.detect(doc, RunContext()) == []
    assert time.perf_counter() - started < 1.0


def test_common_words_of_the_project_are_not_names_by_themselves() -> None:
    entries = [PhiEntry("nombre ernesto rivera", Label.PATIENT, PhiKind.PATIENT,
                        EntrySource.REVIEW),
               PhiEntry("lucia tejedo", Label.DOCTOR, PhiKind.STAFF, EntrySource.REVIEW)]
    plain = LocalDictionaryDetector(entries)
    local = LocalDictionaryDetector(entries, common={"nombre", "tejido"})
    doc = Document.from_text("Nombre: Luis. tejido graso. Rivera stable. Tejedo notified.")

    def found(detector: LocalDictionaryDetector) -> list[str]:
        return [doc.slice(s) for s in detector.detect(doc, RunContext())]

    assert found(plain) == ["Nombre", "tejido", "Rivera", "Tejedo"]
    assert found(local) == ["Rivera", "Tejedo"]
