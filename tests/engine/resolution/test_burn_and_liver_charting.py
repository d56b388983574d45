"""Golden cases from burn ICU and liver/GI-bleeding ICU notes with sparse PHI (issue 26, dev set
10): hepatology scores, tubes and lesions named after people or places, liver and lab
shorthand, support groups, a gene's variant, how often as no identifier, employers by their
trade, a town's fire department, drug strengths, English words in capitals as a name. Both
sides; synthetic text only; rules and dictionaries through the real pipeline, a model's
proposals at the guards, the shipped allowlist on its own."""

from __future__ import annotations

import pytest

from engine.core.labels import Label
from engine.pipeline import Pipeline
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    kept_of_a_models_span,
    recovered_by_the_allowlist,
)

P, D, H, L = Label.PERSON, Label.DOCTOR, Label.HOSPITAL, Label.LOCATION


@pytest.mark.parametrize(("text", "piece"), [
    ("meld-na 33, maddrey df 61, lille day 7 due in 3 days", "lille"),
    ("Cr 1.9 (up from 1.4), ? early HRS. UNa <10. Renal may start midodrine", "UNa"),
    ("assessment: pt w/ severe aud, housing instability, ambivalent", "aud"),
    ("told likely transfer to txp floor ~pod 2-3 if drains ok.", "txp"),
    ("Bands placed starting at GEJ and spiraling upward: 6 bands total", "GEJ"),
    ("tbili 24.4 (17.9) dbili 11.2 alt 61 ast 142 alp 188 ggt 540 alb 2.1", "188 ggt"),
    ("will drive him to meetings at the millrace group 3x/wk after d/c", "3x/wk"),
    ("Interventional Radiology Consult\n\nReason: evaluate for TIPS", "Interventional"),
    ("1. sbp - ceftriaxone 2g q24 (no recent hospital exposure, no prior resistant orgs)",
     "recent hospital"),
    ("paracentesis 1030 under us guidance, llq, 15g caldwell needle. consent signed", "caldwell"),
    ("Alb 2.6. MELD-Na 29 (calc today). Child-Pugh C (11).", "Pugh"),
    ("- GEJ: at 40cm. No Mallory-Weiss tear seen.", "Mallory"),
    # a place after "lives ... in" is a name no list holds, not a word, a drug or shorthand
    ("lives alone in Lasix-induced hypokalemia per pcp", "Lasix"),
    ("living with her son in Quiet surroundings", "Quiet"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("Pt is lineman w/ Corran Valley Electric, contacted 7,200 V line", "Corran Valley Electric"),
    ("employed 3 months at Pruett's Auto Body, injured when paint thinner", "Pruett's Auto Body"),
    ("36 yo m, volunteer ff with tamsworth fire dept, injured fighting", "tamsworth"),
    ("SECRETIONS SCANT WHITE. MD HOLLISTER AT BEDSIDE, OK TO EXTUBATE", "HOLLISTER"),
    ("insurance group #A55-20931, member id 77120394", "A55-20931"),
    ("was living alone in an apartment in Tallowcreek prior to admission", "Tallowcreek"),
    ("lives w/ daughter in Quillmont Heights, independent", "Quillmont"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("PT PALE, DIAPHORETIC, ANXIOUS. HO PAGED STAT, AT BEDSIDE 0145.", "PAGED STAT", P),
    ("buprenorphine/naloxone 8/2 SL BID (continued)", "8/2", Label.DATE),
])
def test_a_models_charting_words_go(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == []


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("WIFE ROSE MARIE AT BEDSIDE, UPDATED", "ROSE MARIE", P),
    ("SISTER JUNE BAKER CALLED FROM HOME", "JUNE BAKER", P),
    ("started 8/2 IV vanco, day 3 today", "8/2", Label.DATE),
])
def test_a_models_names_stay(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == [piece]


@pytest.mark.parametrize(("text", "piece", "recovered"), [
    ("hct 46 + plt 190 - r/o mpn (jak2 v617f), also pnh", "v617f", True),
    ("also pnh, apla, factor v leiden. ocp likely contributing", "leiden", True),
    ("Wife's own support: SW suggested Al-Anon; given info.", "Al-Anon", True),
    ("2. Add Beneprotein 1 pkt BID (+12g protein)", "Beneprotein", True),
    ("on d7 - stop if Lille >0.45", "Lille", True),
    ("Alb 2.6. MELD-Na 29 (calc today). Child-Pugh C (11).", "Pugh", True),
    ("- GEJ: at 40cm. No Mallory-Weiss tear seen.", "Mallory", True),
    ("VENT ALARMING HIGH PEAK PRESSURE 48 (WAS 30)", "HIGH PEAK", True),
    ("pt lives in Lille with her daughter", "Lille", False),
])
def test_the_allowlist(text: str, piece: str, recovered: bool) -> None:
    label = L if "lives in" in text else P
    assert recovered_by_the_allowlist(text, piece, label) is recovered
