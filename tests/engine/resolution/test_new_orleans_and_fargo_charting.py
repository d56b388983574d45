"""Golden cases from ICU notes of session 55 (issue 26; dev set 93: a New Orleans trauma ICU and
Creole, Vietnamese and Honduran families, a Fargo or Sioux Falls ICU and Norwegian and German
Lutheran, South Sudanese, Karen and Kurdish families; dev set 94: a Minneapolis surgical ICU and
Somali, Hmong, Ojibwe and Iron Range families, a Miami ICU and Cuban, Haitian and cruise-ship
families).

PHI: a clinician named in a form's field that follows another on the same line ("ADMIT DATE:
10/22   ATTENDING: FEIST   RESIDENT: OYELARAN"), though the word is English and the next field's
label is a role; a patient after "pt" written surname, comma, given name ("pt machar, james");
a sign-out item whose age stands alone before a comma ("rm 14: boudreaux, alcide, 84, fall");
Karen names and the title that opens them ("pt naw hser moo", "pt saw ler wah 58 yo m",
"husband Saw Eh Doh"); a month/day after a fever's course ("DEFERVESCED 2/9"); a transfer
centre's call number, whose letters are no temperature's cue ("CALL # TC-250128-0412"); a
month/day after where a patient went ("returned to ship 2/9", "TRANSFERRED OUT OF MICU 2/3");
the town after a hospital's name and a comma ("COMMUNITY HOSPITAL, TOWER").

Not PHI: South Sudanese peoples and their languages ("Nuer-speaking F"), a Karen speaker, the
Coast Guard; "pt saw neuro today" (the verb); a participle and a given name after "pt" ("pt
sedated, rose to 38"); a sign-out item whose words are no name before a number and a comma;
a shift or an attending's post charted short ("FROM DAYSHIFT RN", "dr okonkwo attg"); the sex
letter after a surname before a dash ("Bed 15 Quintero M — alcoholic hepatitis"); a vent
setting after a change of mode ("changed to PS 10/5").

Both sides; synthetic text only; rules and dictionaries through the real pipeline, a model's
spans through the guards."""

from __future__ import annotations

import pytest

from engine.core.labels import Label
from tests.engine.resolution.charting import (
    kept_of_a_models_span,
    recovered_by_the_allowlist,
    signout_names,
)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("ADMIT DATE: 10/22   ATTENDING: FEIST   RESIDENT: OYELARAN\nPLAN: OR IN AM",
     "FEIST", Label.DOCTOR, ["FEIST"]),
    ('social work note - follow up\npt machar, james (goes by "jok") 41 yo m',
     "machar, james", Label.PATIENT, ["machar, james"]),
    ("case management - dc planning\npt naw hser moo s/p trach + peg last wk",
     "naw hser moo", Label.PATIENT, ["naw hser moo"]),
    ("nursing note 0700-1900\npt saw ler wah 58 yo m, adm 2 days ago", "saw", Label.PATIENT,
     ["saw"]),
    ("Met w/ pt's husband Saw Eh Doh and adult daughter", "Eh Doh", Label.PERSON,
     ["Saw Eh Doh"]),
    ("O: T 37.2 (DEFERVESCED 2/9), HR 110, BP 96/70", "2/9", Label.DATE, ["2/9"]),
    # a code's letters before a long number are no temperature's cue
    ("REC'D 1640 1/28 VIA TRANSFER CENTER, CALL # TC-250128-0412.", "250128-0412",
     Label.PHONE, ["250128-0412"]),
])
def test_what_the_guards_keep_of_a_names_span(text: str, piece: str, label: Label,
                                              kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("nursing note\npt saw neuro today, agrees w/ plan", "saw neuro", Label.PATIENT),
    ("nursing note\npt sedated, rose to 38.9 overnight", "sedated, rose", Label.PATIENT),
])
def test_what_the_guards_drop(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == []


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("acquired during home leave, returned to ship 2/9 on no prophylaxis.", "2/9", Label.DATE,
     ["2/9"]),
    ("READY FOR STEP-DOWN (TRANSFERRED OUT OF MICU 2/3).\nPAYER: MEDICAID", "2/3", Label.DATE,
     ["2/3"]),
    ("vent: changed to PS 10/5, tolerating", "10/5", Label.DATE, []),
    ("went to OR for fixation, strength 4/5", "4/5", Label.DATE, []),
    ("REFERRING: VERMILION LAKES COMMUNITY HOSPITAL, TOWER\nCC: SNOWMOBILE VS TREE", "TOWER",
     Label.LOCATION, ["TOWER"]),
    ("SICU RN NOTE 1900-0700\nPT RECIEVED FROM DAYSHIFT RN AT 1900", "DAYSHIFT", Label.DOCTOR,
     []),
    ("cm aware.\ndr a. mwangi pgy3 / dr okonkwo attg", "okonkwo attg", Label.DOCTOR,
     ["okonkwo"]),
    ("Bed 15 Quintero M — alcoholic hepatitis, MDF 48", "Quintero M", Label.PATIENT,
     ["Quintero"]),
    # after a comma the letter is the given name's initial
    ("SIGNOUT\nRM 4 OKAFOR, M - POD 2 CABG", "OKAFOR, M", Label.PATIENT, ["OKAFOR, M"]),
])
def test_miami_and_minneapolis_charting(text: str, piece: str, label: Label,
                                        kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


def test_a_sentence_opening_saw_is_no_karen_title() -> None:
    assert kept_of_a_models_span("Saw Dr. Lee today. Family saw Kim at noon", "Kim",
                                 Label.PERSON) == ["Kim"]


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("A/P: Brief hx: Nuer-speaking F, lives here since 2010", "Nuer", Label.PATIENT),
    ("pt prefers Dinka interpreter for family meeting", "Dinka", Label.PERSON),
    ("pt saw ler wah 58 yo m karen speaker, adm 2 days ago", "karen", Label.PATIENT),
    ("from son (504.555.0147), EMS, and Coast Guard report.", "Coast Guard", Label.PERSON),
])
def test_peoples_languages_and_services_are_no_names(text: str, piece: str,
                                                     label: Label) -> None:
    assert recovered_by_the_allowlist(text, piece, label)


@pytest.mark.parametrize(("text", "names"), [
    ("1900 sign out - pod b\nrm 14: boudreaux, alcide, 84, fall at home, r hip fx\n"
     "rm 15: gsw x2 r chest, vats pod 2", ["boudreaux, alcide"]),
    ("night signout\nrm 4: vent, 40, peep 5\nrm 5 smith, 70, copd", ["smith"]),
    # the age stands between commas: no item's words before a reading
    ("nicu signout\n- NIRS cerebral 72, flank 58-64. Worry if falls", []),
])
def test_sign_out_items_with_an_age_before_a_comma(text: str, names: list[str]) -> None:
    assert signout_names(text) == names
