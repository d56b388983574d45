"""Golden cases from ICU notes of patients in custody, adolescents, a mass-casualty event and
air medevac transfers with sparse PHI (issue 26, dev sets 23 and 24): custody and nursery
words as no institution, a vaping injury, hyperbaric oxygen and a handover's form as no name,
a unit after its number as no initial, a fraction of a dose and blood-culture bottles as no
date; nicknames where the chart says they are ones, a sign-out list's patient by bed, an
extension after "line", a named adolescent unit. Both sides; synthetic text only; rules and
dictionaries through the real pipeline, a model's proposals at the guards."""

from __future__ import annotations

import pytest

from engine.core.labels import Label
from engine.pipeline import Pipeline
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    kept_of_a_models_span,
)


@pytest.mark.parametrize(("text", "piece"), [
    ("DISPO: LIKELY FLOOR, THEN BACK TO JAIL INFIRMARY. D/W ATTENDING.", "JAIL INFIRMARY"),
    ("NARCAN GTT STARTED AT 2/3 OF WAKING DOSE, 0.5 MG/H.", "2/3"),
    ("Strep pneumoniae in BCx 2/2, sensitive to ceftriaxone.", "2/2"),
    ("ALBUTEROL 20 MG NEB, LOKELMA 10 G. REPEAT K 6.1, QRS 102.", "G. REPEAT"),
    ("ARRIVED 0115, CORE TEMP 32.4 C. ACTIVE REWARMING STARTED", "C. ACTIVE"),
    ("A/P: EVALI (dx of exclusion) vs atypical/viral PNA", "EVALI"),
    ("Pt admitted 2300 after MDMA ingestion at a concert", "MDMA"),
    ("TMs intact pre-dive (checked by HBO MD). Sedation weaned", "HBO"),
    ("Bed 12 – post-arrest, TTM 36 day 2, rewarm starts 0600.", "post-arrest"),
    ("no peritonism, Grey Turner/Cullen signs absent. Ext warm.", "Grey Turner"),
    ("pt goes by wheelchair to CT. Will call him back later.", "wheelchair"),
    ("code status (DNR, prefers nickname) reviewed", "DNR"),
    ("trauma alert called, trauma bay 2, trauma echo shows no effusion", "trauma echo"),
    ("per protocol on nights, per report from cards", "protocol"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("he says pt goes by duke, gets agitated w/o hearing aids", "duke"),
    ('ICU Progress Note\n\nPt prefers "Hal". Submassive PE', "Hal"),
    ("Pt asks staff to call him Dre. Capacity assessed by psych.", "Dre"),
    ("bed 5 — jojo (what he goes by), asthma, continuous albuterol", "jojo"),
    ('2. BED 3 – "TINY" (NICKNAME, PT PREFERS) – EVALI, HFNC 3', "TINY"),
    ("PT (MANNY, PREFERS NICKNAME) RESTING IN BED, A&O X4", "MANNY"),
    ("Night Sign-out MICU\n\nBed 2 – Kealoha, COPD/pna from the island, day 4.", "Kealoha"),
    ("provided her with unit direct line x3382 and a hotel voucher", "3382"),
    ("bed search started, Ashgrove Adolescent Unit may have bed Tues.",
     "Ashgrove Adolescent Unit"),
    ("TRAUMA ALIAS ZZTRAUMA, OPAL (MCI TAG YELLOW) IDENTIFIED BY SPOUSE", "ZZTRAUMA, OPAL"),
    ("filter changed 1400 d/t clotting, per patel on renal. vac intact", "patel"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("INMATE FROM STATE PRISON, 2 OFFICERS AT BEDSIDE.", "STATE PRISON", Label.LOCATION, []),
    ("Plan to back-transport to level III NICU at the referring hospital", "level III",
     Label.HOSPITAL, []),
    ("gets hd at island dialysis m/w/f, son aware", "island dialysis", Label.HOSPITAL,
     ["island dialysis"]),
    ("Family (Desmond and sister) at bedside. Attending Lindqvist notified.",
     "Attending Lindqvist", Label.DOCTOR, ["Lindqvist"]),
    ("report given to receiving RN, SBAR. All belongings with pt.", "SBAR", Label.DOCTOR, []),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept
