"""The profile: deterministic bytes, round trips, corpus statistics (issue 25)."""

from __future__ import annotations

import random

import pytest

from engine.core.domain import Span
from engine.core.errors import InputError
from engine.core.labels import Label
from engine.profile import (
    CorpusStats,
    Decision,
    DocumentSample,
    EntrySource,
    ListEntry,
    PhiKind,
    Profile,
    build_profile,
    corpus_statistics,
)

DECISIONS = [
    Decision("Marlo Vantreight", Label.PATIENT, True, patient="P00001"),
    Decision("MARLO VANTREIGHT", Label.PATIENT, True, patient="P00001"),
    Decision("Bruce", Label.PATIENT, False),
    Decision("Kessler Ward", Label.HOSPITAL, True),
    Decision("cont", Label.PERSON, False),
    Decision("Haldane", Label.DOCTOR, True),
    Decision("Haldane", Label.PATIENT, False),  # relabelled by the reviewer: still a name
    Decision("12", Label.AGE, False),
]
LISTS = [ListEntry("Odile Brisbane", PhiKind.PATIENT, "P00002"),
         ListEntry("Tobin Oakhollow", PhiKind.STAFF), ListEntry("Kessler", PhiKind.WARD)]


def _build(decisions: list[Decision], lists: list[ListEntry]) -> Profile:
    return build_profile(decisions, lists, CorpusStats(), documents_reviewed=3)


def test_same_inputs_in_any_order_give_identical_bytes() -> None:
    first = _build(DECISIONS, LISTS)
    rng = random.Random(7)
    for _ in range(5):
        decisions, lists = DECISIONS[:], LISTS[:]
        rng.shuffle(decisions)
        rng.shuffle(lists)
        again = _build(decisions, lists)
        assert again.to_bytes() == first.to_bytes()
        assert again.content_version == first.content_version
    assert Profile.from_bytes(first.to_bytes()) == first
    assert Profile.from_bytes(first.to_bytes()).to_bytes() == first.to_bytes()


def test_what_a_review_teaches() -> None:
    profile = _build(DECISIONS, LISTS)
    phi = {(e.text, e.kind, e.source) for e in profile.phi}
    assert ("marlo vantreight", PhiKind.PATIENT, EntrySource.REVIEW) in phi
    assert ("odile brisbane", PhiKind.PATIENT, EntrySource.LIST) in phi
    assert ("haldane", PhiKind.STAFF, EntrySource.REVIEW) in phi
    vocabulary = {(v.text, v.label) for v in profile.vocabulary}
    # "Haldane" was rejected as a patient but accepted as a doctor: a name, not vocabulary.
    assert vocabulary == {("bruce", Label.PATIENT), ("cont", Label.PERSON)}
    assert profile.count("decisions.accepted") == 4
    assert profile.count("decisions.rejected") == 4
    assert next(e.patient for e in profile.phi if e.text == "odile brisbane") == "P00002"


def test_removing_an_entry_is_a_new_content() -> None:
    profile = _build(DECISIONS, LISTS)
    bruce = next(v for v in profile.vocabulary if v.text == "bruce")
    smaller = profile.without([bruce])
    assert bruce not in smaller.vocabulary and smaller.content_version != profile.content_version
    assert profile.to_bytes() == _build(DECISIONS, LISTS).to_bytes()  # frozen: unchanged


def test_a_malformed_profile_is_refused_without_quoting_it() -> None:
    with pytest.raises(InputError, match="schema"):
        Profile.from_bytes(b'{"schema": 99, "phi": []}')
    with pytest.raises(InputError, match="malformed") as info:
        Profile.from_bytes(b'{"schema": 1, "phi": [{"text": "Secret Name"}]}')
    assert "Secret" not in str(info.value)


def _sample(patient: str, text: str, marked: list[tuple[str, Label]], *,
            reviewed: bool = False) -> DocumentSample:
    spans = []
    for word, label in marked:
        start = text.index(word)
        spans.append(Span(start, start + len(word), label))
    return DocumentSample(patient, text, tuple(spans), reviewed=reviewed,
                          accepted=tuple((s.start, s.end) for s in spans) if reviewed else ())


def test_corpus_statistics_find_clinical_words_not_staff_names() -> None:
    samples = []
    for i in range(6):
        samples.append(_sample(f"P{i}", "Cont IVF. will cont abx, cont pressors. Rose RN "
                                        "here. Odile visited.",
                               [("Cont", Label.PATIENT), ("Rose", Label.PATIENT),
                                ("Odile", Label.PATIENT)]))
    samples.append(_sample("P9", "Dr. Rose at bedside; rose early", [("Rose", Label.DOCTOR)]))
    stats = corpus_statistics(samples)
    # "cont": marked in 6 patients, written plain 12 times. "rose": a DOCTOR somewhere.
    # "odile": marked everywhere, never a plain word.
    assert stats.clinical() == ["cont"]
    assert stats.clinical(min_patients=7) == []
    profile = build_profile([], [], stats)
    assert [(v.text, v.source) for v in profile.vocabulary] == [("cont", EntrySource.CORPUS)]
    # A listed or accepted name is never corpus vocabulary.
    listed = build_profile([], [ListEntry("Cont", PhiKind.PATIENT)], stats)
    assert listed.vocabulary == ()


def test_entries_differing_only_by_patient_sort() -> None:
    lists = [ListEntry("1 Elm St", PhiKind.PLACE, "P00001"), ListEntry("1 Elm St", PhiKind.PLACE),
             ListEntry("1 Elm St", PhiKind.PLACE, "P00002")]
    profile = build_profile([], lists)
    assert [e.patient for e in profile.phi] == [None, "P00001", "P00002"]
    assert build_profile([], lists[::-1]).to_bytes() == profile.to_bytes()


def test_the_projects_common_words_make_no_entries_and_no_near_misses() -> None:
    header = ("Nombre: {}. Provincia: Madrid. Calle de la Paz. tejido graso, el tejido. "
              "RN Sahlberg")
    names = ["Ernesto Rivera", "Lucia Tejedo", "Tomas Vidal", "Ana Sol", "Eva Rios", "Ines Mar"]
    samples = [_sample(f"P{i}", header.format(name),
                       [(name, Label.PATIENT), ("Sahlberg", Label.DOCTOR)], reviewed=True)
               for i, name in enumerate(names)]
    stats = corpus_statistics(samples)
    assert stats.is_common("nombre") and stats.is_common("la") and not stats.is_common("rivera")
    assert not stats.is_common("sahlberg")  # in every document, but marked there every time
    decisions = [Decision("Nombre: Ernesto Rivera", Label.PATIENT, True),
                 Decision("de la", Label.LOCATION, True),  # accepted: it overlapped an address
                 Decision("Provincia", Label.HOSPITAL, True),
                 Decision("Lucia Tejedo", Label.DOCTOR, True)]
    profile = build_profile(decisions, [], stats)
    assert {e.text for e in profile.phi} == {"nombre: ernesto rivera", "lucia tejedo"}
    assert profile.count("review.common_only") == 2
    # "tejido" is a plain word one edit from "tejedo": never read as its near-miss.
    assert {"nombre", "tejido"} <= set(profile.common)
