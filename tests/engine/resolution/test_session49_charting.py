"""Golden cases from ICU notes with sparse PHI (issue 26, session 49; dev sets 63-66 and what
dev 1-62 still showed).

A street and the town after it are two places, as annotators mark them and as the surrogates
replace them; the comma between is neither. A flat stays with its street, a state with its
town.

Both sides; synthetic text only; rules and dictionaries through the real pipeline, a model's
spans through the guards."""

from __future__ import annotations

import pytest

from engine.core.domain import Document
from engine.core.labels import Label
from engine.pipeline import Pipeline
from tests.engine.resolution.charting import kept_of_a_models_span


@pytest.mark.parametrize(("text", "piece", "kept"), [
    ("Lives w/ her mother at 48 orchard ln, dunmore. fob not involved", "48 orchard ln, dunmore",
     ["48 orchard ln", "dunmore"]),
    ("LIVED ALONE AT 22 CHAPMAN RD, BRAINTREE, UNTIL FOUND DOWN", "22 CHAPMAN RD, BRAINTREE",
     ["22 CHAPMAN RD", "BRAINTREE"]),
    ("Current address 229 Cardinal Way, Apt 3B, Brockfield. Denies",
     "229 Cardinal Way, Apt 3B, Brockfield", ["229 Cardinal Way, Apt 3B", "Brockfield"]),
    ("snowbird, winters at 1190 Beacon Crest Blvd, Apt 4F", "1190 Beacon Crest Blvd, Apt 4F",
     ["1190 Beacon Crest Blvd, Apt 4F"]),
    ("Family drove up from Sarasota, FL overnight", "Sarasota, FL", ["Sarasota, FL"]),
    ("Pharmacy: MAPLEWOOD DRUG, 22 CANAL ST", "MAPLEWOOD DRUG, 22 CANAL ST",
     ["MAPLEWOOD DRUG, 22 CANAL ST"]),
])
def test_a_street_and_its_town_are_two_places(text: str, piece: str, kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, Label.LOCATION) == kept


@pytest.mark.parametrize(("text", "places"), [
    ("Pt lives alone at 47 Tannery Lane, Oxbow. Concern for neglect raised",
     ["47 Tannery Lane", "Oxbow"]),
    ("Home address 1402 Old Sawmill Rd, Brantley. Police wellness check found",
     ["1402 Old Sawmill Rd", "Brantley"]),
])
def test_the_rules_mark_street_and_town_apart(text: str, places: list[str],
                                              hipaa: Pipeline) -> None:
    found = [text[s.start:s.end] for s in hipaa.run(Document.from_text(text)).active
             if s.label is Label.LOCATION]
    assert found == places
