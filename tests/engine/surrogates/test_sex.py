"""The patient's sex under the strict policy: a value of the same form, one per patient, and
left alone under HIPAA. Synthetic text."""

from __future__ import annotations

import random

from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.surrogates.sex import sex_surrogate
from engine.surrogates.surrogator import Surrogator

TEXT = "Edad: 62 años Sexo: H.\nHistoria Actual: Paciente varón de 62 años con hematuria."


def test_a_value_of_the_same_form_and_case() -> None:
    seen = {sex_surrogate("H", random.Random(seed)) for seed in range(20)}
    assert seen == {"H", "M"}
    assert {sex_surrogate("Varón", random.Random(seed)) for seed in range(20)} == {"Varón", "Mujer"}
    assert sex_surrogate("FEMALE", random.Random(1)) in {"FEMALE", "MALE"}
    assert sex_surrogate("Q", random.Random(1)) == "X"  # an unknown form gives nothing away


def _spans() -> list[Span]:
    h, word = TEXT.index("H."), TEXT.index("varón")
    return [Span(h, h + 1, Label.OTHER, source=Source.RULE, detector="regex.sex", subtype="SEX"),
            Span(word, word + 5, Label.OTHER, source=Source.RULE, detector="regex.sex",
                 subtype="SEX")]


def test_one_patient_keeps_one_value_across_forms() -> None:
    doc = Document.from_text(TEXT)
    outcomes = set()
    for secret in range(12):
        surrogator = Surrogator(policy=get_policy("strict"), secret=bytes([secret]) * 32)
        h, word = (surrogator.surrogate_for(doc, s) for s in _spans())
        assert (h, word) in {("H", "varón"), ("M", "mujer")}
        outcomes.add(h)
    assert outcomes == {"H", "M"}  # kept for some patients, changed for others


def test_sex_is_not_phi_under_hipaa() -> None:
    for span in _spans():
        assert get_policy("strict").is_phi(span, TEXT)
        assert not get_policy("hipaa").is_phi(span, TEXT)
