"""Golden cases from ICU notes with sparse PHI (issue 26, session 48; dev sets 53-56 and what
dev 1-52 still showed): a province or state someone belongs to is no address, a verb's
particle ends no town, a coma scale by its city and an organ's cancer are no names. Both
sides; synthetic text only; rules and dictionaries through the real pipeline, a model's spans
through the guards and the allowlist."""

from __future__ import annotations

import pytest

from engine.core.labels import Label
from engine.pipeline import Pipeline
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    recovered_by_the_allowlist,
)


@pytest.mark.parametrize(("text", "piece"), [
    ("Lives in Springfield, Texas w/ wife", "Springfield"),
    # In capitals the town reads as the phrase ("CLOTHES CUT OFF"): only its case tells.
    ("Clothing sent home w/ wife to Cut Off, LA", "Cut Off"),
    ("pt from grand rapids, lives in green bay", "green bay"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("Hospital course: M, Ontario resident, presented to our ED while at work", "Ontario"),
    ("Pt is Canadian citizen, Ontario resident, injured in MVC on the interstate", "Ontario"),
    ("BELONGINGS: CLOTHING CUT OFF AT OSH, SENT IN BAG W/ CREW", "CUT OFF"),
    ("pt's disability (ssi) was cut off after a review", "cut off"),
    ("opens eyes to voice, squeezes bilat, glasgow 10t. back on propofol 20.", "glasgow"),
    ("NEURO: GLASGOW 3T (SEDATED) - NOT PROGNOSTIC", "GLASGOW"),
    ("FH: FATHER LUNG CA (ALSO A STEELWORKER). MOTHER DM2.", "LUNG"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("opens eyes to voice, glasgow 10t, back on propofol", "glasgow", Label.LOCATION),
    ("FH: FATHER LUNG CA, MOTHER BREAST CA", "LUNG", Label.PERSON),
    ("CT head w/ new brain mets, onc aware", "brain", Label.PERSON),
])
def test_named_things_are_no_name(text: str, piece: str, label: Label) -> None:
    assert recovered_by_the_allowlist(text, piece, label)
