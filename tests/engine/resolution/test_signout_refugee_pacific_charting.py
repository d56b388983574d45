"""Golden cases from ICU notes with denser PHI (issue 26, session 51; dev sets 77-80: a
cardiothoracic ICU and Pacific Islander families, medical ICU sign-outs and Central American
families, surgical ICU case management and refugee families, a liver ICU and Caribbean families,
a burn ICU and Afghan families, a pediatric ICU and Arab-American families, a neurotrauma ICU and
Andean families, a weaning unit and Central European families).

PHI: the patient heading a sign-out item at a bed, with age and sex after the name ("BED 7
MWAMBA, SAFARI 37M", "RM 1 ALSAIDI, H 11 YO"); a word after "pt" with the day of the stay after
it ("pt taufa pod 1"); a note's date after its heading ("MICU PROGRESS NOTE - 1/3", "late entry
for 4/9"); a culture's date before its result ("BCX FROM 2/10 NGTD"); a Latin American clinic
by its name; an agency that houses or represents a family ("Crescent Family Services");
Medicare's beneficiary identifier, a safety report's number; a court hearing's date; a name's
okina or inner apostrophe ("'ANA", "Saufo'i").

Not PHI: a language or nationality ("Kinyarwanda", "Kaqchikel", "CONGOLESE", "Bhutanese"), a
calling app, Hawaii's Medicaid program, the West Haven grade, a liver cancer outside the Milan
criteria, a mechanical valve by its maker and size; a language spoken or a state where a
sign-out item names a patient ("bed 7: hmong-speaking m", "BED 9 - SEPTIC 45M"); a verb after
"pt" before the day of the stay; a unit or a credential after a clinician's name; a team's
letter before a date; a possessive or a contraction after a name ("Mele's", "eval'd"); a child's
asthma score ("PRAM 10/12"); what a doctor did ("dr explained"); a respiratory ICU; a ventilator
mode; a qualifying stay's length; a floor's wing before its unit ("4 east ct step-down"); a
chaplain's degree; a hospitalist's role after the name.

Both sides; synthetic text only; rules and dictionaries through the real pipeline, a model's
spans through the guards."""

from __future__ import annotations

import pytest

from engine.core.domain import Document
from engine.core.labels import Label
from engine.pipeline import Pipeline
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    kept_of_a_models_span,
    recovered_by_the_allowlist,
)


@pytest.mark.parametrize(("text", "piece"), [
    ("SICU SIGN-OUT 0700\nBED 7 MWAMBA, SAFARI 37M  BURN 18% TBSA", "MWAMBA, SAFARI"),
    ("PICU NIGHT SIGN-OUT\nRM 1 ALSAIDI, H 11 YO NEW DX DKA ON GTT", "ALSAIDI, H"),
    ("PICU NIGHT SIGN-OUT 1900\nBED 2 - SAAD, ALI 12 YO NEW ONSET DKA", "SAAD, ALI"),
    ("progress note\nBed 12 Lealaiauloto 62F MVR/TV repair POD 0", "Lealaiauloto"),
    ("noc signout - cticu\n5 - fa'alogo \"nana\" 77f mvr pod 4, sundowning", "fa'alogo"),
    ("nursing 1900-0700\npt taufa pod 1 cabg x3, extub yesterday", "taufa"),
    ("PCP: none, last seen at Clínica Familiar Vermont ~1 yr ago", "Clínica Familiar Vermont"),
    ("MEDICARE A/B + PA MEDICAID (DUAL). MBI 4TG7-XK2-PM19. LTACH BENEFIT", "4TG7-XK2-PM19"),
    ("SAFETY EVENT REPORT FILED SE-24-08812. WIFE UPDATED BY RN", "SE-24-08812"),
    ("Referred to Crescent Family Services for rehousing assist", "Crescent Family Services"),
    ("Referred family to Obreros Unidos Legal Project re: comp", "Obreros Unidos Legal Project"),
    ("REFERRAL MADE TO KHORASAN FAMILY SERVICES - CASE MGR HOMAYOUN", "KHORASAN FAMILY SERVICES"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("Neuro: A&O x4. Speaks Kinyarwanda, Swahili, some English.", "Kinyarwanda", Label.DOCTOR),
    ("Wife's first language is Kaqchikel; pastor interpreted", "Kaqchikel", Label.PATIENT),
    ("SOCIAL: CONGOLESE, SPEAKS LINGALA AND FRENCH", "CONGOLESE", Label.PATIENT),
    ("lives in rented duplex close to other Bhutanese families", "Bhutanese", Label.LOCATION),
    ("WIFE MARIA REACHED BY WHATSAPP CALL W/ INTERPRETER", "WHATSAPP", Label.LOCATION),
    ("2. insurance - cofa migrant, enrolled in med-quest 2023, active.", "med-quest",
     Label.DOCTOR),
    ("asterixis present. West Haven gr 1-2. Lactulose 30 ml q4h", "West Haven", Label.LOCATION),
    ("HCV cirrhosis w/ multifocal HCC (outside Milan), admitted w/ variceal bleed", "Milan",
     Label.LOCATION),
    ("TTE (POD 2): well-seated mechanical MV (St. Jude 27mm), mean gradient 4", "Jude",
     Label.LOCATION),
])
def test_what_the_allowlist_takes_back(text: str, piece: str, label: Label) -> None:
    assert recovered_by_the_allowlist(text, piece, label)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("seen by Dr. Milan Novak in clinic", "Milan Novak", Label.DOCTOR),
    ("wife Maya at bedside, updated", "Maya", Label.PERSON),
])
def test_a_name_a_term_shares_stays_a_name(text: str, piece: str, label: Label) -> None:
    assert not recovered_by_the_allowlist(text, piece, label)


