"""Golden cases from travellers' infections, military polytrauma, bariatric surgery and
hematology ICU notes with sparse PHI (issue 26, dev sets 17 and 18): organisms after an
initial, antimalarials and factor products, interpreters and languages, military branches,
eponymous limbs, units and signs, services' clinics, agencies after "from", a lumbar
puncture before its suffix. Both sides; synthetic text only; rules and dictionaries through
the real pipeline, a model's proposals at the allowlist."""

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
    ("THIN SMEAR P. FALCIPARUM 18%, SCHIZONTS SEEN. GIVEN NS 3L", "FALCIPARUM"),
    ("TYPHOID (S. TYPHI IN BCX FROM ED). PT IS A STUDENT", "TYPHI"),
    ("X 14H UNTIL IV ARTESUNATE ARRIVED FROM CDC; 4 DOSES COMPLETED", "CDC"),
    ("old VBG years ago revised to RYGB). No prior hx afib.", "RYGB"),
    ("add thiamine 100mg IV daily + MVI to TPN (done - confirmed w/ pharmacy)", "TPN"),
    ("IBUPROFEN 800 TID FOR BACK PAIN (DID NOT TELL BARIATRIC CLINIC), NOT ON PPI", "CLINIC"),
    ("FOLLOW UP: COLORECTAL SURGERY CLINIC 2 WKS, DISCUSS REVERSAL", "COLORECTAL"),
    ("3. Avoid LP, central line only if necessary", "Avoid LP"),
    ("to see travel clinic again before next trip", "travel clinic"),
    ("EMPLOYEE HEALTH FOR BASELINE & 8-10 WK TST/IGRA.", "IGRA"),
    ("On arrival pt post-ictal, GCS 9, sat 94% on 2L", "post-ictal"),
    ("social: pt speaks mostly french, lang line interpreter used for adm hx", "lang line"),
    ("Pt is a medically retired Marine Corps Sgt, service-connected for PTSD", "Marine Corps"),
    ("exploration of Roux limb + remnant stomach (intact)", "Roux"),
    ("high titer FVIII inhibitor (last Bethesda 38 BU) admitted yesterday", "Bethesda"),
    ("pericholecystic fluid, no stones. Sonographic Murphy +.", "Murphy"),
    ("Family: wife en route, will call on arrival", "en"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("transferred from Kettering Medical Group LP records", "Kettering Medical Group LP"),
    ("per P. Okonkwo RN, pt resting", "P. Okonkwo"),
    ("family lives in Bethesda Heights, daughter drove in", "Bethesda Heights"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "recovered"), [
    ("will discuss switching to artesunate in AM", "artesunate", True),
    ("HOLD CAPLACIZUMAB, CONSIDER VWF CONCENTRATE", "CAPLACIZUMAB", True),
    ("Bypass agent: rFVIIa (NovoSeven) 90 mcg/kg", "NovoSeven", True),
    ("Met with pt by phone interpreter (Tigrinya) in the room", "Tigrinya", True),
    ("Spoke with Dr. Murphy about the scan", "Murphy", False),
])
def test_the_allowlist(text: str, piece: str, recovered: bool) -> None:
    assert recovered_by_the_allowlist(text, piece, Label.PERSON) is recovered
