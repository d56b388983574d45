"""Golden cases from renal and obstetric ICU notes with sparse PHI, and from dev notes re-typed
in ALL CAPS and lower case (issue 26, dev set 11): devices by a maker's or a place's name,
obstetric and renal drugs, a lab or a blood loss with its value, clocks and clauses read as
streets, diagnoses and units after "to"/"from", charting words before a facility's head, a
unit's nurse, a pain score going on to another, the modal "may"; a Spanish address keeps its
abbreviations. Both sides; synthetic text only; rules and dictionaries through the real
pipeline, a model's proposals at the guards."""

from __future__ import annotations

import pytest

from engine.core.labels import Label
from engine.pipeline import Pipeline
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    kept_of_a_models_span,
)

P, D, H, L = Label.PERSON, Label.DOCTOR, Label.HOSPITAL, Label.LOCATION


@pytest.mark.parametrize(("text", "piece"), [
    # devices and tests known by a name
    ("s/p svd c/b pph ebl approx 3200cc, bakri balloon in place w/ 400cc ns", "bakri"),
    ("Called by RN at 0115 for increasing Bakri output. Pt is G2P2", "Bakri"),
    ("CVVHDF started 2300 via R fem Niagara cath, Prisma M100, citrate anticoag", "Niagara"),
    ("DEVICE: MINNESOTA 4-LUMEN TUBE (SENGSTAKEN-BLAKEMORE NOT AVAILABLE)", "MINNESOTA"),
    ("Difficult airway: grade 3 view w/ Mac 3, failed x1, intubated w/ glidescope", "Mac"),
    ("no fluid in cul de sac, no obvious intraperitoneal blood", "cul de sac"),
    ("MICU Night Resident - Cross cover events\n\n2130 - RN called for HR 140", "Cross"),
    # a lab, a blood loss, a clock or a clause is no street
    ("labs 1800: plt 42 (61), ast 1840 alt 1210 ldh 2650, inr 1.4, fib 198", "ldh 2650"),
    ("+ BLADDER REPAIR FOR PLACENTA PERCRETA, EBL 6000, S/P MTP IN OR", "EBL 6000"),
    ("NO N/V. POST BUN 132. K 4.4. BP 146/78.\n2100 PULSUS 8. PT STATES CP BETTER", "PULSUS"),
    ("fundus boggy\n2320 txa 1g iv over 10 min\n2325 hemabate #2", "txa"),
    ("EPICARDIAL WIRES V X2 ONLY, VVI 50 BACKUP. CT X2 (MEDIAST + L PLEURAL)", "BACKUP"),
    ("imdur/dilt per protocol, asa tonight (6h post op if ct) ok, wean o2", "post op"),
    ("RRT called at 1620 for SBP 78. Floor team gave 1L NS w/ transient improvement", "Floor"),
    # a diagnosis, a unit, a drug or a prefixed word after "to"/"from" is no institution
    ("newly ESRD after failure to recover from ATN, now needs outpt HD", "ATN"),
    ("HRS type 1 progressing to ATN, now on CVVHDF", "ATN"),
    ("transfer to NSICU for EVD placement", "NSICU"),
    ("heparin gtt (no bolus) now, transition to LMWH once afebrile 48h", "LMWH"),
    ("skin to skin with infant when cleared to go to SCN", "SCN"),
    ("GENT: HOLD, RANDOM LEVEL 1800, PLS NOTIFY PHARMACY - WILL NEED TO REDOSE BY LEVELS",
     "REDOSE"),
    ("LASIX 20 IV BID, GOAL NET -1L, BACK TO PREOP WT.", "PREOP"),
    ("3. BRADY - LIKELY FROM HYPERK + BB; PACING PADS ON", "HYPERK"),
    ("replacement fluid changed from bicarb 32 to bicarb 22 solution", "bicarb"),
    # what is said of a stay before a facility's head, in a line without case
    ("BRIEF HOSPITAL COURSE: PT ADMITTED W/ SEVERE CAP", "BRIEF HOSPITAL"),
    ("course even w/ full aggressive care is a prolonged ltac stay w/ infections", "prolonged"),
    ("WIFE GIVEN LTAC ADMISSIONS NUMBER FOR QUESTIONS", "WIFE GIVEN"),
    ("INSURANCE: COMMERCIAL PLAN REQUIRES PRECERT FOR LTAC; CLINICALS FAXED", "PRECERT"),
    ("was planning to start community college in fall", "community college"),
    ("Needs LTAC level of care per team (daily wound care)", "Needs LTAC"),
    ("he is bringing in her pill box tonight so pharmacy can reconcile", "pharmacy"),
    ("SKIN: STAGE III SACRAL, WOUND RN FOLLOWING, AQUACEL AG + FOAM", "AQUACEL AG"),
    ("WEANED TO NC BY HD2. STREP PNEUMO URINARY AG +, BCX 1/2 GPCS", "URINARY AG"),
    # a unit's nurse, a modal, a pain score, a bottle count, diets and agencies
    ("TEARFUL RE: BABY IN NICU, UPDATED BY NICU RN VIA PHONE AT 0100", "NICU RN"),
    ("CHAPLAIN WILL RETURN IN 2 DAYS; PT/WIFE MAY PAGE ON-CALL CHAPLAIN", "MAY PAGE"),
    ("PT STATES CP A LITTLE BETTER (4/10 FROM 7/10) SITTING FORWARD", "4/10"),
    ("blood cx from floor now growing Bacteroides fragilis in 1/2 bottles.", "1/2"),
    ("ALSO DISCUSSED INVOLVEMENT OF OSHA INVESTIGATION - PT ASKED", "OSHA"),
    ("diabetes educator to see pt tmrw.", "tmrw"),
    ("ASKED THAT BABY BE CALLED BY NAME - PER PT'S WISHES. SW FOLLOWING.", "PT'S"),
    ("+ ACCELS 10X10, NO DECELS, CAT I. TOCO: IRRITABILITY, NO REG CTX.", "TOCO"),
    # a medical word that Webster's 2nd predates, known by its suffix
    ("COMMUNITY HOSPITAL ICU (DR. VASHTI)\n\nCC: HYPOXEMIC RESP FAILURE\n\nHPI: 52 YO M",
     "HYPOXEMIC"),
    ("cc: hypoxemic resp failure\n\nhpi: 52 yo m, previously well", "hypoxemic"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("Contacted Wexcombe Renal Unit intake (closest to home)", "Wexcombe"),
    ("transferred to CMH for dialysis access, returned 1400", "CMH"),
    ("PT TRANSFERRED FROM ASHVALE MEDICAL CENTER ON 3/14", "ASHVALE"),
    ("sent from Linfield Birth Center after PPH, accepted by MFM", "Linfield Birth Center"),
    ("lives at 1127 Pelham Terrace, Dorrance MA 02190", "Pelham Terrace"),
    ("D/C PLAN: TO KINDRED LTAC WHEN TRACH STABLE", "KINDRED"),
    ("DAUGHTER ADA AT BEDSIDE, UPDATED ON PLAN", "ADA"),
    ("works for Siemens AG in Erlangen, on leave", "Siemens AG"),
    ("Domicilio: Calle Gral. Rey, 2.\nLocalidad/ Provincia: Madrid", "Gral"),
    ("Records requested from PMH, pt agreeable.", "PMH"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("ANSWERED QUESTIONS W/ RENAL FELLOW PRESENT, MAY OR MAY NOT RECOVER.", "MAY OR MAY",
     Label.DATE),
    ("CP A LITTLE BETTER (4/10 FROM 7/10)", "4/10", Label.DATE),
    ("7. DISPO - OK FOR TRANSFER TO L&D / POSTPARTUM HIGH RISK BED", "L", H),
    ("plan transfer to postpartum floor tomorrow if stable.", "postpartum floor", H),
])
def test_a_models_charting_words_go(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == []


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("last HD run 4/10 at outside unit, K 6.1 on arrival", "4/10", Label.DATE),
    ("pt wants to be home by may, for daughter's wedding", "may", Label.DATE),
])
def test_a_models_dates_stay(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == [piece]
