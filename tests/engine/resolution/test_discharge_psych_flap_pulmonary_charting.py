"""Golden cases from case-management, psychiatry, head-and-neck flap and pulmonary ICU notes
with sparse PHI (issue 26, dev sets 15 and 16): what one does with a kind of place, clinics and
floors named by their service, shorthand and lists after "from", criteria, lamps, boots,
cannulas and pumps known by a name, a setting changed "to" another, lymph-node counts, a vest's
frequencies, a value's trend, a form's number, a clock after a unit, a side before an English
word, a title before its verb. Both sides; synthetic text only; rules and dictionaries through
the real pipeline, a model's proposals at the guards."""

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
    # kinds of places and what one does with them
    ("pt/ot recommending snf level rehab. pt has medicare a", "snf"),
    ("independent at home. uses mail order pharmacy for most meds.", "pharmacy"),
    ("RAN OUT OF ROOM TOWARD UNIT DOORS, WEARING HOSPITAL GOWN AND SOCKS", "HOSPITAL"),
    ("labs faxed to the nutrition support clinic. cadd pump and pole sent", "clinic"),
    ("INSURANCE AUTH PENDING. DEVICE CLINIC F/U 7-10 DAYS (WOUND CHECK)", "DEVICE CLINIC"),
    ("Radiation Oncology / Dental Oncology Joint Clinic Note\n\nPt seen today", "Joint Clinic"),
    ("pt is 2nd yr community college student, lives w/ mother", "community college"),
    ("DIGOXIN PERMANENTLY D/C'D FROM MED LIST (CARDS AWARE)", "MED"),
    ("9. Pain: transitioned from PCA to oxycodone 5-10 mg q4 prn", "PCA"),
    ("rfff to r tongue. transfer to ent step-down planned this afternoon", "ent"),
    ("RENAL TEAM REQUESTS CHAIR CLOSE TO HOME, TIW. REFERRAL PACKET FAXED", "TIW"),
    # names of criteria, lamps, boots, pumps and cannulas; a pressure; a lead
    ("King's College criteria: pH >7.3 but INR >6.5", "King's College"),
    ("Woods lamp fluorescence equivocal", "Woods"),
    ("compression wraps (Unna boot, change q3-4 days)", "Unna"),
    ("RPE 15/20, dyspnea 6/10 Borg. Recovered to sat 92", "Borg"),
    ("ECMO: DUAL LUMEN CANNULA R IJ (AVALON 27FR), POSITION CHECKED", "AVALON"),
    ("GI: CARDIAC/ADA DIET, TOL, NO N/V.", "ADA"),
    ("2 sessions at 2.8 ata then 2.0 ata, returned here intubated", "ata"),
    ("KCL 40MEQ IV + MG 2G. 12 LEAD ST, NO CHANGES. NO FURTHER RUNS.", "12 LEAD ST"),
    ("labs: na 129, k 4.6, cr 1.5 (0.9), bnp 3210, trop <0.01", "bnp 3210"),
    ("declined listing at that time for b. cenocepacia (genomovar iii)", "cenocepacia"),
    # numbers that are no dates
    ("0800 ps decreased to 10/5, tolerated 30 min, rr 24, vt 360-420", "10/5"),
    ("re-excision margin clear by 2mm. PNI+. 4/42 nodes positive, ENE present", "4/42"),
    ("Nodes: 3/31 positive (L IB x1, L IIA x2), largest 2.1 cm", "3/31"),
    ("smartvest 20 min, 12-14-16 hz x ~6-7 min each", "12-14-16"),
    # a side before an English word, a title before its verb
    ("FLAP PEDICLE ON L. PREOXYGENATED ON 100% VIA TC X 3 MIN.", "PREOXYGENATED"),
    ("ADDED TRAMADOL BY PCP. DR STATES PT HAD VOICED SI AT LAST VISIT", "STATES"),
    # the same notes in capitals (re-typed dev notes)
    ("IF SHE CAN TOLERATE 3 HRS THERAPY/DAY, OTHERWISE SNF / SUBACUTE.", "SNF"),
    ("NICARDIPINE OFF SINCE 1600 YEST. REPEAT CT STABLE. PT PULLED PIV X1.", "YEST"),
    ("NOTIFIED NEURO ICU RESIDENT 2030, CAME TO EVAL, FELT EXAM SIMILAR", "EVAL"),
    ("INR 1.6 -> 2 FFP. TOT CT OUTPUT SINCE ARRIVAL 690CC.", "TOT CT"),
    ("CHARGE RN AND PHARMACY AWARE OF IVF ORDER ISSUE.", "PHARMACY"),
    ("MRSA SUPERINFECTION - SNF PHARMACY CAN ACCEPT IV ABX VIA PICC.", "PHARMACY"),
    ("NEW PRESCRIPTIONS - PT USES LOCAL PHARMACY, NO COPAY ISSUES.", "PHARMACY"),
    ("PT'S NEIGHBOR DRIVES PT TO APPTS. CONFIRMED NEIGHBOR AVAILABLE", "APPTS"),
    ("AT 2200. HOME INFUSION PHARMACY WAS PLANNING FOR DC", "HOME INFUSION PHARMACY"),
    ("- CONT HD UNTIL OSM GAP CLOSED AND AG NORMALIZED. RECHECK BMP", "AG"),
    ("HAS BEEN STAYING IN HOTEL NEAR HOSPITAL; COST IS A CONCERN.", "HOSPITAL"),
    ("IN PERSISTING THROUGH MANY HOSPITAL STAYS. PT SAID MUSIC HELPS", "HOSPITAL"),
    ("LARGEST 2.2CM, ENE PRESENT IN ONE NODE (LEVEL IIA, ~1MM).", "ENE"),
    ("TRISMUS - MIO 28 MM.\nNECK: INCISION HEALING", "MIO"),
    ("1. SEND HIT ANTIBODY (PF4 ELISA) AND SRA STAT.", "ELISA"),
    ("PROPOFOL/REMI TIVA (AVOID VASOCONSTRICTORS)", "REMI"),
    ("MRI DWI - R MCA SUPERIOR DIVISION INFARCTS", "DWI"),
    ("FACILITIES REQUIRE DECANNULATION OR CUFFLESS ONLY - PT CUFFLESS, OK).", "CUFFLESS"),
    ("TO CHANGE TO 3% HTS AT NEXT TX AND WILL PAGE MD IF RECURS.", "PAGE"),
    ("PAH ON HOME FLOLAN, ADM 2/2 WORSENING RV FAILURE, INCR LE EDEMA", "2/2"),
    ("SWAPPED Q12H - NEXT 0300). DOCUMENTED ON MAR + PROSTACYCLIN FLOWSHEET.", "MAR"),
    # a kind of vendor without a name
    ("BLS AMBULANCE BOOKED FOR 1400 PICKUP", "BLS AMBULANCE"),
    ("pt on Supplemental Oxygen, weaned to 2L", "Supplemental Oxygen"),
    ("PT ON HOME OXYGEN 2L AT BASELINE", "HOME OXYGEN"),
    ("Venturi Oxygen mask 40%, sats 93%", "Venturi"),
    ("Propofol Infusion started at 1400 for agitation", "Propofol"),
    ("THYMOGLOBULIN INFUSION #2 TODAY, PREMEDICATED", "THYMOGLOBULIN"),
    ("pt prefers to be called by her first name per daughter", "first name"),
    ("son (hcp) at bedside, mother (deceased) had the same", "hcp"),
    ("son (hcp) at bedside, mother (deceased) had the same", "deceased"),
    ("**GUARDIAN (CHIN) STITCH IN PLACE - NECK FLEXED", "CHIN"),
    ("sent to Study Drug pharmacy, Trauma Center aware, Baxter PD cycler at home", "Study"),
    ("referred to the Outpatient Renal Center for chair time", "Outpatient Renal Center"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("pt/ot recommending Brookfield Rehab for 2 wks", "Brookfield Rehab"),
    ("follow up at Larchmont Head and Neck Clinic in 2 wks", "Larchmont"),
    ("transfer to Kessler 3 when bed available", "Kessler 3"),
    ("pain started on 10/5 after the fall at home", "10/5"),
    ("dr. Anselm states pt had voiced SI", "Anselm"),
    ("per R. Smith RN, pupils brisk", "R. Smith"),
    ("ABX: START PIP/TAZO AFTER BCX X2 (BCX 2/2 NGTD).", "2/2"),
    ("PT WILL FOLLOW UP AT LAKESIDE HOSPITAL NEAR HER SISTER", "LAKESIDE HOSPITAL"),
    # vendors and psychiatric units by a name and their kind
    ("BLS AMBULANCE BOOKED W/ CORLISS AMBULANCE FOR 1400 PICKUP", "CORLISS AMBULANCE"),
    ("home infusion referral accepted by quarrymoor home infusion. their pharmacist",
     "quarrymoor home infusion"),
    ("SENT TO DME. VENDOR TIDEWELL HOME MEDICAL RT WILL DELIVER MACHINE",
     "TIDEWELL HOME MEDICAL"),
    ("RECOMMEND INPT PSYCH, LIKELY WENDOVER PAVILION.", "WENDOVER PAVILION"),
    ("CALLED NORTHRIDGE CRISIS STABILIZATION UNIT, NO BEDS UNTIL AM",
     "NORTHRIDGE CRISIS STABILIZATION UNIT"),
    ("New order + CMN sent to Quenby Home Oxygen: concentrator in home", "Quenby Home Oxygen"),
    ("supplies she brought from Lattimer Specialty Rx rather than ours",
     "Lattimer Specialty Rx"),
    ("REFILL DELIVERY FROM AEROVALE OXYGEN MISSED ON WEEKEND", "AEROVALE OXYGEN"),
    ("last filled at corrigan drug about 5 wks ago.", "corrigan drug"),
    ("CALLED HOLLOWELL RESPIRATORY CARE AT 555-0144 - INTAKE", "HOLLOWELL RESPIRATORY CARE"),
    ("AFTER ARMED ROBBERY PER REPORT. DUNMARROW PD OFFICER AT BEDSIDE", "DUNMARROW"),
    ("KPCI TUMOR BOARD, THURS 10/9", "KPCI"),
    ("renal team wants mwf 1st shift. contacted wexcombe renal unit intake", "wexcombe"),
    # a preferred name without quotes, a relative's name in brackets, in capitals
    ("R-SYNCOPE AT HOME. PREFERS TO BE CALLED DELPHINE.\n\nNEURO: A&OX3", "DELPHINE"),
    ("HELD A BRIEF CALL W/ THE SISTER (ILDA) VIA INTERPRETER AT 1400", "ILDA"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("p <10, lfts trending down (ast 212 from 480).", "480", Label.PHONE),
    ("ESRD MEDICARE ENROLLMENT FORM 2728 TO BE COMPLETED BY RENAL SW", "2728", Label.ID),
    ("NEW JPS X2. BACK TO SICU 0510. Q1H FLAP CHECKS", "0510", Label.HOSPITAL),
    ("TRANSFER BACK TO ENT STEP-DOWN WHEN RATE CONTROLLED", "ENT STEP-DOWN", Label.HOSPITAL),
    ("Head and Neck Surgery Clinic - Post-op Visit\n\nSeen for 2 wk check", "Head and Neck "
     "Surgery Clinic", Label.HOSPITAL),
    ("RN VERIFIES + DOCUMENTS EACH DOSE", "VERIFIES", Label.DOCTOR),
])
def test_a_models_charting_goes(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == []


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("daughter can be reached at ext 480 after 5pm", "480", Label.PHONE),
    ("MRN 44820173, admitted from home", "44820173", Label.ID),
])
def test_a_models_identifiers_stay(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == [piece]


@pytest.mark.parametrize(("text", "piece", "recovered"), [
    ("pt w/ idiopathic PAH on home Flolan, adm for RV failure", "Flolan", True),
    ("FOUND FLOLAN TUBING KINKED UNDER PT'S HIP", "FLOLAN", True),
    ("Woods lamp fluorescence equivocal", "Woods", True),
    ("spoke with Mr. Woods about the plan", "Woods", False),
])
def test_the_allowlist(text: str, piece: str, recovered: bool) -> None:
    assert recovered_by_the_allowlist(text, piece, Label.PERSON) is recovered
