"""Golden cases from end-of-life and thoracic-surgery ICU notes with sparse PHI (issue 26, dev
set 12): a nickname in quotes, a timed entry or a call's time as no identifier, a service or a
state before a credential, which cup and not which day, a language after "limited", charting
before a hospice, diagnoses and inhalers after "to", eponymous operations. Both sides;
synthetic text only; rules and dictionaries through the real pipeline, a model's proposals at
the guards."""

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
    ("Consent on chart.\n\n1100 - To bronch w/ RN and monitor. Sat 93%", "1100"),
    ("Morgue aware. OPO called per policy 2215 - not a candidate for donation.", "2215"),
    ("Thoracic Surgery PA Progress Note\n\nS: sore but ok.", "Thoracic Surgery"),
    ("mild epigastric fullness after the 2nd cup, resolved when upright", "2nd"),
    ("family (wife, son, 2 daughters) speak limited english. interpreter called", "limited"),
    ("ASKED IF HE COULD GO TO A BIGGER HOSPITAL FOR SURGERY", "BIGGER"),
    ("ROOM AND BOARD ISSUES, DIFFERENCE BETWEEN FREESTANDING HOSPICE HOUSE VS HOSPICE",
     "FREESTANDING"),
    ("HAD DECLINED HOSPICE INFO 2 MOS AGO.", "DECLINED"),
    ("SALINE LOCKED, LEFT IN PLACE FOR HOSPICE. FOLEY REMOVED", "PLACE FOR"),
    ("pt and wife want transfer to inpt hospice rather than dying in icu.", "inpt"),
    ("rapidly progressing to ARDS, refractory shock, and DIC", "ARDS"),
    ("Resume LABA/ICS (nebulized budesonide bid while acute)", "LABA"),
    ("now s/p 3-field (McKeown) esophagectomy w/ gastric pull-up", "McKeown"),
    ("pt known as \"the mayor\" of the unit by staff", "mayor"),
    ("he calls her \"honey\" at the bedside", "honey"),
    # caseless charting before a head, a thing given to a relative
    ("REVIEWED THAT SHE DOES NOT CALL 911, SHE CALLS HOSPICE, AND WHAT THEY WILL DO.", "CALLS"),
    ("PUMPING: HAS USED HOSPITAL GRADE DOUBLE ELECTRIC PUMP 3X SINCE BIRTH", "ELECTRIC"),
    ("confirm d/c date w/ team, update hospice liaison. sw will follow", "hospice"),
    ("FUNCTIONING GRAFT UNTIL THIS ADMISSION. LAST CLINIC VISIT 6 WKS AGO", "CLINIC"),
    ("RESP VIRAL PANEL NEG, LEGIONELLA URINE AG NEG, FUNGAL MARKERS PENDING", "URINE AG"),
    ("- GIVE DAUGHTER LIST OF REHAB FACILITIES", "LIST"),
    ("PLAN: TRANSFER TO TX STEP-DOWN TOMORROW IF BX NEG", "TX"),
    ("Still NPO. Deconditioned, PT/OT recommend acute rehab vs LTAC", "Deconditioned"),
    ("5. RD F/U AT THORACIC CLINIC 1-2 WKS POST DC.", "THORACIC"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("She states her mom always went by \"Ruthie\" and never wanted fuss", "Ruthie"),
    ("CHILDREN REFER TO PT AS \"MAMA JO\" AND BROUGHT PHOTOS.", "MAMA JO"),
    ("DAUGHTER SAID HER FATHER, KNOWN AS \"HOOK\" SINCE HIS NAVY DAYS, WOULD NOT WANT", "HOOK"),
    ("pt prefers to be called \"bunny\" per daughter", "bunny"),
    ("MRN: 20150433", "20150433"),
    ("plan transfer to cmh tomorrow for dialysis", "cmh"),
    ("Seen by Lina Okafor, PA-C at 0900", "Lina Okafor"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("Attending Dr. Harrowgate notified by phone 2355, agrees.", "2355", Label.PHONE),
    ("AND NECKLACE GIVEN TO HUSBAND, SIGNED. MORGUE AWARE. OPO CALLED", "MORGUE", Label.DOCTOR),
    ("husband concerned re: bills, sw provided financial counselor info", "bills",
     Label.PATIENT),
    ("CXR W/ ? NEW RLL OPACITY, MD AWARE.", "RLL", Label.DOCTOR),
    ("- DR. LINDQVIST, PALLIATIVE MEDICINE", "PALLIATIVE MEDICINE", Label.HOSPITAL),
    ("W/ RENAL FELLOW PRESENT, MAY OR MAY NOT RECOVER.", "MAY", Label.DATE),
    ("Air leak from anterior CT now 2/7 w/ cough (was 1/7), PA aware", "2/7", Label.DATE),
    ("NSG TRANSFER NOTE - MICU TO INPT HOSPICE", "INPT HOSPICE", Label.HOSPITAL),
    ("net -1.8l. wt 101.4 (admit 94, peak 108). edema improving.", "peak 108", Label.HOSPITAL),
])
def test_a_models_charting_goes(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == []


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("daughter can be reached at 4412 (unit desk), ext on file", "4412", Label.PHONE),
    ("safety report filed. pt's wife birdie notified by dr by phone", "birdie", Label.PERSON),
    ("Re: Hollis Marsh, DOB on file", "Hollis Marsh", Label.PATIENT),
    ("f/u at Larchmont Spine Center next week", "Larchmont Spine Center", Label.HOSPITAL),
    ("extubated 2/7 at 1400 (was intubated 1/29)", "2/7", Label.DATE),
])
def test_a_models_identifiers_stay(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == [piece]


@pytest.mark.parametrize(("text", "piece", "recovered"), [
    ("plan: ct to water seal in am if output <200", "water seal", True),
    ("now s/p 3-field (McKeown) esophagectomy", "McKeown", True),
    ("Dr. McKeown saw the patient this morning", "McKeown", False),
])
def test_the_allowlist(text: str, piece: str, recovered: bool) -> None:
    assert recovered_by_the_allowlist(text, piece, Label.HOSPITAL if "seal" in text
                                      else Label.DOCTOR) is recovered
