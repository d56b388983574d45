"""Golden cases from the ALL CAPS and number-dense ICU notes (issue 26, dev set 4), both sides:
charting shorthand, sides, rates and units are never spans; names before an age, month/days
with a clock, a culture result or an event word, and names before a phone always are.
Synthetic text only; rules and dictionaries through the real pipeline (with the sparse-PHI
sets' cases of test_sparse_charting), a model's proposals at the guards."""

from __future__ import annotations

import pytest

from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.pipeline import Pipeline
from engine.resolution.chartdates import charting_date
from engine.resolution.guards import guard
from engine.resolution.shorthand import has_name_evidence
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    kept_of_a_models_span,
)
from tests.engine.resolution.test_sparse_charting import SPARSE_ALWAYS, SPARSE_NEVER

P, D, H, L = Label.PERSON, Label.DOCTOR, Label.HOSPITAL, Label.LOCATION

# (text, a piece no span may touch), rules and dictionaries under hipaa.
NEVER = [
    ("LOCALIZES L, WITHDRAWS R. PUPILS R 4MM SLUGGISH", "R. PUPILS"),
    ("DRESSING D+I. WAVEFORM DAMPENED AT 0200, FLUSHED", "I. WAVEFORM"),
    ("EXAM: RASS -1, F/C. LUNGS COARSE.", "C. LUNGS"),
    ("CHEST TUBES: 2 PIV. MEDIASTINAL CT X2 + L PLEURAL CT TO -20 SXN.", "MEDIASTINAL CT"),
    ("CPR CONT. 0126 DEFIB 200J -> PEA, HR 40S.", "DEFIB"),
    ("Camino ICP 14-22, spikes to 28 w/ sx", "Camino ICP"),
    ("IF MAP <60 AGAIN WILL PLACE CVL + START LEVO", "AGAIN WILL PLACE"),
    ("Clinical Pharmacy Note - SICU", "Clinical Pharmacy"),
    ("UPDATED. EXPLAINED HOSPITAL POLICY - NO DETAILS BY PHONE", "HOSPITAL"),
    ("BG 612 IN ED. INITIAL AG 31, PH 7.04", "INITIAL AG"),
    ("BP 110-134/50-60. To EP lab Mon for PPM.", "EP"),
    ("GI: NGT to LIWS, 400-600cc/day output.", "LIWS"),
    ("SELF EXTUBATION AT APPROX 0315, ALARM FROM RM 7", "APPROX"),
    ("Initial Assessment\nPt: Mrs. Hedda Ostrowski, 62F, s/p ex lap", "Mrs"),
    ("RN TAMMY. PT TRACH'D (6.0 SHILEY) 6/24, PEG 6/26", "TRACH'D"),
    ("SET FOR FRI 1400. SISTER CAN BE REACHED AT 508-226-3017", "CAN"),
    ("TRIAL DONE 1400-1800 (4 HRS) PER DAY RT BRUCKNER, TOL WELL", "PER DAY"),
    ("NEURO: EXTUBATED 0240 PER NOC RN, A+OX3 THIS AM", "NOC"),
    ("PLAN: WHEN AG CLOSED X2, OVERLAP SQ LANTUS", "AG"),
    ("GI: tol clears, advance to ADA diet.", "ADA"),
    ("Det. Okoro from PD came by, no info given", "PD"),
    ("33M GSW x2 to LUQ & L thigh", "LUQ"),
    ("SAH (H&H 4, Fisher 3) from ACOM aneurysm, coiled", "ACOM"),
    ("HAI at LTAC. Reported to QI per policy", "QI"),
    ("F/U VASC CLINIC DR HARGREAVES 2 WKS", "VASC CLINIC"),
    ("brother arrives from Halifax. Made DNR, CMO to be addressed", "Made"),
    # English words the name lists hold, in capitals, need a title, relation or credential
    ("REPORT GIVEN TO FLOOR RN WHEN BED ASSIGNED.", "FLOOR"),
    ("RUQ US W/ DOPPLER DONE 1400 - TIPS PATENT", "DOPPLER"),
    ("BEEN DRIVING BACK AND FORTH 50 MIN EACH WAY.", "EACH WAY"),
    ("ALLERGY LIST UPDATED: HALOPERIDOL (NMS).", "LIST"),
    ("OPO: ORGAN PROCUREMENT ORG NOTIFIED PER HOSPITAL POLICY AT 0730", "ORG"),
    # an initial glued to the word before, a microbe, a side: no staff name
    ("AT 0300, PAN CX'D. REMAINS INTUBATED, SEDATED.", "D. REMAINS"),
    ("SKIN: STERNUM + L LEG DSGS D&I. HEELS ON PILLOWS.", "I. HEELS"),
    ("ID: AFEBRILE. H. PYLORI SEROLOGY PENDING. NO ABX.", "PYLORI"),
    ("SPUTUM GROWING K. PNEUMO, ON CEFEPIME", "PNEUMO"),
    ("SPUTUM + H. FLU, ON CTX", "FLU"),
    ("INTUBATED ON ADM W/ R MAINSTEM BLOCKER PLACED BY IP", "MAINSTEM"),
    # a rule's facility of charting words in capitals
    ("PER PT/PM&R, RECOMMEND LTAC VS SNF W/ TRACH CAPABILITY.", "RECOMMEND"),
    ("INSURANCE: COMMERCIAL HMO, REQUIRES AUTH FOR LTAC/SNF.", "AUTH FOR"),
    ("TO MEDICINE FLOOR THIS AFTERNOON. ANTICIPATED HOSPITAL D/C IN 3-4 DAYS.",
     "ANTICIPATED"),
    ("CHECK LIPID PANEL DAILY. OUTPT LIPID CLINIC REFERRAL.", "LIPID CLINIC"),
    ("PLAN: CLOSE AG, TRANSITION TO SQ INSULIN W/ OVERLAP 2H", "CLOSE AG"),
    ("WILL DISCUSS W/ DAY TEAM RE: EARLY RETURN TO OR", "EARLY"),
    ("PT: 37M, CF (F508DEL HOMOZYGOUS), ADM W/ CF EXACERBATION", "DEL"),
    ("TOBI HELD WHILE ON IV TOBRA TO LIMIT OTO/NEPHROTOX", "OTO"),
    ("PLAN: CONT ABX/DEX, MONITOR FOR SHOCK AND DIC", "DEX"),
    ("PLACEMENT VERIFIED BY XRAY AT OUTSIDE HOSP, MARKED 58 CM", "HOSP"),
    ("L FOOT WARM, DP/PT DOPPLERABLE (PT PALPABLE).", "DOPPLERABLE"),
    ("HAS R IJ TLC, R RADIAL ALINE (RN HELD DURING MOBILITY), RECTAL TUBE", "HELD"),
    # a lab and its value, a unit, an ICU word's plural: no street
    ("LDH 940, CK 1100, FERRITIN 4800, PROCAL 0.8, LACTATE 3.2.", "FERRITIN"),
    ("REMOVE R IJ CVL, PLACE PIVS (PRESSORS OFF FOR 48H).", "PIVS"),
    ("READINGS NOW CORRELATE W/ NIBP WITHIN 5-8 MMHG. LINE SITE CLEAN", "MMHG"),
    ("pt will need copies of mar, last 48h of vent settings", "mar"),
    ("cv: sb 50s-60s awake, brady to 38-42 w/ suctioning", "brady"),
    ("opo: organ procurement org notified per hospital policy at 0730", "org"),
    ("FULL THICKNESS TO BILAT NASAL ALAE AND L PALM.", "ALAE"),
    # "MD" who is told, after a word: no credential of a name
    ("NIF -18. FLUID BALANCE +9L LOS, MD AWARE, LASIX STARTED", "LOS"),
    ("fluid balance +9l los, md aware, lasix started", "los"),
]

# (text, a piece spans must cover whole), rules and dictionaries under hipaa.
ALWAYS = [
    ("OR TIME TENTATIVE 3/8 0200. ME NOTIFIED", "3/8"),
    ("CVVHDF INITIATED 4/4 VIA R FEM QUINTON", "4/4"),
    ("nsg 0700-1900, new yr's day. 52 yo m", "new yr's day"),
    ("transferred to CMC 4/2 for cath", "CMC"),
    ("tobra 80 mg q8h. peak 2/27 3.6, trough 2/27 1.4 -> trough too high", "2/27"),
    ("F/U at Lakeside Clinic next week", "Lakeside Clinic"),
    ("SUPPORT GIVEN, SW DELACROIX PAGED.", "DELACROIX"),
    ("Vandermolen here, very upset; Greg cell 472-555-0113.", "Greg"),
    ("WIFE ROSE, SONS MARK AND PETER, DAUGHTER-IN-LAW SUE.", "SUE"),
    ("family leaning towards peg/trach and kindred ltac, plan per team", "kindred"),
    ("B. TOLLER RN AT BEDSIDE FOR REPORT", "B. TOLLER"),
    ("RE: ROSE BAKER, DOB 3/4/1950", "ROSE BAKER"),
    ("Consult note: Anna Kowalczyk, MD", "Anna Kowalczyk"),
    ("Dtr lives in Fall River, MA and calls nightly", "Fall River"),
    ("Domicilio: Calle Les Glories 155, 1B.", "Calle Les Glories 155"),
    ("please send a new one to 609 P.O. Box 186 Apt. 561, ALT-DIETMANNS, Austria", "ALT"),
]


@pytest.mark.parametrize(("text", "piece"), NEVER + SPARSE_NEVER,
                         ids=[c[1] for c in NEVER + SPARSE_NEVER])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), ALWAYS + SPARSE_ALWAYS,
                         ids=[c[1] for c in ALWAYS + SPARSE_ALWAYS])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("ambulance svc for 10am 9/9, conf # GAS-88213.", "9/9"),
    ("BCx 4/2 MRSA 2/2, 4/4 NGTD, 4/6 NGTD.", "4/4"),
    ("BCx 4/2 MRSA 2/2, 4/4 NGTD, 4/6 NGTD.", "4/6"),
    ("OR TIME TENTATIVE 3/8 0200. ME NOTIFIED", "3/8"),
])
def test_a_models_month_day_with_evidence_stays(text: str, piece: str) -> None:
    assert kept_of_a_models_span(text, piece, Label.DATE) == [piece]


def test_fractions_without_evidence_stay_fractions() -> None:
    text = "BCx 4/2 MRSA 2/2, 4/4 NGTD. pain 5/10 0200."
    for piece in ("2/2", "5/10"):
        start = text.index(piece)
        assert not charting_date(text, start, start + len(piece)), piece


# What a model proposes in these notes: (text, piece, label). The guards drop them.
MODEL_PROPOSALS = [
    ("PT WILL NEED COPIES OF MAR, LAST 48H OF VENT/TRACH COLLAR FLOWSHEETS", "MAR",
     Label.DATE),
    ("~25 MIN PRE-DOSE PER RN, VERIFIED W/ MAR).", "MAR", Label.DATE),
    ("CARDIAC REHAB CONSULT. AMBULATE IN HALL W/ PT THIS AM.", "HALL", L),
    ("independent w/ cane, lives w/ partner in 2nd floor apt (1 flight).", "2nd floor apt", L),
    ("LIVED ALONE IN 2ND FLOOR APT, 14 STAIRS, NO ELEVATOR.", "APT", L),
    ("PLAN: TRANSFER TO KELLAND 5 STEPDOWN IF BED", "STEPDOWN", H),
    ("ATTEND FAMILY MTG W/ DR. HALLORAN", "MTG", H),
    ("ROLLOVER ON HWY OUTSIDE GARRAWAY", "HWY", L),
    ("VENT SETTINGS FAXED TO RT DEPT THERE (ATTN CLIVE)", "ATTN", H),
    ("CXR: TIP AT CAVOATRIAL JXN, NO PTX.", "JXN", H),
    ("WOUNDS: SILVADENE DRSG CHANGED 2200", "SILVADENE", D),
    ("RECTAL: BROWN GUAIAC NEG.", "GUAIAC", D),
    ("Pt very HOH, daughter translates", "HOH", P),
    ("PT MAY CONT TO NEED PRESSORS", "MAY", Label.PATIENT),
    ("em 1g q8 + vanco (goal trough 15-20)", "15-20", Label.ID),
    ("dose levo, cr worse (2.8 from 1.9), renal following", "1", Label.PHONE),
    ("HOLLISBURY INN ACROSS STREET, RM 212, # 774.309.5521.", "RM 212", L),
    ("ALARM HEARD FROM RM 7, RN (B. OSTERHAUS) ENTERED", "7", L),
    ("49 yo f sah hunt-hess 3, fisher 3, s/p coiling", "3", L),
    ("severe pancreatitis, ranson 6, apache ii 19.", "19", L),
    # Lower-case notes: what a patient does or is, or has, is no name or place.
    ("explained basics of settings & that weaning is a team decision", "weaning", P),
    ("on arrival here tremulous, confused, hr 50s", "tremulous", L),
    ("84 yo f from marian manor w/ urosepsis. pt lethargic", "urosepsis", L),
]


@pytest.mark.parametrize(("text", "piece", "label"), MODEL_PROPOSALS,
                         ids=[c[1] for c in MODEL_PROPOSALS])
def test_a_models_charting_words_are_dropped(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == []


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("WIFE ROSE AT BEDSIDE", "ROSE", P),
    ("HUSBAND WALT AND SON GREG VISITED", "WALT", P),
    ("0345 GIRLFRIEND DOT CALLED, UPDATED.", "DOT", P),
    ("LIVES IN RYE WITH WIFE", "RYE", L),
    ("SCI unit Hadley 3, accepting MD", "3", L),
    ("lives at 12 Oak St apt 7", "7", L),
    # Lower-case notes name places and people with plain words.
    ("mother in tavish notified by hollin staff, not coming in", "hollin", H),
    ("he wants to quit. prefers to be called walt. lives at ridgecrest", "walt", P),
    ("wife rose at bedside", "rose", P),
    ("SW ARRANGING LODGING AT YAWKEY FAMILY INN.", "INN", L),
    ("IN HIS CAR SINCE LOSING APT ON OLD MILL RD", "OLD", H),
    # A relation in parentheses after, a charge nurse's name, an in-law.
    ("FAMILY MEMBER HOPE (DAUGHTER) AT BEDSIDE HELPING", "HOPE", P),
    ("REMINDED NIGHT CHARGE GINNY TO CALL BY 0530.", "GINNY", P),
    ("SONS MARK AND PETER, DAUGHTER-IN-LAW SUE.", "SUE", P),
    # Roles and titles of the people around a patient; a place after "the"; nicknames.
    ("PT WAS DRY 14 MOS, AA SPONSOR WALT CALLED, MESSAGE PASSED ON.", "WALT", P),
    ("WIFE BEVERLY AND PASTOR REV. OAKES FROM HOPE CHAPEL IN AT 2000.", "OAKES", D),
    ("NO INFO GIVEN. PT'S BOSS HANK LEFT # 555-3012 FOR FAMILY", "HANK", P),
    ("STAFF FROM GROUP HOME (DEB, HOUSE MGR) VISITED", "DEB", P),
    ("UROSEPSIS, HYPOTN. RESIDES AT THE PINES SINCE L MCA CVA", "PINES", H),
    # A listed name, common word or not, as the subject of a verb after pt.
    ("NPN 11P-7A\nPT BAKER HAD A FAIR NIGHT. CONT ON BIPAP", "BAKER", Label.PATIENT),
])
def test_a_models_listed_or_placed_words_stay(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label, text.rindex(piece)) == [piece]


@pytest.mark.parametrize(("text", "first", "second", "kept"), [
    # A lower-case word of a longer name, an institution's kind, and no unit word after a ward.
    ("2 admissions to tavish general this yr", "tavish", "general", ["tavish general", "general"]),
    ("HOME VNA FROM HOLLIN COUNTY VNA LIKE LAST TIME", "HOLLIN COUNTY", "VNA",
     ["HOLLIN COUNTY VNA", "VNA"]),  # the agency takes its head in
    ("PLAN: TRANSFER TO KELLAND 5 STEPDOWN IF BED", "KELLAND 5", "STEPDOWN", ["KELLAND 5"]),
])
def test_a_word_beside_a_name(text: str, first: str, second: str, kept: list[str]) -> None:
    a = text.index(first)
    b = text.index(second, a + len(first))
    spans = [Span(a, a + len(first), H, source=Source.NER, detector="ner.test"),
             Span(b, b + len(second), H, source=Source.NER, detector="ner.test")]
    survivors, _dropped = guard(Document.from_text(text), spans)
    assert [text[s.start:s.end] for s in survivors] == kept


@pytest.mark.parametrize(("text", "name", "evidence"), [
    ("PT RUTHERFORD, DELPHINE, 63 YO F, TRANSFERRED", "RUTHERFORD, DELPHINE", True),
    ("PT MCNAUGHT, 74F IN MICU", "MCNAUGHT", True),
    ("Pt Baker is 46 yo", "Baker", True),
    ("PT INTUBATED, 74F", "INTUBATED", False),
    ("pt cont 46 yo", "cont", False),
    ("social work f/u\n\npt walt quarles 58 yo m s/p mvc", "walt quarles", True),
    ("re: pt benny holcomb who came in fri from their home", "benny holcomb", True),
    # A word no list knows, in a line without case: a name unless it is a slip or a verb.
    ("a/p: pt kowalski pod 2 ex-lap/sbo", "kowalski", True),
    ("RM 22 FOR PEA ARREST. PT OSTERGAARD IS NOW STABLE", "OSTERGAARD", True),
    ("pt remians intubated on ac", "remians", False),
    ("PT DOPPLERABLE PULSES BILAT", "DOPPLERABLE", False),
    ("pt became hypotensive", "became", False),
    ("Pt Kowalski seen today", "Kowalski", True),
    # Two plain nouns, one no English word: a given name and a family name.
    ("quiet night. pt hollis creel slept in 2-3 hr stretches.", "hollis creel", True),
    ("neuro: pt opal grimsby a&ox1-2 early in shift", "opal grimsby", True),
    ("pt restless overnight, prn haldol x1", "restless overnight", False),
    ("pt afebrile overnight, vss", "afebrile overnight", False),
    ("pt family meeting at 1400", "family meeting", False),
])
def test_name_evidence_after_pt(text: str, name: str,
                                                         evidence: bool) -> None:
    start = text.index(name)
    assert has_name_evidence(text, start, start + len(name)) is evidence


@pytest.mark.parametrize(("text", "piece", "kept"), [
    ("LIVES AT HEATHERSIDE ASSISTED LIVING IN KESTLEFORD, USES NEBS",
     "HEATHERSIDE ASSISTED LIVING", True),
    ("WANTS PT TO GO BACK TO OLD MILL NURSING AND REHAB NOT A NEW PLACE",
     "OLD MILL NURSING AND REHAB", True),
    ("90 Y/O WOMAN FROM ST. HILDA'S HOME FOR THE AGED (CORBY FORKS)",
     "ST. HILDA'S HOME FOR THE AGED", True),
    ("PER PT/PM&R, RECOMMEND LTAC VS SNF W/ TRACH CAPABILITY.", "RECOMMEND LTAC", False),
    ("DISCUSSED W/ DR. FITZHUGH AND LTAC LIAISON FROM WILLOW", "FITZHUGH AND LTAC", False),
])
def test_a_rules_facility_in_capitals(text: str, piece: str, kept: bool) -> None:
    """Participles, "and" and "for" are words of names ("ASSISTED LIVING", "HOME FOR THE
    AGED"); an order's verb or a doctor before "and" is charting."""
    start = text.index(piece)
    span = Span(start, start + len(piece), H, source=Source.RULE, detector="regex.facility")
    survivors, _dropped = guard(Document.from_text(text), [span])
    assert bool(survivors) is kept
