"""Golden cases from ICU notes with sparse PHI written in rural trauma care, a British NHS
unit, an advanced heart failure unit, among farmworkers, in Hawaii, in therapy notes, in a
pediatric cardiac unit, in telephone logs, among the Amish and in a neurosurgical unit (issue
26, dev sets 43-48): a model's day/month date with charting context, a ward named after a
move, a general practice, a name after "Doña", what parents call a child, a pager after "pg",
British and Australian phone numbers, a named place of nature, a sign-out's patient by bed, a
resident by year of training or British grade, a consultant on a service's line and a trauma
alias are PHI, the honorific and a relation word before a name are not; British units and
grades, a pay band, stool and sedation scales, collars, farm places, a home landline, an INR
meter, a valve's grade after "MR", a hospital-number label, what a relative did, a single
ventricle's staged operations, Pacific peoples, a family's word for itself, lifts and walkers
by their makers, a language of the Amish, a region of the world, a table's cells and a
headache's score are not. Both sides; synthetic text only; rules and dictionaries through the
real pipeline, a model's spans through the guards."""

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
    ("Handover: to floor: Whitcomb 4 trauma, accepting team trauma B.", "Whitcomb 4"),
    ("3. GP (Fernside Surgery) to be informed re new inhaler", "Fernside Surgery"),
    ("Pt is known to family as Doña Chepa.\nReviewed goals", "Chepa"),
    ("PT: GARFIELD MUNROE   HOSP NO: RX7741026\nVARICEAL BLEED", "GARFIELD MUNROE"),
    ("s/p bidirectional Glenn POD 3. Parents call her Peanut; she tracks faces", "Peanut"),
    ("will f/u weekly and prn. pg 2281 w/ questions. - wound/ostomy rn", "2281"),
    ("plan per cards: pre-glenn cath. s/p Norwood. Glenn Ashby (dad) called", "Glenn Ashby"),
    ("day -> night sign-out 1845\nbed 3 hershberger: hd 5 silo gas ards", "hershberger"),
    ('TO OR IN 24-48H. ARMBAND ALIAS "TRAUMA ZULU 4417" UNTIL IDENTITY CONFIRMED', "ZULU 4417"),
    ("floor (brennan 6) when bed available\n- achebe, nsgy pgy-2", "achebe"),
    ("PROCEDURE PERFORMED BY DR. KINLEY, PGY-1, UNDER DIRECT SUPERVISION OF", "KINLEY"),
    ("call 617 555 0142 or (617) 555-0142 after 1800", "617 555 0142"),
    ("2330 w/ minimal effect. reg achebe reviewed 0010, started dexmedetomidine", "achebe"),
    ("supported by bedside nurse and SNOD Ashdown. Family aware", "Ashdown"),
    ("discharge if conduction normal\nCards: Delacroix", "Delacroix"),
    ("Avoid gadolinium.\nNdiaye, Nephrology", "Ndiaye"),
    ("son prefers mobile 07700 900123 after 1700", "07700 900123"),
    ("Poisons advice line 1300 655 506 called re dose", "1300 655 506"),
    ("face-down in water while spearfishing off Kaiolu Point, pulled to shore", "Kaiolu Point"),
    ("sister is driving up from Ridgemont Falls this weekend", "Ridgemont Falls"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("Pt is known to family as Doña Chepa.\nReviewed goals", "Doña"),
    ("PT: GARFIELD MUNROE   HOSP NO: RX7741026\nVARICEAL BLEED", "HOSP"),
    ("Referred by: Medical Reg from AMU\nReason for referral: septic shock", "Medical Reg"),
    ("Referred by: Medical Reg from AMU\nReason for referral: septic shock", "AMU"),
    ("high risk of failure. Extubate to NIV (IPAP 14 / EPAP 5) prophylactically", "NIV"),
    ("M thrown from ATV while checking cattle, found by neighbor", "ATV"),
    ("home w/ outpatient PT at FQHC (sliding scale) + HEP", "FQHC"),
    ("Propofol + fentanyl gtt, RASS (Richmond) -3 to -4.", "Richmond"),
    ("- C-collar (Aspen), spine f/u re C2 fracture", "Aspen"),
    ("BO x1 Bristol 6. Omeprazole continued.", "Bristol"),
    ("present: bedside nurse (Band 6), daughter, son", "Band"),
    ("per ASPEN/AND criteria: ~10% wt loss over 6 mo", "ASPEN"),
    ("Function: Rancho Los Amigos level VI, min assist transfers", "Amigos"),
    ("mobilising w/ zimmer frame and 1 assist. bloods improving", "zimmer"),
    ("hose coupling failed on nurse tank while pt hooking to applicator", "tank"),
    ("6. Baby: well, on postnatal ward w/ partner - mum keen to see baby", "ward w"),
    ("then d/c from ccot caseload if stable. icu follow up clinic referral made", "follow up"),
    ("Lines: RIJ ProtekDuo, L SC CVC, R radial A-line", "RIJ"),
    ("5300: LVIDD 6.5, AV OPENS 1:2, MR MILD-MOD, FLOW 4.1, PI 4.8", "MILD-MOD"),
    ("Family is Catholic, prays to the Virgen de Guadalupe, asked for a rosary", "Guadalupe"),
    ("GP aware; General Surgery to review the wound", "General Surgery"),
    ("Parents call her NP each evening for an update", "NP"),
    ("Cath Lab Handoff to CICU\nProcedure: diagnostic cath", "Cath Lab"),
    ("RESIDENT SIGN-OUT\nPT: HLHS S/P NORWOOD/SANO POD 9, ON RA", "HLHS"),
    ("Rm 10 - HHS, glucose 880 -> 410. Insulin gtt per protocol", "HHS"),
    ("TEE: MILD TR, GOOD RV FXN, UNOBSTRUCTED GLENN. S/P NORWOOD 8/2", "GLENN"),
    ("glenn incision healing, steri strips intact. hlhs s/p norwood", "glenn"),
    ("G-tube if PO < 50% at 4 wks (Nissen not indicated unless reflux)", "Nissen"),
    ("A/P:\n1. HACE - cont dexamethasone 4 mg q6h\n2. Rhabdo - IVF, CK q8h", "Rhabdo"),
    ("Background: 81 yo Chamorro F w/ longstanding parkinsonism-dementia", "Chamorro"),
    ("Other dx considered: lepto (PCR sent), chikungunya/Zika PCR sent", "Zika"),
    ("total IgE + Aspergillus-specific IgE sent given eos", "IgE"),
    ("family sang Hawai'i Aloha.\nPost-extubation: RR 24", "Aloha"),
    ("OOB to chair w/ Sara Stedy w/ nursing. XXL Maxi Move sling obtained", "Sara Stedy"),
    ("OOB to chair w/ Sara Stedy w/ nursing. XXL Maxi Move sling obtained", "Maxi Move"),
    ("Balance: Berg 38/56 -> mod fall risk.", "Berg"),
    ("CARDIAC REHAB PHASE I. ANTICIPATE D/C HOME W/ FAMILY", "ANTICIPATE"),
    ("BASELINE AMBULATES W/ L AFO + CANE.", "AFO"),
    ("PT re-eval requested for d/c recs. Discussed at IDT rounds.", "re-eval"),
    ("PT re-eval requested for d/c recs. Discussed at IDT rounds.", "IDT"),
    ("NOTE: CALLER IDENTITY CONFIRMED VIA PT PASSCODE. PT ALERT", "PASSCODE"),
    ("Wife at bedside, speaks Pennsylvania Dutch at home", "Pennsylvania Dutch"),
    ("E COLI (PAN-SENS). ZOSYN -> CEFTRIAXONE/METRO HD 3.", "METRO"),
    ("pH normalized after 4 L irrigation via Morgan lens.", "Morgan"),
    ("a 3-month church mission/relief trip in West Africa, partial prophylaxis",
     "West Africa"),
    ("Time\tQb\tQd\tUF net\n0000\t200\t2000\t-100\n0100\t200\t2000\t-100", "200\t2000"),
    ("0200 GCS 15, C/O HA 6/10 -> TYLENOL 650 + OXYCODONE 5", "6/10"),
    ("NO NEW BLEED. CONT Q1H NEURO CHECKS, OSMO Q6H.", "OSMO"),
    ("suboccipital decompression (Chiari), extubated, pain control", "Chiari"),
    ("Surgical Resident, PGY-3 on call", "Surgical Resident"),
    ("Cards: Following\nNeuro: Intact\nRenal: Cr 1.2", "Following"),
    ("insulin reg 5 units sc before meals", "units"),
    ("I/O: in 1800, out 1300, net +500", "1800, out 1300"),
    ("SpO2 at Rest Point 88%, dropped to 84% with exertion", "Rest Point"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("stepped down from icu 23/4 to lister ward, seen today", "23/4", Label.DATE, ["23/4"]),
    ("EXTUBATED 14/11 0930, ON HFNC SINCE", "14/11", Label.DATE, ["14/11"]),
    ("PEEP 22/5, FiO2 40%, tolerating", "22/5", Label.DATE, []),
    ("44 YO F ON HYDROCORTISONE 15/5 + FLUDROCORTISONE", "15/5", Label.DATE, []),
    ("Palliative will follow, available 24/7.", "24/7", Label.DATE, []),
    ("Cousin Eusebio agreed pt can stay at his home", "Cousin Eusebio", Label.PERSON,
     ["Eusebio"]),
    ("bedside nurse and SNOD Ashdown. Family aware", "SNOD Ashdown", Label.DOCTOR,
     ["Ashdown"]),
    ("Referred by: Reg Hollis\nReason: sepsis", "Reg Hollis", Label.DOCTOR, ["Reg Hollis"]),
    ("daughter rang 0600, updated re agitation overnight", "rang", Label.PERSON, []),
    ("wife joy at bedside, updated", "joy", Label.PERSON, ["joy"]),
    ("~1030. foreman drove him in by pickup, arrived 1150.", "foreman", Label.PERSON, []),
    ("fell ~12 ft through hay loft opening onto concrete", "hay loft", Label.HOSPITAL, []),
    ("tractor rollover on hillside pasture, pinned by L leg", "hillside pasture",
     Label.LOCATION, []),
    ("weeds along an irrigation ditch in a pistachio orchard outside town",
     "pistachio orchard", Label.LOCATION, []),
    ("callback: 701/555/0147 (home landline, no cell service at farm)", "landline",
     Label.LOCATION, []),
    ("Anticipate transfer to antepartum unit in 24-48h if stable.", "antepartum unit",
     Label.HOSPITAL, []),
    ("PT: GARFIELD MUNROE   HOSP NO: RX7741026\nVARICEAL BLEED", "HOSP", Label.PATIENT, []),
    ("Ohana present throughout, approx 15 members rotating", "Ohana", Label.DOCTOR, []),
    ("Family: auntie Fetu is primary contact", "auntie Fetu", Label.PERSON, ["Fetu"]),
    ("Kahu Aukai from the family's church led pule", "Kahu Aukai", Label.DOCTOR, ["Aukai"]),
    ("ROLLOVER ON HILLSIDE FIELD (STEEL-WHEELED TRACTOR)", "HILLSIDE FIELD", Label.LOCATION,
     []),
    ("REASON: VF ARREST AT BARN RAISING\n42 YO M", "BARN RAISING", Label.LOCATION, []),
    ("then home to the grossdaadi haus attached to son's farmhouse", "grossdaadi haus",
     Label.LOCATION, []),
    ("family gets msgs at neighbor. metabolic clinic following closely", "metabolic clinic",
     Label.HOSPITAL, []),
    ("locked stopcocks, transducer releveled at tragus, no kinks.", "tragus", Label.LOCATION,
     []),
    ("cards fellow dr akana paged (pgr 7-4410), at bedside", "akana paged", Label.DOCTOR,
     ["akana"]),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("power 4.2 W. Doppler MAP 76-84", "W. Doppler", Label.DOCTOR),
    ("ICU Consultant Ward Round - Day 4", "Ward", Label.PERSON),
    ("home INR monitoring (CoaguChek) to be set up by VAD team", "CoaguChek", Label.PERSON),
])
def test_named_things_are_no_name(text: str, piece: str, label: Label) -> None:
    assert recovered_by_the_allowlist(text, piece, label)
