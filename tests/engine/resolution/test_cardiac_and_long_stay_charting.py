"""Golden cases from cardiac-surgery recovery and long-stay ICU notes with sparse PHI (issue 26,
dev set 8): ICU drugs and devices, service kinds, ranges after a vital's cue, scores out of 20,
faiths, a possessive before a word, an English word after an article as a place. Both sides;
synthetic text only; rules and dictionaries through the real pipeline, a model's proposals at
the guards, the shipped allowlist on its own."""

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
    ("0200. PA 34/18, CVP 10, CI 2.6-2.9, SVR 880-1000, SVO2 68-72.", "880-1000"),
    ("Lungs: diminished R base, clear L. SpO2 96% on 2L", "clear"),
    ("threshold check. ct surg aware, dr. to see. isuprel discussed", "to see"),
    ("steady gait, no loss of balance. rpe 11/20 (light). peak hr 104", "11/20"),
    ("home in Pellmouth, bedroom on 2nd floor, 1/2 bath on 1st.", "1/2"),
    ("Cardiac Rehab Phase I Note\n\nPt seen for ambulation", "Cardiac Rehab"),
    ("TTE by fellow: moderate clot anterior to RV, RV collapse in diastole", "RV"),
    ("PACING WIRES: CAPPED, TESTED, CAPTURE AT 3MA V, 5MA A. PEDAL PULSES 2+.", "PEDAL"),
    ("Se alcanza un nadir de PSA en julio de 2006 con cifras de 6-8 ng/ml", "con cifras"),
    ("FAMILY: PT REPORTS KIDS WERE NOT HOME AT TIME OF ASSAULT.", "WERE"),
    ("PT WILL NEED CHAIR TIME BACK AT OUTPT UNIT ONCE TRACH DECANNULATED", "OUTPT"),
    ("po now snf w/ trach capability vs ltac; team feels snf appropriate.", "feels snf"),
    ("expected to need ltac then long term vent snf.\n\nmet w/ brother", "vent snf"),
    ("provided emotional support, referred to elder law clinic list.", "law clinic"),
    ("kphos 15mmol).\n- 1700 tf restarted jevity 1.2 @ 20/hr, plan to adv", "jevity"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("son ph 555-0134 call anytime", "555-0134"),
    ("transferred to CMC 4/2 for cath", "CMC"),
    ("Se alcanza un nadir de PSA en julio de 2006 con cifras de 6-8 ng/ml", "julio de 2006"),
    ("Domicilio: Calle Villanueva, 34, 2B .", "Calle Villanueva, 34"),
    ("SONS MARK AND PETER, DAUGHTER-IN-LAW SUE.", "MARK"),
    ("transfer to golden oak hospital tomorrow", "golden oak hospital"),
    ("lives at 228 ringvej 144, denmark", "228 ringvej 144"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("Protamine 50mg IV. DDAVP 0.3mcg/kg. Amicar gtt continued.", "Amicar", Label.PATIENT),
    ("ct surg aware, dr. to see. isuprel discussed, not started.", "isuprel", D),
    ("Pt identifies as Lutheran, wife states faith has always been central", "faith", P),
    ("d/c summary to be faxed by team day of d/c. Rehab fax 555-0147", "day", D),
    ("signed pri. pending review by their don.", "don", D),
    ("CT D/C IN AM IF <100/8H, TRANSFER TO F2 WHEN BED AVAIL.", "F2", H),
    ("plan- rate control, heparin to coumadin bridge, transfer to floor", "bridge", H),
    ("plan- rate control, heparin to coumadin bridge, transfer to floor", "coumadin bridge", H),
    ("cxr: tip at cavoatrial jct, no ptx. ok to use.", "cavoatrial jct", H),
    ("Wt 91.6kg (admit 84, peak 103). Exam: anasarca improving", "103", H),
    ("FAMILY: DAUGHTER TERESA AND GRANDKIDS HERE 1100-1600", "GRANDKIDS", P),
    # one English word after an article as a place, in capitals too
    ("SOCIAL: RETIRED, WORKED AT A CANNERY, LIVES W/ WIFE", "CANNERY", L),
    ("social: retired, worked at a cannery, lives w/ wife", "cannery", L),
])
def test_a_models_charting_words_go(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == []


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("Pt given Senna and colace, Senna Marsh (niece) at bedside", "Senna Marsh", P),
    ("Spoke with wife faith at bedside, pt stable.", "faith", P),
    ("transfer note nsg - micu to kettle 4", "4", H),
    ("ARDS, INTUBATED 8/3 ON FLOOR (KELLER 6?), TRANSFERRED", "6", H),
    # one English word as a place without an article: a town, a ward, a place's name
    ("son called from oxbow, on his way", "oxbow", L),
    ("lives alone in 1st floor apt at 12 wicker st, hollin, uses cane", "hollin", L),
    ("prefers facility closest to her home, kestrel point is 20 min away", "kestrel", L),
    ("SW ARRANGING LODGING AT YAWKEY FAMILY INN.", "INN", L),
    ("unit 1009 box 0219", "unit", L),
    ("pt came from kindred ltac yesterday", "kindred ltac", H),
    ("met w/ pt's wife dot and son rusty", "dot", P),
    ("cm will follow.\nhatch", "hatch", P),
    ("received call from fern at 1400", "fern", P),
    ("he wants to quit. prefers to be called walt.", "walt", P),
    ("contacted hollin police, officer breck (555-0129) will follow", "breck", P),
])
def test_a_models_places_and_names_stay(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label, text.rindex(piece)) == [piece]


@pytest.mark.parametrize(("text", "piece", "recovered"), [
    ("S/P MVR (#29 St Jude mechanical) + TV ring.", "St Jude mechanical", True),
    ("Pt identifies as Lutheran, prays daily", "Lutheran", True),
    ("interpreter for Haitian Creole at bedside", "Haitian Creole", True),
    ("abd left open w/ ABThera then Wittmann patch", "Wittmann", True),
    ("Amicar gtt continued, Isuprel off", "Isuprel", True),
    ("transferred to St Jude Children's yesterday", "St Jude Children's", False),
    ("Mass at First Baptist Church on Sunday", "First Baptist Church", False),
])
def test_the_allowlist(text: str, piece: str, recovered: bool) -> None:
    assert recovered_by_the_allowlist(text, piece, H) is recovered



@pytest.mark.parametrize(("text", "piece", "label", "whole"), [
    ("F/U: Dr. Oyelaran clinic Thursday 12/9 at 10:30", "12/9", Label.DATE, "Thursday 12/9"),
    ("palliative care set for wed 4/7 at 1500 in unit", "4/7", Label.DATE, "wed 4/7"),
    ("vna referral- pellmouth vna, first visit scheduled", "pellmouth", H, "pellmouth vna"),
])
def test_a_span_takes_in_its_weekday_or_head(text: str, piece: str, label: Label,
                                             whole: str) -> None:
    assert kept_of_a_models_span(text, piece, label) == [whole]