@pytest.mark.parametrize(("text", "piece"), [
    ("night float sign out\nbed 7: hmong-speaking m, septic shock from cholangitis",
     "hmong-speaking"),
    ("SICU SIGN-OUT\nBED 9 - SEPTIC 45M, LACTATE DOWN", "SEPTIC"),
    ("nursing note\npt extubated pod 1, on 2L NC", "extubated"),
    ("retractions, tripoding, speaking 1-2 words, PRAM 10/12. BBS tight", "10/12"),
    ("summary: dr explained severe diffuse axonal injury, poor prognosis", "explained"),
    ("bed available tomorrow pending Medicare 3-night qualifying stay (met)", "3-night"),
    ("rapid response note - 4 east ct step-down\ncalled at 0312 by rn", "4 east ct"),
    ("CONSULT SOCIAL SERVICES RE: HOUSING; REFER TO FAMILY SERVICES", "SERVICES"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


def test_a_sign_out_item_is_one_span_with_its_given_name(hipaa: Pipeline) -> None:
    text = "CTICU NIGHT SIGN OUT 1900\nBED 1 - FUIMAONO, IOANE 58 M POD 0 AVR (23MM BIOPROST)"
    patients = [text[s.start:s.end] for s in hipaa.run(Document.from_text(text)).active
                if s.label is Label.PATIENT]
    assert patients == ["FUIMAONO, IOANE"]


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("CHAPLAIN PAGED FOR FAMILY SUPPORT.\nDR LINDQVIST MICU ATTENDING", "LINDQVIST MICU",
     Label.DOCTOR, ["LINDQVIST"]),
    ("TO CONTINUE. CALL W/ QUESTIONS.\nA. DUBOIS LMSW", "A. DUBOIS LMSW", Label.PERSON,
     ["A. DUBOIS"]),
    ("MICU NIGHT SIGNOUT - TEAM A - 8/30\nBED 1 STABLE", "A - 8/30", Label.DATE, ["8/30"]),
    ("nursing note 0700-1900 sunday\npt mahe pod 2 mvr (33mm bioprosthetic)", "mahe pod",
     Label.PATIENT, ["mahe"]),
    ("FAMILY: WIFE SALOTE AND GRANDDAUGHTER 'ANA (INTERPRETS, TONGAN).", "ANA", Label.PERSON,
     ["'ANA"]),
    ("spoke with Mele's daughter by phone", "Mele", Label.PERSON, ["Mele"]),
    ("needing ppv this shift. np ferreira eval'd, caffeine level sent", "ferreira",
     Label.DOCTOR, ["ferreira"]),
    ("pt goes by 'Ana' per family", "Ana", Label.PATIENT, ["Ana"]),
    ("interprets for the family: granddaughter 'Ana", "Ana", Label.PERSON, ["'Ana"]),
    ("pt's brother-in-law Saufo'i, who will relay to the mother", "Saufo", Label.PERSON,
     ["Saufo'i"]),
    # a note's date after its heading, a culture's date before its result
    ("MICU PROGRESS NOTE - 1/3\nPT IN BED, NO ACUTE EVENTS", "1/3", Label.DATE, ["1/3"]),
    ("late entry for 4/9 at 1530 - note written next am", "4/9", Label.DATE, ["4/9"]),
    ("ID: TMAX 38.7 AT 0100. BCX FROM 2/10 NGTD. CEFTOLOZANE CONT", "2/10", Label.DATE,
     ["2/10"]),
    ("Nursing note: PS 5/5 tolerated x2h", "5/5", Label.DATE, []),
    ("HUSBAND WORRIED ABOUT UPCOMING HEARING 3/4 - LETTER FROM ATTENDING", "3/4", Label.DATE,
     ["3/4"]),
    ("pt hard of hearing 3/4 words repeated back", "3/4", Label.DATE, []),
    # a respiratory ICU and a burn ventilator's mode are no one
    ("Transfer Summary - RICU to LTACH\nPatient: Balaz, Jan", "RICU", Label.DOCTOR, []),
    ("Switched to HFPV (VDR-4) at 0930 per burn team", "HFPV", Label.HOSPITAL, []),
    ("family updated by dr ahmed at 1400", "ahmed", Label.DOCTOR, ["ahmed"]),
    # after "pt" the day of the stay is a name's evidence, not after a verb or a state
    ("nursing 1900-0700\npt taufa pod 1 cabg x3", "taufa", Label.PATIENT, ["taufa"]),
    ("nursing note\npt extubated pod 1, on 2L NC", "extubated", Label.PATIENT, []),
    ("nursing note\npt stable hd 3, transfer to floor", "stable", Label.PATIENT, []),
    ("ATTENDING: DR OKONKWO   ACCEPTING: DR DELACROIX HOSPITALIST\n\nREASON",
     "DELACROIX HOSPITALIST", Label.DOCTOR, ["DELACROIX"]),
    ("Chaplain Amos Whitlock, M.Div, BCC", "M.Div", Label.DOCTOR, []),
    # a floor's wing before its unit is no street; a street keeps its court
    ("lives at 4 East Ct, Decatur, with wife", "4 East Ct", Label.LOCATION, ["4 East Ct"]),
    ("PT TRANSFERRED TO WHITCOMB 5 NEURO STEPDOWN", "WHITCOMB 5", Label.LOCATION,
     ["WHITCOMB 5"]),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept
