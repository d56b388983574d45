"""Golden cases from stroke and cardiac-arrest ICU notes, frail elderly patients and endocrine
emergencies with sparse PHI (issue 26, dev sets 13 and 14): exam, rehab and lab shorthand after
"to"/"from", a lab and its value, a side and a velocity, a shift's clock range, an ordinal
before a kind of place, a dose split in fractions, a pain score after how it feels, a rate per
hours, section words before a credential, a relative's house, a word for a person after "PT:",
nicknames in quotes, eponymous grades and solutions. Both sides; synthetic text only; rules and
dictionaries through the real pipeline, a model's proposals at the guards."""

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


@pytest.mark.parametrize(("text", "piece"), [
    # shorthand and long-term care after "to"/"from"
    ("mild dysarthria, mild L extinction to DSS. NIHSS q1h", "DSS"),
    ("nidus drains superficial to SSS, no deep venous drainage", "SSS"),
    ("progressed from mod A to CGA over 4 sessions", "CGA"),
    ("DOPAMINE 8 -> SWITCHED TO NOREPI 0.05, MAP 68", "NOREPI"),
    ("ADMITTED W/ SEPTIC SHOCK FROM PYELO, OFF PRESSORS X 2 DAYS", "PYELO"),
    ("PT recommends return to LTC w/ PT 3x/wk", "LTC"),
    ("3. Second LTAC 1.5 hr away - son declined d/t distance", "Second LTAC"),
    ("obtained glucometer + strips through hospital pharmacy program", "strips"),
    ("referred to hospital-based primary care clinic, appt made", "primary care clinic"),
    # numbers: a lab's value, a side's velocity, a shift's clock range
    ("csf wbc 42 rbc 8200, gluc 61, prot 88, gram stain no orgs", "rbc 8200"),
    ("TCDs this am showed MCA velocities R 142 L 118 (up from 110s)", "142 L 118"),
    ("FENTANYL 100MCG/HR.\n0035-0700: NO FURTHER SUSTAINED VT.", "0035-0700"),
    # fractions that are no dates
    ("NPH/regular alternative: NPH 2/3 AM + 1/3 PM.\nDiscussed w/ team.", "2/3"),
    ("NPH/regular alternative: NPH 2/3 AM + 1/3 PM.\nDiscussed w/ team.", "1/3"),
    ("pt states groin \"burns\" 4/10, tylenol given", "4/10"),
    ("allow Na rise max 6-8/24h, recheck q2h", "8/24"),
    ("tried to reach hcp (husband) at 555-0153 x2, no answer", "x2"),
    ("NS 500-1000 x 2 overnight for low uop", "500-1000 x 2"),
    # section words, a relative's house, a word for a person
    ("NeuroICU NP Progress Note\n\nS/O: refractory status epilepticus", "Progress"),
    ("Nsg Progress 0700-1900 NSICU\n\nDx: basilar artery occlusion", "Progress"),
    ("oriented x1-2, thinks she is at her sisters house. reoriented", "house"),
    ("HPI PER OSH RECORDS + PT: MAN W/ HTN, TOBACCO, PRESENTED TO OSH ER", "MAN"),
    ("PT re-evaluation / d/c recs\n\nPt seen for PT f/u", "re-evaluation"),
    ("pump use per \"patient self-managed insulin pump\" agreement", "self-managed"),
    ("when called \"rapid response\" the team came at once", "rapid response"),
    # eponymous grades, arteries, holders and solutions
    ("pt is post bleed day 8 from fisher 4 sah, s/p clipping", "fisher 4"),
    ("L lateral medullary + L PICA cerebellar infarct", "PICA"),
    ("8.0 ETT, 23CM @ LIP, SECURED W/ HOLLISTER. VENT AC 500 X 14", "HOLLISTER"),
    ("Thyroid storm from untreated Graves' precipitated by URI", "Graves"),
    # a contraction before "DO", an order to place a line, rites, a repeated surgeon's name
    ("CRYING, STATED \"I CAN'T DO THIS ANYMORE\". CCU FELLOW AT BEDSIDE", "CAN'T"),
    ("d/c left ij tlc, place new line; albumin 25g q8", "place new line"),
    ("they asked about shmirah - chevra kadisha from their synagogue will help", "shmirah"),
    ("they asked about shmirah - chevra kadisha from their synagogue will help",
     "chevra kadisha"),
    ("s/p norwood/bt shunt. pod 1 s/p bidirectional glenn.\nsats 78-84 (helps glenn flow)",
     "bidirectional glenn"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("LIVES IN NH. PT PREFERS TO BE CALLED \"PEG\" - RESPONDS MUCH BETTER", "PEG"),
    ("reoriented freq, settles some when called \"deb\". follows commands", "deb"),
    ("Pt's husband Otto Graves' car was towed from the lot", "Otto Graves"),
    ("called Dr. Fisher at 1400 re: new weakness", "Fisher"),
    ("extubated 1/3 and reintubated 2/3 for stridor", "1/3"),
    ("Cell 802-555-0147 (husband)", "802-555-0147"),
    ("call +44 20 7946 0958 for the sister in London", "+44 20 7946 0958"),
    ("Seen by Lina O'Brien, PA-C at 0900", "Lina O'Brien"),
    ("Family lives at 14 Place Ville Marie, apt 3", "14 Place Ville Marie"),
    # an extension after a number
    ("house manager reached at 555-0142 ext 3, states they will", "555-0142 ext 3"),
    ("ORDERS GIVEN BY PHONE TO HOSPICE RN AT 1040, 555-276-4410 X2 (NURSES STATION)",
     "555-276-4410 X2"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("per RN, Endovasc aware for possible angio tonight", "Endovasc", Label.DOCTOR),
    ("activity: ambulated 40 ft in hall w/ rw and assist of 1", "rw", Label.HOSPITAL),
    ("STAFF USE THIS NAME, ADDED TO WHITEBOARD.", "WHITEBOARD", Label.HOSPITAL),
    ("rewarm 0.25C/hr via CoolGard starting 1710", "CoolGard", Label.HOSPITAL),
    ("then ARNI when Cr stable", "ARNI", Label.LOCATION),
])
def test_a_models_charting_goes(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == []


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("wife called, she prefers to be called \"PEG\" at home", "PEG", Label.PATIENT),
    ("visited w/ sister Rose at her house today", "Rose", Label.PERSON),
])
def test_a_models_identifiers_stay(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == [piece]


@pytest.mark.parametrize(("text", "piece", "recovered"), [
    ("Lugol's 8 gtt po q8h given >1hr after PTU", "Lugol", True),
    ("Thyroid storm from untreated Graves' precipitated by URI", "Graves", True),
    ("spoke with Mr. Graves about the plan", "Graves", False),
])
def test_the_allowlist(text: str, piece: str, recovered: bool) -> None:
    assert recovered_by_the_allowlist(text, piece, Label.PERSON) is recovered
