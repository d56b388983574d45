"""Golden cases from ICU notes of session 53 (issue 26; dev sets 87-90: an El Paso neuro ICU and
Mexican, military and Tigua families, a Fresno burn and trauma ICU and Armenian, Assyrian and
Hmong families, a Chicago ICU and Nigerian, Ghanaian and Mexican families, a West Texas trauma
ICU and oil-field, ranching and Mennonite families, a Salt Lake City ICU and Tongan, Samoan,
Latter-day Saint and Navajo families, a Miami ICU and Haitian and Cuban families, a Minneapolis
ICU and Somali, Oromo, Hmong and Lakota families, a Houston ICU and Vietnamese, Nigerian,
Pakistani and Salvadoran families).

PHI: a sign-out item's surname and an initial in lower case after its comma ("hernandez, j,
dka"), a surname before how old the patient is in words ("wiebe, elderly m"); a surname and
given names found apart around their comma before an age ("LOPEZ-ALDANA, MARCO 19 YO M", "vega,
teodoro (74 yo"); a town by its abbreviated head ("Cd. Juárez", "Ft. Stockton"); a patient after
"pt" with the age between commas ("pt tou vang, 52, injured"); a date after "H&P" ("ADDENDUM TO
H&P 1/7") and a follow-up clinic's date ("Burn Clinic 4/8"); family names that Faker's lists
lack ("MOUA", "KHOSHABA"); a place with its okina ("Nuku'alofa"); a two-word tribal surname
before the sex ("bed 5 - two bulls f dka"), a surname's particle ("de la cruz", "ST. CLAIR");
Medicare's beneficiary identifier by its shape ("1EG4-TE5-MK72"); a month/day no ratio is written
as after "~" ("~6/2", "~11/30"), after "compared w/" or a study of "A/P", before "ADMIT"; an
institution and what its "of" names ("UNIVERSITY HOSPITAL OF EASTBROOK"), an LTACH's head.

Not PHI: the sex after a surname or a given name ("BEGAY-CHAVEZ  F  STROKE", "SOLIS, LUCIANO M
- PUMP JACK"), how old the patient is in words ("wiebe, elderly m"); the age after an MRN
("MRN 5529018   34 F"); the day of the stay after a name ("pt kwadwo day 28"); an HLA allele
after "PT" ("PT HLA-B*15:02"); a modal verb that Faker lists as a name ("PASTOR MAY VISIT");
what someone does before a facility's head ("refusing hospital tray", "waiting ltach"); a house
across the street; a count of nurses before what they are ("1 rn short"); languages and peoples
("Low German", "Assyrian", "Tigua"); a burn's energy equation ("Toronto eq"); a farm's places
proposed word by word ("family strawberry farm shed"); a clock time after a month and day ("Adm:
Aug 2 1615"); a missionary's title ("ELDER HANSEN"), a parent's word ("mom mckenna"); the patient
or a credential after a title ("worsening MS. Pt and family", "ms rd cnsc"); a relative clause
after "place"; the sex after "YO" ("58 YO M. HOMELESS"); the Diné language, a botánica; a day
after an interstate's number ("I-15 Friday"); a Mexican state (no smaller than a state); "none"
or a clinic's language in a doctor's field; Afaan Oromo, the Dakota; "in law"; the sex between a
surname and "COMFORT CARE"; a packing plant; a drug hung; a rhythm "de novo"; shorthand after a
patient's name ("pt petersheim trach 8").

Both sides; synthetic text only; rules and dictionaries through the real pipeline, a model's
spans through the guards."""

from __future__ import annotations

import pytest

from engine.core.domain import SpanStatus
from engine.core.labels import Label
from engine.pipeline import Pipeline
from engine.resolution.joins import joined as joined_spans
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    joined_candidates,
    kept_of_a_models_span,
    model_span,
    signout_names,
)


@pytest.mark.parametrize(("text", "names"), [
    # an initial in lower case after the comma in a sign-out; "m" and "f" there are the sex
    ("signout\nbed 3 - hernandez, j, dka, insulin gtt\n11 martinez, r - etoh pancreatitis\n"
     "bed 4 - wiebe, f, horse kick to abd", ["hernandez, j", "martinez, r", "wiebe"]),
    ("bed 3 - hernandez, j, dka, insulin gtt", []),  # no sign-out, no age: no patient
    # how old in words before the sex says "patient" as an age does; it is no given name
    ("night s/o\nbed 1 - wiebe, elderly m, tractor rollover\nbed 7 - enns, young f, horse kick",
     ["wiebe", "enns"]),
    ("SIGN OUT\nBED 4 - GUERRA, YOUNG M, ATV ROLLOVER", ["GUERRA"]),
    # the sex after a given name is no initial
    ("SIGN OUT\nBED 3 SOLIS, LUCIANO M - PUMP JACK INJURY, R BKA", ["SOLIS, LUCIANO"]),
    ("SIGN OUT\nRM 1 ALSAIDI, H 11 YO M - DKA", ["ALSAIDI, H"]),
    # "F" after the comma without a stop is the sex; "teen" before the sex is how old
    ("SIGN OUT\nBED 2 - YAZZIE, F, FROM CHINLE, ESBL UROSEPSIS", ["YAZZIE"]),
    ("sign out\nrm 9 - havea teen m, dka day 2, off gtt", ["havea"]),
    # a surname the lists lack is listed now: "MOUA - 15% TBSA" in a burn unit's sign-out
    ("BURN SIGNOUT\n2) MOUA - 15% TBSA FLASH BURN\n3) KHOSHABA - 40% TBSA", ["MOUA", "KHOSHABA"]),
])
def test_a_sign_out_items_patient(text: str, names: list[str]) -> None:
    assert signout_names(text) == names


