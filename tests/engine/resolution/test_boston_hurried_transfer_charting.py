"""Golden cases from ICU notes with sparse PHI (issue 26, session 48; dev sets 53-56, a Boston
teaching hospital, early-2000s charting, hurried end-of-shift notes, Slavic, Vietnamese,
Korean, Filipino and Arab-American families, helicopter transfers; and what dev 1-52 still
showed): what someone goes by even when it is shorthand, who one covers for, the festivals
families plan around, a town that is an uncommon English word where someone lives, and a
hospital-shaped acronym after "from" are PHI; a province or state someone belongs to, a verb's
particle, a coma or sedation scale by its city, an organ's cancer, the valve after its grade,
an interpreter's iPad, joint replacements and assist levels, a trade one works in, the
family's shop, a saint's medal, ARDS by its city, languages, devotions and the holy month,
kin in the family's language, a time of day or a pager after a name and the family's words
quoted with a translation are not. Both sides; synthetic text only; rules and dictionaries
through the real pipeline, a model's spans through the guards and the allowlist."""

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
    ("Lives in Springfield, Texas w/ wife", "Springfield"),
    # In capitals the town reads as the phrase ("CLOTHES CUT OFF"): only its case tells.
    ("Clothing sent home w/ wife to Cut Off, LA", "Cut Off"),
    ("pt from grand rapids, lives in green bay", "green bay"),
    ("Pt, who goes by Peg, had a good day. Extubated 0930 to 4L NC", "Peg"),
    ("covering for bea sorensen on bed 3 till 1500 while she was at the", "bea sorensen"),
    ("FAMILY ASKING IF PT CAN BE HOME FOR TET; DAUGHTER PLANS FAMILY GATHERING", "TET"),
    ("TO WAIT TO DISCUSS CANCER UNTIL AFTER CHUSEOK WEEKEND, FAMILY MEETING", "CHUSEOK"),
    ("PT'S SON AT BEDSIDE. PT LIVES IN DEARBORN W/ SON'S FAMILY IN 2-STORY HOME", "DEARBORN"),
    ("pt from revere, lives w/ wife, independent at baseline", "revere"),
    ("PT ARRIVED VIA ROTOR WING 1522 FROM WCH. REPORT FROM FLIGHT RN AT BEDSIDE", "WCH"),
    ("Spoke w/ Mr. Haddad at bedside re: plan", "Haddad"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("Hospital course: M, Ontario resident, presented to our ED while at work", "Ontario"),
    ("Pt is Canadian citizen, Ontario resident, injured in MVC on the interstate", "Ontario"),
    ("BELONGINGS: CLOTHING CUT OFF AT OSH, SENT IN BAG W/ CREW", "CUT OFF"),
    ("pt's disability (ssi) was cut off after a review", "cut off"),
    ("opens eyes to voice, squeezes bilat, glasgow 10t. back on propofol 20.", "glasgow"),
    ("NEURO: GLASGOW 3T (SEDATED) - NOT PROGNOSTIC", "GLASGOW"),
    ("FH: FATHER LUNG CA (ALSO A STEELWORKER). MOTHER DM2.", "LUNG"),
    ("lac repaired, due for tet booster, given after tet status confirmed", "tet"),
    ("lives in mobile home w/ husband, 2 steps to enter", "mobile"),
    ("Echo from last admit EF 25-30%, mod MR. Digoxin level 0.6. Coreg held", "Digoxin"),
    ("PORTUGUESE SPEAKING - INTERPRETER IPAD USED FOR AM ASSESSMENT.", "IPAD"),
    ("tolerated cefazolin at TKA. Critical care time 55 min.", "TKA"),
    ("or trunk control initially, improved to SBA w/ BUE support. HR 92", "SBA"),
    ("Pain/sedation titrated to BSAS goal <=1, will reassess q1h.", "BSAS"),
    ("best contact partner cell. pt works construction, worried about lost wages",
     "works construction"),
    ("daughter called 1015 from work at the family's pharmacy asking about results",
     "family's pharmacy"),
    ("she wants to bring in a rosary & saint anthony medal, ok per policy", "saint anthony"),
    ("2h then back to ac for rest overnight. richmond 0, cam neg today.", "richmond"),
    ("P/F 78 on FiO2 90%, PEEP 14 (Berlin severe). Proning per PROSEVA.", "Berlin"),
    ("MOTHER SPEAKS CEBUANO - INTERPRETER REQUESTED.", "CEBUANO"),
    ("Wife asked whether the bed could face Mecca - repositioned", "Mecca"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("opens eyes to voice, glasgow 10t, back on propofol", "glasgow", Label.LOCATION),
    ("FH: FATHER LUNG CA, MOTHER BREAST CA", "LUNG", Label.PERSON),
    ("CT head w/ new brain mets, onc aware", "brain", Label.PERSON),
    ("Pt is a Cape Verdean man. Primary language Kriolu; daughter interprets", "Kriolu",
     Label.PERSON),
    ("Pt is a Cape Verdean man, admitted post-arrest", "Cape Verdean", Label.LOCATION),
    ("recorded chanting (Nam Mo A Di Da Phat) played softly at bedside", "Nam Mo",
     Label.PERSON),
    ("KEEP HOLY WATER AND A SMALL SANTO NIÑO STATUE AT BEDSIDE", "SANTO NIÑO", Label.PERSON),
    ("NEEDS ENDO PLAN BEFORE NEXT RAMADAN. SW FOR INSULIN COST", "RAMADAN", Label.PERSON),
    ("transferred from Bellmont Regional w/ SAH, Hunt & Hess 3, modified Fisher 3", "Hess 3",
     Label.LOCATION),
])
def test_named_things_are_no_name(text: str, piece: str, label: Label) -> None:
    assert recovered_by_the_allowlist(text, piece, label)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("Granddaughter calls pt Babcia Jadzia; pt responds well to it.", "Babcia Jadzia",
     Label.PATIENT, ["Jadzia"]),
    ("likely urinary source. Family calls her Nanay Cora.", "Nanay Cora", Label.PATIENT,
     ["Cora"]),
    ("Transferred from SBCH night of admit w/ central cord syndrome.", "SBCH night",
     Label.HOSPITAL, ["SBCH"]),
    ("call gi fellow dr haddad pgr 4471 and then page me", "haddad pgr", Label.DOCTOR,
     ["haddad"]),
    ("intensivist dr. kowalczyk made aware of fvc 1.1 at 0200", "kowalczyk made", Label.DOCTOR,
     ["kowalczyk"]),
    ('anxious overnight, repeating "hindi ako makahinga" (I can\'t breathe).',
     "hindi ako makahinga", Label.PATIENT, []),
    ('S: PT REPORTS "MASAKIT ANG TIYAN" (STOMACH HURTS) 5/10, CONSTANT', "MASAKIT",
     Label.PATIENT, []),
    ('pt keeps asking "nasaan si Maria" (where is Maria), daughter called', "Maria",
     Label.PERSON, ["Maria"]),
    ('pt asks for "Bea" (his wife) all night', "Bea", Label.PERSON, ["Bea"]),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept
