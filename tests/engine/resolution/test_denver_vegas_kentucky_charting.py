"""Golden cases from ICU notes of session 56 (issue 26; dev set 95: a Denver neuro and trauma ICU
and Mexican, Ethiopian, Mongolian and ranching families, a Detroit ICU and Chaldean, Yemeni and
Bangladeshi families; dev set 96: a Las Vegas ICU and Filipino, Samoan and casino workers'
families, a Kentucky trauma ICU and Appalachian, Bosnian and Congolese families; dev set 97: a
Charlotte or Raleigh cardiac surgical ICU and Montagnard, Hmong and Lumbee families, a Spokane or
Yakima ICU and Marshallese, Ukrainian and Yakama families; dev set 98: an Albuquerque ICU and
Navajo, Zuni and Hispano families, a Nashville cardiac ICU and Kurdish, Coptic and Appalachian
families; dev set 99: a Salt Lake City or Provo ICU and Navajo, Ute, Tongan and dairy workers'
families, a Bronx ICU and Dominican, Garifuna, Ghanaian and Albanian families; dev set 100: a
Fresno or Bakersfield ICU and Hmong, Punjabi Sikh and Mixteco families, a Baltimore ICU and
Black, Korean, Salvadoran and Nigerian families; dev set 101: a Billings or Great Falls ICU and
Crow, Northern Cheyenne and Blackfeet families, a Newark or Paterson ICU and Portuguese,
Brazilian and Ecuadorian families).

PHI: a month and day after a dose an ordinal has counted ("peak after 3rd dose 8/11", "NEXT
DOSE 6/10"); the surname between commas after the patient's age and sex ("PT: 46 YO F, LEFITI,
HX ..."); a clinician after a field that names the post ("Covering: Lutz"); whom a hospital is
for, in its name's case ("Mercy Colfax Women's"); a bed's patient by age and sex though the
surname is an English word ("BED 6 BOWLING 39 F"); a nickname in quotes between a sign-out
item's name and its age; the surname after "pt" before a subject verb though no list holds it
("PT HEINE RETURNED FROM OR"); a device's day ("HeartMate 3 implanted 1/8"); an initial after
a bed's number ("Bed 3 M. Alston"), no unit after a number; a clinician's name before a
pager ("MD ON: NGO PGR"); a post-acute home's head ("LONE MOUNTAIN POST-ACUTE"), a long-term
acute care hospital's and a relief fund's; a day after an admission to a unit and its colon
("Admit to MICU: 2/8"); a nickname in quotes in capitals after the age and sex or the name
('PT IS A 38 YO M "SKEETER"', 'CANTRELL, LONNIE ("HOSS")'); the surname after "pt" before
"reached", "refused", "asked", "transported" and their like ("PT TABBEE REACHED AND PULLED
ETT"); a phone number after the clock time it was called at ("AT 0315 410 5550184"); Crow,
Blackfeet and Northern Cheyenne family names of English words ("HEAVY RUNNER, CLIFFORD",
"Takes The Gun"); the day of a drug's last dose ("LAST APIXABAN DOSE 9/6 AM"); a burn unit by
its name.

Not PHI: a nationality after the patient's sex before a credential ("47 yo M Filipino, RN"); a
drug before a lumbar puncture's "LP", read as a company's suffix; a bariatric ambulance; the
thyroid drugs by their letters; the word after a street's "Dr."; a faith's rite, an
interpreter's language and its dialect; a Samoan family and its chief; a town's country in
prose under Safe Harbor (core/policies: "visiting from Brisbane, Australia"), which stays
part of an address when a street stands on its line or the line before; a score of ten after
another in its sentence ("PAIN 6/10 BETTER THAN ADMIT (10/10)"); a mill by what it makes; a
tribal clinic's pharmacy; the Montagnard peoples, the Lumbee and the Yakama; a visa's class
after "Insurance:"; the house officer before a name; "PCP" before a clinic; the health
department; a distance
read as a street ("150 MILES EACH WAY"); an insurer's authorisation before a facility; a
disease's clinic ("hcm clinic"); a verb with a prefix after a role ("attending re-examine");
the Zuni ceremony (not the pueblo's town), a Coptic fast; New Mexico's Medicaid plan;
an ICU by its letters after "to" ("ADMITTED TO NTICU"); airway clearance and a heat and moisture
exchanger ("MIE", "HME"); a professional interpreter ("PROF TONGAN INTERPRETER"); units of
blood read as a street ("1u PRBC."), an ethanol level too ("BG 246 EtOH 42"); a rowhouse; an
exploration of a facility ("will explore snf/rehab"); a snake's fang marks; a wound vac's
maker; the SOAR programme; a Sikh boy's turban and God's will; the Indian Health Service's clinic
and pharmacy; the revised Atlanta classification; beds by number ("cxr beds 2/4"); New Jersey's
charity care; a devotional medal; the Kichwa language; a fraction of a counted dose ("next dose
2/3 of usual").

Both sides; synthetic text only; rules and dictionaries through the real pipeline, a model's
spans through the guards."""

from __future__ import annotations

import pytest

from engine.core.domain import Document
from engine.core.labels import Label
from engine.core.policies import HIPAA_SAFE_HARBOR
from engine.pipeline import Pipeline
from engine.resolution.guards import guard
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    kept_of_a_models_span,
    model_span,
    recovered_by_the_allowlist,
    signout_names,
)


@pytest.mark.parametrize(("text", "names"), [
    ('MICU NIGHT SIGNOUT\n2) ALCANTARA, REMEDIOS "MEDING" 79F - SEPSIS/ASPIRATION, ON BIPAP',
     ["ALCANTARA, REMEDIOS", "MEDING"]),
    # a quote that no age follows is what was said
    ('MICU NIGHT SIGNOUT\n2) ALCANTARA, REMEDIOS "TULONG" - YELLS AT NIGHT',
     ["ALCANTARA, REMEDIOS"]),
])
def test_a_sign_out_items_patient(text: str, names: list[str]) -> None:
    assert signout_names(text) == names


@pytest.mark.parametrize(("text", "piece"), [
    ("VANC LEVELS: peak after 3rd dose 8/11 at 1300, trough before 4th dose", "8/11"),
    ("DOSE #1 GIVEN AFTER PLEX 6/3, NEXT DOSE 6/10 (GIVE AFTER PLEX IF STILL ON)", "6/10"),
    ("CALLBACK GIVEN.\nPT: 46 YO F, LEFITI, HX MORBID OBESITY, OSA NONCOMPLIANT", "LEFITI"),
    ("LEFT SUBCLAVIAN CVC. PT IS 62 YO M, HODZIC, S/P FALL FROM ROOF", "HODZIC"),
    ("Transfer note\nCovering: Lutz\nReason: hypoxia", "Lutz"),
    ("CCU NOTE - LVAD\nPt is 54 yo M, HeartMate 3 implanted 1/8 as destination therapy", "1/8"),
    ("pain 4/10. admitted 9/10 from OSH", "9/10"),
    ("Transfer: accepted at Wasatch Regional Burn Unit, waiting on weather",
     "Wasatch Regional Burn Unit"),
    ("Sign-out - MICU 1900\nBed 6 - Takes The Gun - HHS, Na 158", "Takes The Gun"),
    ("ADMISSION H&P\nNAME: PRETTY ON TOP, MARCUS   MRN 5520-1187", "PRETTY ON TOP, MARCUS"),
    ("Referrals sent:\n1. Rivergate Long Term Acute Care - accepted clinically",
     "Rivergate Long Term Acute Care"),
    ("pt's bandmate already contacted Music Row Musicians Relief Fund; SW emailed",
     "Music Row Musicians Relief Fund"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("VANC: dose 2/5 given, next level in am", "2/5"),
    ("PT IS 62 YO M, RETIRED, S/P FALL FROM ROOF", "RETIRED"),
    ("pt is 38 yo m, indonesian, crew member (housekeeping)", "indonesian"),
    ("A/P: 47 yo M Filipino, RN at a dialysis unit, no sig PMH", "Filipino"),
    ("3) ASEFA M - CRYPTOCOCCAL MENINGITIS, AMPHO/FLUCYTOSINE, LP TODAY OP 32",
     "FLUCYTOSINE, LP"),
    ("FAMILY AGREEABLE. WILL NEED BARIATRIC AMBULANCE TRANSPORT", "BARIATRIC AMBULANCE"),
    ("LFTs - monitor on PTU, switch to MMI after storm resolves.", "MMI"),
    ("Accepting: Rehab Institute, 9640 W Sage Canyon Dr. Report to RN line.", "Report"),
    ("requested body be released today for burial per Islamic practice", "Islamic"),
    ("INTERPRETER: MONGOLIAN (KHALKHA) - PHONE ONLY, PT SPEAKS SOME", "MONGOLIAN"),
    ("REPORTS EPIGASTRIC PAIN 6/10 BETTER THAN ADMIT (10/10), RADIATES TO BACK", "10/10"),
    ("Insurance: H-2A workers covered by employer L&I", "H-2A"),
    ("PPE/respirator fit - not our role, referred to DOH.", "DOH"),
    ("1. TRANSPORTATION - FAMILY HAS ONE VEHICLE, 150 MILES EACH WAY. HUSBAND", "150 MILES"),
    ("NM Centennial Care secondary. Auth for LTACH will need Medicare LTCH criteria",
     "Auth for LTACH"),
    ("will give referral to hcm clinic.\n5. dispo step down tomorrow.", "hcm clinic"),
    ("offered to have neurology attending re-examine at bedside with family", "re-examine"),
    ("4. Diet - pt fasting per Coptic fast (no animal products)", "Coptic"),
    ("NTICU Nursing Progress Note 0700-1900", "NTICU"),
    ("PEDS ICU FULL, ADMITTED TO NTICU W/ PEDS CONSULT.", "NTICU"),
    ("Humidification: HH in line. Will switch to HME when secretions thin.", "HME"),
    ("AC 650 X 14 / 8 / 35%. SX Q2H + MIE. AM CXR RLL ATELECTASIS", "MIE"),
    ("vent at night. medically approaching ltach readiness per team.", "approaching ltach"),
    ("DAUGHTER PREFERS TO INTERPRET FOR DAD - PROF TONGAN INTERPRETER OFFERED.", "TONGAN"),
    ("Chest tube placed at OSH. Given TXA 1g, 1u PRBC.\nFlown by air ambulance", "1u PRBC"),
    ("(post 2u) Plt 188 INR 1.1 Lactate 3.4 BG 246 EtOH 42 ABG 7.36/41/78/23", "246 EtOH 42"),
    ("home: lives alone in rowhouse, 3 steps to enter", "rowhouse"),
    ("asked about getting her meds through the ihs pharmacy rather than retail", "ihs pharmacy"),
    ("Scores: BISAP 4. Revised Atlanta - moderately severe", "Atlanta"),
    ("to do: am labs all beds 0400, cxr beds 2/4, k>4 mg>2 protocol.", "2/4"),
    ("Charity care (NJ Hospital Care Payment Assistance) applied", "NJ Hospital"),
    ("rosary beads and Fatima medal left at bedside per family", "Fatima"),
    ("VANC: next dose 2/3 of usual per pharmacy", "2/3"),
    ("will explore snf/rehab vs medical respite.", "explore snf"),
    ("FOREARM TENSE EDEMA TO MID ARM, ECCHYMOSIS, 2 FANG MARKS.", "FANG MARKS"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("Baby in NICU at Mercy Colfax Women's - husband going back and forth", "Mercy Colfax",
     Label.HOSPITAL, ["Mercy Colfax Women's"]),
    ("sent to nicu at mercy colfax women's via courier", "mercy colfax", Label.HOSPITAL,
     ["mercy colfax women's"]),
    # only in the name's own case: "Denver children's hospital" is no name of one
    ("Mom asking about Denver children's hospital for sibling", "Denver", Label.LOCATION,
     ["Denver"]),
    ("INTERP BOOKED FOR 0900.\nBED 6 BOWLING 39 F - FENTANYL OD + FALL", "BOWLING",
     Label.PATIENT, ["BOWLING"]),
    ("PT WENT BOWLING LAST WEEK PER WIFE", "BOWLING", Label.PATIENT, []),
    ("Dispo: 9640 W Sage Canyon Dr. Report called to RN", "Report", Label.DOCTOR, []),
    ("lives at 44 Elm Dr. Okafor aware of plan", "Okafor", Label.DOCTOR, ["Okafor"]),
    ("NURSING PROGRESS NOTE 1900-0700\nPT HEINE RETURNED FROM OR 2040 S/P R KNEE", "HEINE",
     Label.PATIENT, ["HEINE"]),
    ("PT RECIEVED HAD A BM", "RECIEVED", Label.PATIENT, []),
    ("RN AT BEDSIDE FOR AM LABS, PT TABBEE REACHED AND PULLED ETT", "TABBEE", Label.PATIENT,
     ["TABBEE"]),
    ("PT AGITATED REQUESTED HALDOL", "AGITATED", Label.PATIENT, []),
    ("late entry for 1430\npt chang transported to ir for perc chole", "chang", Label.PATIENT,
     ["chang"]),
    ("SON CALLED AT 0315 410 5550184, UPDATED, WILL COME", "0315 410 5550184", Label.PHONE,
     ["410 5550184"]),
    ("ALSO CONFIRMED LAST APIXABAN DOSE 9/6 AM PER DAUGHTER.", "9/6", Label.DATE, ["9/6"]),
    ("COURSE: ADMITTED 2/27 FROM IHS CLINIC W/ SEVERE CAP", "IHS CLINIC", Label.HOSPITAL, []),
    ("wound vac on l thigh fasciotomy site - kci vac for home ordered", "kci vac",
     Label.HOSPITAL, []),
    ('no benzos.\nBed 3 M. Alston "Big Mike" (45M) - CABG POD 2', "M. Alston", Label.PATIENT,
     ["M. Alston"]),
    ("FROM 30+ YRS IN COTTON MILL, BASELINE HOME O2 2L", "COTTON MILL", Label.LOCATION, []),
    ("MEDS CAN BE FILLED AT TRIBAL CLINIC PHARMACY. DME: FWW", "TRIBAL CLINIC PHARMACY",
     Label.HOSPITAL, []),
    # a pager after a name is no shorthand of it; a skilled nursing home's head word
    ("REPEAT CTH IF ICP >22 SUSTAINED.\nMD ON: NGO PGR 4-1176", "NGO PGR", Label.DOCTOR,
     ["NGO"]),
    ("BED 2 DE LA CRUZ 80F, LONE MOUNTAIN POST-ACUTE RESIDENT, UTI", "LONE MOUNTAIN",
     Label.HOSPITAL, ["LONE MOUNTAIN POST-ACUTE"]),
    ('NURSING NOTE 1900-0700\nPT IS A 38 YO M "SKEETER" (LEGAL NAME WAYLON GENTRY)',
     "SKEETER", Label.PATIENT, ["SKEETER"]),
    ('CT SURGERY\nCANTRELL, LONNIE ("HOSS") 55M POD 3 S/P TYPE A', "HOSS", Label.PATIENT,
     ["HOSS"]),
    ('PT STATES "FINE" WHEN ASKED', "FINE", Label.PATIENT, []),
    ("DOB 4/30/1958   Age 66\nAdmit to MICU: 2/8   Transfer date: 2/13", "2/8", Label.DATE,
     ["2/8"]),
    ("PS 10/5 to MICU: 5/5 tolerated", "5/5", Label.DATE, []),
    ("F/U APPTS: CT SURG CLINIC 3/6, PCP EASTWAY NEIGHBORHOOD CLINIC WED",
     "PCP EASTWAY NEIGHBORHOOD CLINIC", Label.HOSPITAL, ["EASTWAY NEIGHBORHOOD CLINIC"]),
    # without its period the street's "Dr" ends no sentence: the word after is the town's
    ("statement sent to 1737 Cheriton Dr Reuquen Extensions", "Reuquen", Label.DOCTOR,
     ["Reuquen"]),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


@pytest.mark.parametrize(("text", "piece", "label", "recovered"), [
    ("decisions are made together as a family (aiga) and the matai", "aiga", Label.PERSON,
     True),
    ("INTERPRETER: MONGOLIAN (KHALKHA) - PHONE ONLY", "KHALKHA", Label.LOCATION, True),
    ("Kreyol interp at bedside for consent", "Kreyol", Label.PERSON, True),
    ("Rhade interp via video cart.", "Rhade", Label.LOCATION, True),
    ("turban/patka to remain on - explained it may need to be moved", "patka", Label.PERSON,
     True),
    ("ssi/ssdi application - referral to soar program.", "soar program", Label.HOSPITAL, True),
    ("PT MORE COMFORTABLE IN KICHWA, SON HELPED W/ SOME WORDS", "KICHWA", Label.LOCATION, True),
    ("daughter Fatima at bedside", "Fatima", Label.PERSON, False),
    ("PT ASKED ABOUT ZUNI SHALAKO IN DECEMBER", "SHALAKO", Label.PATIENT, True),
    ("SH: LIVES W/ DAUGHTER IN ZUNI. FORMER SILVERSMITH.", "ZUNI", Label.LOCATION, False),
    ("Insurance: Medicare A/B + NM Centennial Care secondary.", "Centennial Care",
     Label.HOSPITAL, True),
    ("family enrolled members of yakama nation, live in wapato.", "yakama nation",
     Label.LOCATION, True),
    ("pt cummings is a 82 yo m, lumbee, pod 10 avr/cabg", "lumbee", Label.PATIENT, True),
])
def test_what_the_allowlist_takes_back(text: str, piece: str, label: Label,
                                       recovered: bool) -> None:
    assert recovered_by_the_allowlist(text, piece, label) is recovered


@pytest.mark.parametrize(("text", "place", "phi"), [
    ("Pt is a 63 yo male visiting from Brisbane, Australia with wife", "Australia", False),
    ("HPI: 24 yo M tourist from Manchester, UK, here for a stag party", "UK", False),
    ("Home: 4471 Briarcliff St\nHamtramck, Michigan", "Michigan", True),
    ("Address: Suite 245\n FÜRLING\n Austria 25173.", "Austria", True),
    ("6750 Koskikatu 25 Apt. 864\nArtilleros\n, CO\n Uruguay 64677", "CO", True),
    ("pt called from 654 Rua Ana Caciola 1159, Strovolos, Cyprus last night", "Cyprus", True),
])
def test_a_towns_region_under_safe_harbor(text: str, place: str, phi: bool) -> None:
    assert HIPAA_SAFE_HARBOR.is_phi(model_span(text, place, Label.LOCATION), text) is phi


def test_the_house_officer_before_a_name_is_no_part_of_it() -> None:
    text = "pt redirected w/ difficulty. ho ferreira-quinn at bs 0452, ph 7.31"
    spans = [model_span(text, "ho", Label.DOCTOR, text.index("ho ferreira")),
             model_span(text, "ferreira-quinn", Label.DOCTOR)]
    kept, _dropped = guard(Document.from_text(text), spans)
    assert [text[s.start:s.end] for s in kept] == ["ferreira-quinn"]