@pytest.mark.parametrize(("text", "piece"), [
    ("signout\nbed 3 - hernandez, j, dka, insulin gtt 6u/hr", "hernandez, j"),
    ("called his son re dispo planning for his father vega, teodoro (74 yo, hd 9, rib fx",
     "vega, teodoro"),
    ("SIGN OUT\nBED 17 GARCÍA-RAMÍREZ, ELISEO 30S M - ASA OD, BICARB", "GARCÍA-RAMÍREZ, ELISEO"),
    ("Pt is a 47 yo F from Cd. Juárez, goes by her nickname. HH 3", "Cd. Juárez"),
    ("family from Ft. Stockton drove up this am", "Ft. Stockton"),
    ("ADDENDUM TO H&P 1/7\nRECORDS REC'D FROM OSH", "1/7"),
    ("Follow-up: Burn Clinic 4/8 w/ Dr. Ohanian.", "4/8"),
    ("Surgical ICU Admission Note\nName: Zacarias Benavides    MRN: 40166081    Adm: Aug 2 1615",
     "Aug 2"),
    ("Patient: Oluwaseun Adeyemi-Bakare   MRN 5529018   34 F", "5529018"),
    ("SIGN OUT\nBED 4 - ELDER HANSEN, 20M, MISSIONARY SENT HOME", "HANSEN"),
    ("Ms. Pat Jones visited with her son", "Pat Jones"),
    # a two-word tribal surname before the sex; particles and a saint's "St." before a surname
    ("night signout\nbed 5 - two bulls f dka, insulin gtt 6u/hr", "two bulls"),
    ("sign out\nbed 5 - de la cruz 45f l temporal sdh, cpp goals", "de la cruz"),
    ("SIGNOUT\nBED 3 - ST. CLAIR - SEPSIS / CHOLANGITIS", "ST. CLAIR"),
    # Medicare's beneficiary identifier by its shape
    ("BED READY 11/8 1000.\nINS: MEDICARE A/B 1EG4-TE5-MK72 + MA SECONDARY", "1EG4-TE5-MK72"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("NIGHT SIGN OUT\nRM 12  BEGAY-CHAVEZ  F  POSTERIOR CIRC STROKE, BASILAR", "F  POSTERIOR"),
    ("night s/o\nbed 1 - wiebe, elderly m, tractor rollover", "elderly"),
    ("Patient: Oluwaseun Adeyemi-Bakare   MRN 5529018   34 F", "34 F"),
    ("nursing note 0700-1900\npt kwadwo day 28 in micu, trach (#6 portex)", "day 28"),
    ("30, head midline. pt ayala day 2 post severe tbi. cpp 52-58", "day 2"),
    ("PHENYTOIN NOT USED (PT HLA-B*15:02? - NOT TESTED, ALLERGY", "HLA-B"),
    ("OPEN VISITATION, FAMILY MAY BRING IN MUSIC, PASTOR MAY VISIT ANY TIME.", "MAY VISIT"),
    ("morphine gtt titrate for comfort. pt's pastor may come late, ok to let in.", "may come"),
    ("assign to rm 5 (crrt capable).\nstaffing: 1 rn short, micu float coming at 2300", "short"),
    ("sister in family consult room w/ in-person Low German interpreter", "Low German"),
    ("Sundowning, family says she only understands Low German - daughter will stay",
     "Low German"),
    ("wife here 1300-1700. Speaks Assyrian only, pt was translating", "Assyrian"),
    ("Family identifies as Tigua and Catholic. Daughter explains", "Tigua"),
    ("hydralazine 10 mg iv x1 at 0100 for sbp 178.\ngi: refusing hospital tray, eating rice",
     "refusing hospital"),
    ("13 r. flores - trach/vent, waiting ltach. stable. nothing to do.", "waiting ltach"),
    ("MOTHER WILL STAY AT FAMILY HOUSE ACROSS STREET TONIGHT, CELL ON FACE SHEET.",
     "HOUSE ACROSS STREET"),
    ("wt 74 kg (fluid).\nEst needs: ~2,950 kcal/d (Toronto eq); protein 2 g/kg", "Toronto"),
    ("chlorpyrifos ingestion (product from family strawberry farm shed).", "strawberry farm"),
    ("Surgical ICU Admission Note\nName: Zacarias Benavides    MRN: 40166081    Adm: Aug 2 1615",
     "1615"),
    ("SIGN OUT\nBED 4 - ELDER HANSEN, 20M, MISSIONARY SENT HOME", "ELDER"),
    ("A/P: intubate if pH <7.25 or worsening MS. Pt and family agreeable to intubation", "Pt"),
    ("protein 80% needs by hd 8.\nrd will f/u q3d and prn.\ns. brinton ms rd cnsc", "rd cnsc"),
    ('sw note\nfamily can visit daily. pt adamant she wants "a place where they speak spanish."',
     "place where"),
    ('SW NOTE\nPT JOSEPH, MANNO (GOES BY "MANNO") 58 YO M. HOMELESS PER PT', "HOMELESS"),
    ("Mother primarily Diné speaking, son interprets", "Diné"),
    ("PT ALSO VISITS A BOTANICA FOR REMEDIES - EDUCATED", "BOTANICA"),
    ('("Vili"), 16 yo, intubated after MVC on I-15 Friday night; severe TBI', "Friday"),
    ("family from Jalisco arrives tomorrow, social work aware", "Jalisco"),
    # what stands for no doctor, a clinic by its language
    ("ADMIT 06/24 2240 FROM ED\nPCP: NONE. OUTPT CLINIC: NONE", "NONE"),
    ("PCP: Hmong-speaking clinic, info in chart", "Hmong-speaking"),
    ("Conducted with Afaan Oromo interpreter (in person).", "Afaan Oromo"),
    ("Pt: Clarence Wambdi, 79 yo M, Dakota elder w/ advanced dementia", "Dakota"),
    ("s. prefers facility close to home. sister in law claudia portillo helps", "law"),
    ("CALL BROTHER (# IN CHART).\nBED 11 FARAH M COMFORT CARE, FAMILY + IMAM PRESENT",
     "COMFORT"),
    ("WORKPLACE INJURY 6/3 AT PORK PROCESSING PLANT IN WORTHINGTON", "PROCESSING PLANT"),
    ("AM note. RN aware of new orders, first dose meropenem hung 1810.", "meropenem"),
    ("sign out\nBED 4 - DE NOVO AF, RVR ON DILT", "DE NOVO"),
    ("rt note - trach weaning\npt petersheim trach 8 shiley cuffed", "trach 8"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    # the age between commas is name evidence after "pt"
    ("family spokesperson), 2 adult daughters. pt tou vang, 52, injured in kitchen fire",
     "tou vang", Label.PATIENT, ["tou vang"]),
    ("pt cont on levo, 52, map goals", "cont", Label.PATIENT, []),
    # a place keeps its okina; a parent's word is no name
    ("the 2 children in Nuku'alofa must be part of it", "Nuku", Label.LOCATION,
     ["Nuku'alofa"]),
    ("family: mom mckenna + dad at bs all night", "mom mckenna", Label.PERSON, ["mckenna"]),
    # a farm's places proposed word by word are generic together; a name beside one is not
    ("chlorpyrifos ingestion (product from family strawberry farm shed).", "farm",
     Label.LOCATION, []),
    ("Transferred from Hospital San Rafael yesterday", "Hospital", Label.HOSPITAL, ["Hospital"]),
    # a modal verb before a verb; a listed name before a surname stays
    ("Pastor May Johnson visited the family", "May Johnson", Label.PERSON, ["May Johnson"]),
    # a month/day no ratio is written as, about a day; a fraction of a dose stays one
    ("dog had fleas; found a sick cat on property ~6/2.", "6/2", Label.DATE, ["6/2"]),
    ("plan autograft to Integra ~11/30.\nPost-op orders", "11/30", Label.DATE, ["11/30"]),
    ("reduce tacro dose by ~2/3 today", "2/3", Label.DATE, []),
    # a slash inside a word before the date is no ratio's; an admission after it is an event
    ("AFIB 132, NO NEW ST CHANGES COMPARED W/ 4/5.", "4/5", Label.DATE, ["4/5"]),
    ("ABG 7.35/33/66 ON 4L.\nCT A/P 2/3: PANCREATIC EDEMA", "2/3", Label.DATE, ["2/3"]),
    ("MICU NPN\nD: 35 YO F, 5/5 ADMIT, TCA OD", "5/5", Label.DATE, ["5/5"]),
    ("RT: PS 10/ 5/5 tolerated x2h", "5/5", Label.DATE, []),
    # a long-term acute care hospital's head after its name
    ("PT DISCHARGED TO HOLY FAMILY LTACH VIA AMBULANCE 1120", "HOLY FAMILY", Label.HOSPITAL,
     ["HOLY FAMILY LTACH"]),
    # a clock time is no year; a year is
    ("DOB Aug 2 1952, lives alone", "Aug 2 1952", Label.DATE, ["Aug 2 1952"]),
    ("seen Aug 12 0830 in ED", "Aug 12 0830", Label.DATE, ["Aug 12"]),
    # a generic street word alone is no longer a street's name here, a named street stays
    ("thinks she is at the bank on Centre Street, reorients", "Centre Street", Label.LOCATION,
     ["Centre Street"]),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


@pytest.mark.parametrize(("text", "first", "second", "joined"), [
    ("SICU PROGRESS NOTE\n3/15 HD 3\nLOPEZ-ALDANA, MARCO 19 YO M, GSW X2 L FLANK",
     "LOPEZ-ALDANA", "MARCO", "LOPEZ-ALDANA, MARCO"),
    ("called his son re dispo planning for his father vega, teodoro (74 yo, hd 9",
     "vega", "teodoro", "vega, teodoro"),
    ("Pt: Fuentes Barraza, Oralia   39 yo F   MRN 01044259", "Fuentes Barraza", "Oralia",
     "Fuentes Barraza, Oralia"),
    ("BED 17 GARCÍA-RAMÍREZ, ELISEO 30S M - ASA OD", "GARCÍA-RAMÍREZ", "ELISEO",
     "GARCÍA-RAMÍREZ, ELISEO"),
    # the surname heads its line or its item; a model's given name taken for a place
    ("SICU ADMIT NSG NOTE 1820\nHOLLOWAY, DORIS - S/P AORTOBIFEM", "HOLLOWAY", "DORIS",
     "HOLLOWAY, DORIS"),
    ("rm 403 - toomer, willie mae tavr pod 1", "toomer", "willie mae", "toomer, willie mae"),
    # two people in a list, no age after: two names
    ("visitors today: Maria, Jose and the pastor", "Maria", "Jose", None),
])
def test_a_surname_and_given_names_join_at_their_comma(text: str, first: str, second: str,
                                                      joined: str | None) -> None:
    second_label = Label.LOCATION if second == "DORIS" else Label.PERSON
    spans = [model_span(text, first, Label.PATIENT), model_span(text, second, second_label)]
    out = joined_spans(text, spans)
    live = joined_candidates(text, spans)
    assert [text[s.start:s.end] for s in live] == ([joined] if joined else [first, second])
    if joined:
        assert [s.label for s in live] == [Label.PATIENT]
        assert sum(s.status is SpanStatus.SUPERSEDED for s in out) == 2


@pytest.mark.parametrize(("text", "first", "second", "joined_as"), [
    ("ACCEPTING: NEUROSURGERY, UNIVERSITY HOSPITAL OF EASTBROOK. NEURO ICU BED",
     "UNIVERSITY HOSPITAL", "EASTBROOK", "UNIVERSITY HOSPITAL OF EASTBROOK"),
    ("83 yo m, came from larchmont sisters of mercy home w/ chf exac", "larchmont sisters",
     "mercy home", "larchmont sisters of mercy home"),
    ("ESRD ON HD (MWF AT SUNRISE DIALYSIS OF WESLACO), CHRONIC", "SUNRISE DIALYSIS", "WESLACO",
     "SUNRISE DIALYSIS OF WESLACO"),
    # not a place and where it stands, nor across a line
    ("transferred from Mercy of Springfield yesterday", "Mercy", "Springfield", None),
    ("sent to Lakeside Hospital\nof note, Springfield PD called", "Lakeside Hospital",
     "Springfield", None),
])
def test_an_institution_and_its_of_join(text: str, first: str, second: str,
                                       joined_as: str | None) -> None:
    spans = [model_span(text, first, Label.HOSPITAL), model_span(text, second, Label.LOCATION)]
    live = [(text[s.start:s.end], s.label) for s in joined_candidates(text, spans)]
    assert live == ([(joined_as, Label.HOSPITAL)] if joined_as
                    else [(first, Label.HOSPITAL), (second, Label.LOCATION)])
