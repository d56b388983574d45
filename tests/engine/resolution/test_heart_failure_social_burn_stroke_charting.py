"""Golden cases from heart failure, teaching-hospital night, social-narrative, burn, surgical,
stroke and veterans' ICU notes with sparse PHI (issue 26, dev sets 27 to 30): an acronym after
a bare "at", "to" or "from" is an institution only when it is no shorthand and no setting
follows it; "MR." before an English word is the valve; a sign-out list's patient by bed or
room; a phone's last digits start no street; blood-culture bottles and a performance battery
are no dates; a country, state or province is no PHI under Safe Harbor. Both sides;
synthetic text only; rules and dictionaries through the real pipeline, a model's spans
through the guards."""

from __future__ import annotations

import pytest

from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.core.policies import POLICIES
from engine.pipeline import Pipeline
from engine.resolution.guards import guard
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    kept_of_a_models_span,
    recovered_by_the_allowlist,
)


@pytest.mark.parametrize(("text", "piece"), [
    ("BED 21 - LUTHER BAPTISTE: PNA/ARDS, PRONED 0200, P/F 88 -> 142", "LUTHER BAPTISTE"),
    ("night signout burn icu\nbed 4 - kowalczyk 38% tbsa flame, hd2.", "kowalczyk"),
    ("NIGHT SIGNOUT\nRM 1 ABERCROMBIE - 33% FLAME, HD 2, PARKLAND, LR 540/H", "ABERCROMBIE"),
    ("RN NOTE 1400: PT (GOES BY TRIP) PREMEDICATED 1315 FOR HYDROTHERAPY", "TRIP"),
    ("re: escalation. Pt (Auggie to family) on Impella CP + VA-ECMO day 3", "Auggie"),
    ("- bed 12: nothing overnight. per ilunga (renal) hd in am, k ok.", "ilunga"),
    ("asks for calls to her cell (615) 555-0148 not home line. pt wants rehab",
     "(615) 555-0148"),
    ("57 yo M w/ ant STEMI s/p cath at CVRMC on 3/12 w/ DES to LAD", "CVRMC"),
    ("Will request records from PMH, pt agreeable.", "PMH"),
    ("on prednisone, presented to PMH 4/9 w/ 3d of fever", "PMH"),
    ("Mr. Okafor updated at bedside re: plan", "Okafor"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("MOD TR, MOD-SEVERE FUNCTIONAL MR. NO LV THROMBUS ON CONTRAST.", "NO"),
    ("5 cm below AV annulus, no worsening MR. Placement signal OK", "Placement"),
    ("backup caregiver: pt's cousin, will attend device training", "pt's"),
    ("HIV/HBV/HCV neg. Consented to HCV NAT+ donors.", "HCV"),
    ("deductible met; ~$2,100 remaining to OOP max. Pt/wife informed.", "OOP"),
    ("S: Pt c/o 4/10 chest wall pain at CVC site overnight, Tylenol given.", "CVC"),
    ("ACCESS NOW -110 TO -130 AT BFR 180. AWARE OF CLOTTING RISK.", "BFR"),
    ("SIMPLIFIED REGIMEN TO LANTUS 18U DAILY + SSI", "LANTUS"),
    ("PT S/P PCI TO PROX LAD VIA R RADIAL, NO BLEEDING", "PROX"),
    ("L CHEST TUBE #32 TO SXN -20, NO AIR LEAK", "SXN"),
    ("GRIP R 18 KG. SPPB 6/12. FALL RISK MODERATE.", "6/12"),
    ("exit site swab MSSA. BCx 2/2 from outside lab + here GPC in clusters", "2/2"),
    ("Micro: BCx from adm MRSA 2/2 -> repeat BCx x2 NGTD since HD 3.", "2/2"),
    ("HOME HOSPICE AGENCY WILLING TO CONTINUE INOTROPE UNDER HOSPICE BENEFIT.", "CONTINUE"),
    ("A MINOR W/O PARENT PRESENT; CONSULTED HOSPITAL LEGAL RE: CONSENT", "CONSULTED"),
    ("- Medicaid app\n- Anticipate SNF for rehab after step-down", "Anticipate"),
    ("no meds x 2 months since her psychiatrist's clinic closed", "psychiatrist's"),
    ("AMPHO DAY 4. CRYPTO AG NEG, CMV PCR PENDING.", "CRYPTO AG"),
    ("BANANA BAG INFUSING AT 100 ML/H. FALL PRECAUTIONS, BED ALARM ON.", "H. FALL"),
    ("CXR: bilat alveolar edema, Kerley B lines, small bilat effusions.", "Kerley"),
    ("IR TO PLACE PERC DRAIN THIS AFTERNOON. CONT ABX, NPO.", "PLACE PERC"),
    ("38% tbsa flame, hd2. resus on mod brooke lr 2 ml/kg/%", "brooke"),
    ("RE-LAPAROTOMY W/ DISTAL GASTRECTOMY (BILLROTH II), OPEN ABDOMEN", "BILLROTH"),
    ("Port sites clean. Pelvic Blake drain 180 mL overnight.", "Blake"),
    ("Meds: bup-nal 8/2 BID, sertraline 100, prazosin 2 qhs", "8/2"),
    ("s: pt reports 6/10 pain l chest wall, worse w/ cough", "6/10"),
    ("Swallow failed at 2100 (coughing w/ 3 oz water). Oral care q4h w/ CHG swabs.", "Oral"),
    ("ACCEPTED NICOTINE PATCH, REFERRAL TO VA TOBACCO CESSATION CLINIC.", "TOBACCO"),
    ("Bed 11: CVST, heparin -> apixaban transition today.", "CVST"),
    ("will request records from pcp and cardiology", "pcp"),
    ("Bed 4 - septic shock: on levo 0.1, lactate 3.2", "septic shock"),
    ("edu: stroke education packet given, reviewed w/ wife", "edu"),
    ("Pt is a Vietnam veteran (Army infantry), Catholic.", "Vietnam"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("caregiver plan: wife primary; pt's brother Teodoro secondary, lives ~40 min away",
     "Teodoro secondary", Label.PERSON, ["Teodoro"]),
    ("NG TUBE PLACED BY NIGHT RESIDENT DR SZABO, KUB CONFIRMED.", "SZABO, KUB", Label.DOCTOR,
     ["SZABO"]),
    ("SPOKE W/ PT'S DAUGHTER BY PHONE AT 2230 (614 555 0173). UPDATED.",
     "2230 (614 555 0173", Label.PHONE, ["614 555 0173"]),
    ("TO CONSULT THEIR EXTENDED FAMILY AND THE GRANTHI AT THEIR GURDWARA.", "GRANTHI",
     Label.PERSON, []),
    ("discussed w/ the Intensivist overnight, plan unchanged", "Intensivist", Label.DOCTOR, []),
    ("cx results, de-escalate in 48-72h.\nd/w burn fellow, will update attending at 0600.",
     "burn", Label.DOCTOR, []),
    ("rising drain amylase (POD1 3100 -> POD3 6800) w/ clear output", "6800", Label.PHONE, []),
    ("CICU DISCHARGE PLANNING NOTE - HOME INOTROPE", "INOTROPE", Label.LOCATION, []),
    ("t1dm, currently unhoused, found down at bus shelter on grafton ave.", "bus shelter",
     Label.HOSPITAL, []),
    ("BRONCHIAL ARTERY EMBOLIZATION, ACCEPTED, TO ANGIO SUITE ~0515", "ANGIO SUITE",
     Label.HOSPITAL, []),
    ("ort info. referred partner to community mental health.", "mental health",
     Label.HOSPITAL, []),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


def test_a_generic_place_stays_generic_beside_a_date() -> None:
    """"transfer to step-[down] tmrw": a model's date beside a generic place goes on no name."""
    text = "pt hopeful for transfer to step-down tmrw, then home."
    place, when = text.index("down"), text.index("tmrw")
    spans = [Span(place, place + 4, Label.HOSPITAL, source=Source.NER, detector="ner.test"),
             Span(when, when + 4, Label.DATE, source=Source.NER, detector="ner.test")]
    kept, _dropped = guard(Document.from_text(text), spans)
    assert all(s.label is not Label.HOSPITAL for s in kept)


@pytest.mark.parametrize(("text", "piece"), [
    ("WIFE SPEAKS PUNJABI ONLY; DAUGHTER HAS BEEN INTERPRETING", "PUNJABI"),
    ("- Called Red Cross caseworker re: extending hotel stay", "Red Cross"),
])
def test_languages_and_agencies_are_taken_back(text: str, piece: str) -> None:
    assert recovered_by_the_allowlist(text, piece, Label.PERSON)


@pytest.mark.parametrize(("place", "hipaa_phi"), [
    ("Vietnam", False), ("HONDURAS", False), ("Ontario", False), ("Texas", False),
    ("Springfield", True), ("New York", True), ("Washington", True),
    ("Georgia", True),  # a first name too: a model's LOCATION there may be a person
])
def test_safe_harbor_keeps_countries_states_and_provinces(place: str, hipaa_phi: bool) -> None:
    text = f"Pt lived in {place} until last year."
    start = text.index(place)
    span = Span(start, start + len(place), Label.LOCATION, source=Source.NER, detector="ner")
    assert POLICIES["hipaa"].is_phi(span, text) is hipaa_phi
    assert POLICIES["strict"].is_phi(span, text)
    assert POLICIES["canadian-referral"].is_phi(span, text)


@pytest.mark.parametrize(("text", "place", "hipaa_phi"), [
    ("Address: Suite 245\n FÜRLING\n Austria 25173.", "Austria", True),
    ("originally from Kingston, Jamaica, moved here in 1989", "Jamaica", False),
    ("Pt is a 63 yo male visiting from Brisbane, Australia with wife", "Australia", False),
    ("Home: 12 Elm St\nSpringfield, Texas", "Texas", True),
    ("Lives at 4 Rue Cartier, Apt 2, Montreal, Quebec", "Quebec", True),
    ("Pt is permanent resident, arrived from Vietnam 1999, sponsored by dtr.", "Vietnam", False),
    ("mother in Honduras, 2 siblings here", "Honduras", False),
    ("please validate 51709 Spinatsch 94 Apt. 615 Moosleerau Switzerland", "Switzerland", True),
    ("Facultad de Odontología, Universidad de Chile. Olivos 973", "Chile", True),
])
def test_a_region_in_an_address_stays_part_of_it(text: str, place: str, hipaa_phi: bool) -> None:
    """An address's last line ("Austria 25173"), the region after a street's town or a region
    inside a longer name is replaced with what it ends or belongs to; a town's region in prose
    ("from Kingston, Jamaica") stays, as Safe Harbor keeps states."""
    start = text.index(place)
    span = Span(start, start + len(place), Label.LOCATION, source=Source.NER, detector="ner")
    assert POLICIES["hipaa"].is_phi(span, text) is hipaa_phi
